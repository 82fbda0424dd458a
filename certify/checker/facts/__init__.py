"""The facts layer: decisions the checker makes in Python only, with no Coq or Lean twin.

Symmetry tangents and expected dimensions of polynomial networks, the ResNet orbit plan
(exact rational-root finding), ReLU evaluation and the exhaustive symmetry search, tanh-type
DAGs, the activation grammar, the affine-symmetry proofs (sympy) and which of them Coq
states. A result that rests on one of these modules rests on Python (and, for tanh-type
activations, sympy), not on a prover: the README's trust table and docs/trust-model.md say
which results those are. Imports the kernel and fast layers and checker/ir.py only."""
