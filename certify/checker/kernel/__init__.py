"""The kernel twins: Python twins of the kernel libraries (coq/NNCert/*.v,
lean/NNCert/*.lean), one module per Coq/Lean module (lists, arith, net, rank_core, rank,
resnet, compind, relu, tanh).

Each function here mirrors the Lean definition `NNCert.<camelCase>` and the Coq definition
`<snake_case>` of the same name, clause by clause; the Lean and Coq versions recurse
structurally where these use loops. Only Python ints (and tuples/lists of them) are used:
no flint, no sympy, no Fraction, so this checker is independent of the generator.

Conventions shared by the three implementations:
- a rational is a pair (num, den) with den > 0, never normalised;
- values mod p lie in [0, p); 1 < p < 2^31 (so Coq's 63-bit products never overflow);
- a network is (widths, acts, bias, theta) with theta flat: layer by layer, neuron by
  neuron, incoming weights then the bias (spec.MLP documents the layout).
"""
