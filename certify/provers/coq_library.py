"""The Coq library NNCert: its files, in dependency order, and their logical names.

coq/NNCert/ is layered (docs/architecture.md, "Kernel library conventions"):

* `kernel/`: plain-Coq computation, the twins of certify/checker/kernel/ (Lists, Arith, Net,
  RankCore, Rank, Compind, ResNet, ReLU, Tanh): what `vm_cast_no_check` runs;
* `meaning/`: the theorems that say what the kernel's checks mean, shared by every family
  (the Jacobian over {poly rat} with MathComp, reverse mode, elimination mod p, the rank
  theorems), and one folder per family with theorems of its own (`resnet/`, `relu/`,
  `compind/`, `tanh/`).

Certificates and library files import modules by their short names (`From NNCert Require
Import Rank`: Coq resolves a partially qualified name under `-R NNCert NNCert`); the audit
driver names definitions by their full logical names (`qualified`), so that a certificate's
local redefinition cannot stand in for the library's."""

from __future__ import annotations

# Paths under coq/NNCert, without ".v", in the order coqc compiles them.
LIBRARY = [
    "kernel/Lists",
    "kernel/Arith",
    "kernel/Net",
    "kernel/RankCore",
    "kernel/Rank",
    "meaning/CheckerSound",
    "kernel/Compind",
    "meaning/TermsMeaning",  # the kernel's fractions and term lists over Q (shared)
    "meaning/compind/CompindSound",
    "meaning/compind/CompindMeaning",  # what the Prop. 2.1 / 3.3 facts mean, over Q (issue 24)
    "meaning/compind/DependenceMeaning",  # what a composition-dependence fact means, over Q
    "meaning/compind/IdentifiabilityMeaning",  # the MLP-identifiability hypotheses, over Z and Q
    "kernel/ResNet",
]
LIBRARY += ["kernel/ReLU", "meaning/relu/ReLUSound"]  # ReLU networks (issue 5)
LIBRARY += ["kernel/Tanh", "meaning/tanh/TanhSym"]  # tanh-type activations (issue 6)
# What an affine-symmetry element means: an identity over Coq's reals (issue 24)
LIBRARY += ["meaning/tanh/AffsymMeaning"]
# What a rank certificate means (issue 15): the Jacobian defined over {poly rat} (MathComp 1.15),
# the proofs that the kernel's reverse mode computes it and that its elimination mod p certifies
# a nonsingular minor, and the theorems from the kernel's checks to r <= \rank of it over Q
# (RankSound) and to \rank <= u (UpperSound, UpperSoundReLU).
LIBRARY += ["meaning/Jacobian", "meaning/RankMeaning", "meaning/ReverseModeRel", "meaning/Backprop"]
# What an MLP equivalence certificate means: outputs over Q at the lattice points or at x
LIBRARY += ["meaning/EquivMeaning"]
# What a ReLU equivalence certificate's differing input means: outputs over Q at x
LIBRARY += ["meaning/relu/ReLUEquivMeaning"]
# What a piecewise ReLU equivalence means: the same outputs at every rational input
LIBRARY += ["meaning/relu/ReLUPiecesMeaning"]
# What a real ResNet orbit certificate means: outputs over Q at the lattice points, distinct points
LIBRARY += ["meaning/resnet/OrbitMeaning"]
# What a scalar ResNet's coefficients mean: F_theta(x) = sum_k c_k x^k over Q (issue 24)
LIBRARY += ["meaning/resnet/ScalarMeaning"]
LIBRARY += ["meaning/resnet/BackpropResNet", "meaning/ElimSound", "meaning/RankSound"]
# What a composition-independence fact means: the family's functions independent over Q (issue 24)
LIBRARY += ["meaning/compind/IndependenceMeaning"]
# The generic step of an MLP / ResNet rank certificate: rank >= r at all but finitely many
# points of every line through theta (issue 24)
LIBRARY += ["meaning/GenericRank"]
# The differential of theta -> f_theta at theta: the sample Jacobian's rank bounds its rank
LIBRARY += ["meaning/Differential"]
LIBRARY += ["meaning/UpperSound", "meaning/relu/UpperSoundReLU"]
# The scaling symmetry behind the upper-bound tangents, over the reals (no certificate loads it)
LIBRARY += ["meaning/ScalingTangent"]

# short module name (the file's stem) -> its path under coq/NNCert
PATHS = {path.rsplit("/", 1)[-1]: path for path in LIBRARY}


def qualified(name: str) -> str:
    """The full logical name of `Module.definition` (or of a module): NNCert.<folders>.name,
    e.g. `Rank.lw_samples` -> `NNCert.kernel.Rank.lw_samples`."""
    module, _, rest = name.partition(".")
    full = "NNCert." + PATHS[module].replace("/", ".")
    return f"{full}.{rest}" if rest else full
