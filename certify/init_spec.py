"""`certify init KIND [--family FAMILY]`: a starter spec for one certificate kind.

Each starter is a small TOML spec of the registry's (family, kind) (certify/checker/registry.py)
that `certify run` accepts as it stands, with the kind's optional fields as comments and their
defaults (docs/spec-reference.md lists every field). The instances are small, so that a first
`certify run` finishes in seconds; the mathematics each kind certifies is in docs/math.md.

A kind that several families have (`rank`: mlp, resnet, relu; `orbit`: resnet, tanh; `equiv`:
relu, tanh) takes its first family in the registry unless `--family` names another."""

from __future__ import annotations

from certify.checker import registry
from certify.errors import InputError

_RANK_OPTIONS = """\
# prime = 2147483647          # a prime in [3, 2^31) (default 2^31 - 1)
# upper = true                # also certify an upper bound on the rank at theta
# max_grid = 4096             # largest unisolvent lattice for the upper bound
# attempts = 24               # theta attempts (24 with a seed, 3 for a theta given by hand)
"""

STARTERS: dict[tuple[str, str], str] = {
    ("mlp", "rank"): """\
# A rank certificate for a polynomial MLP (docs/math.md §1): a certified lower bound on the
# rank of the Jacobian of theta -> f_theta, hence on the functional dimension.
name = "my-mlp"

[network]
family = "mlp"
widths = [3, 2, 1]            # d0, ..., dL
activation = "t^2"            # a polynomial in t, or a list with one per hidden layer
bias = false

[parameters]
seed = 0                      # or weights = [...] (and biases = [...] with bias = true)
# range = 5                   # seeded entries are nonzero integers in [-range, range]

[[certificate]]
kind = "rank"
"""
    + _RANK_OPTIONS,
    ("mlp", "mlp-identifiable"): """\
# Identifiability of a bias-free polynomial MLP up to hidden-neuron permutations
# (docs/math.md §1, "MLP identifiability"): no inactive or redundant neuron, the hypotheses
# on sigma, the theorem that applies; a rank certificate at the same point is attached.
name = "my-identifiable"

[network]
family = "mlp"
widths = [2, 1, 1]
activation = "t^3 + t^2"      # one activation with sigma(0) = 0
bias = false

[parameters]
weights = [[[2, -3]], [[5]]]  # integer weights

[[certificate]]
kind = "mlp-identifiable"
"""
    + _RANK_OPTIONS,
    ("mlp", "equiv"): """\
# Whether two parameter points of one polynomial MLP give the same map (docs/math.md §1,
# "Equivalence of two parameter points"): an input where they differ, or agreement on the
# lattice {x in N^d0 : |x| <= D} (D the product of the activations' degrees), unisolvent
# for total degree <= D.
name = "my-mlp-equiv"

[network]
family = "mlp"
widths = [2, 2, 1]
activation = "t^2"
bias = false

[parameters]
weights = [[[1, 2], [3, -1]], [[1, -2]]]

[[certificate]]
kind = "equiv"                # the second point: same network, weights (and biases) as above
weights = [[[-3, 1], [2, 4]], [[-2, "1/4"]]]
""",
    ("resnet", "rank"): """\
# A rank certificate for a polynomial ResNet x -> x + sigma(W x + b) (docs/math.md §2).
name = "my-resnet"

[network]
family = "resnet"
width = 2
depth = 2
activation = "t^3 + t^2"      # or a list with one per layer
# outer = false               # true: layers x + V sigma(W x + b)

[parameters]
seed = 1                      # or weights = [W_1, ...], biases = [b_1, ...]

[[certificate]]
kind = "rank"
"""
    + _RANK_OPTIONS,
    ("resnet", "orbit"): """\
# The root-of-unity symmetry group of a polynomial ResNet and the orbit of theta in its
# fiber (docs/math.md §2).
name = "my-resnet-orbit"

[network]
family = "resnet"
width = 1
depth = 2
activation = "t^4 + t^2"

[parameters]
seed = 0

[[certificate]]
kind = "orbit"
# field = "real"              # or "complex" (roots of unity of higher order)
""",
    ("resnet", "critical"): """\
# Whether theta is a critical point of a polynomial ResNet (docs/math.md §2): here w1 = 0, a
# dead layer, so the rank at theta drops below the generic rank.
name = "my-resnet-critical"

[network]
family = "resnet"
width = 1
depth = 2
activation = "t^2"

[parameters]
weights = [[[0]], [[1]]]
biases = [[1], [2]]

[[certificate]]
kind = "critical"
# locus = false               # true: also certify the critical locus (width-one ResNets)
# prime = 2147483647
# max_grid = 4096
# attempts = 24
""",
    ("resnet", "implicit"): """\
# An implicit equation of the image of a width-one ResNet in the coefficients c_k of
# F(x) = sum c_k x^k (docs/math.md §2, Figure 1).
name = "my-resnet-implicit"

[network]
family = "resnet"
width = 1
depth = 2
activation = "t^2"

[parameters]
weights = [[[1]], [[1]]]
biases = [[0], [0]]

[[certificate]]
kind = "implicit"
equation = "c3^3 - 4*c2*c3*c4 + 8*c4^2"
bias = false                  # fix every bias at 0 (default true)
""",
    ("relu", "rank"): """\
# A rank certificate for a ReLU network (docs/math.md §3): the rank of the batch Jacobian at
# theta, hence the functional dimension at theta (exactly D - H when reached).
name = "my-relu"

[network]
family = "relu"
widths = [2, 2, 1]            # n0, ..., nL; ReLU networks always have biases

[parameters]
seed = 1                      # or weights = [...], biases = [...]

[[certificate]]
kind = "rank"
# batch = [[0, 0], [1, "1/2"]]   # a batch of your own; otherwise the tool designs one
# prime = 2147483647
# attempts = 128              # theta attempts (8 in the Grillo-Montufar setting or for a
                              # theta given by hand, 1000 for input width 1)
""",
    ("relu", "equiv"): """\
# Whether two ReLU networks with input width 1 compute the same function (docs/math.md §3):
# here the second is the first with its hidden neurons swapped and scaled by 2.
name = "my-relu-equiv"

[network]
family = "relu"
widths = [1, 2, 1]

[parameters]
weights = [[[1], [-2]], [[3, 1]]]
biases = [[1, 3], [2]]

[other]                       # the second network (or seed = ...)
weights = [[[-4], [2]], [["1/2", "3/2"]]]
biases = [[6, 2], [2]]

[[certificate]]
kind = "equiv"
# prime = 2147483647
""",
    ("tanh", "affsym"): """\
# The affine symmetry group {(a, b, g, d) : rho(a x + b) = g rho(x) + d} of an activation,
# each element proved as an identity (docs/math.md §4). No [network] is needed.
name = "my-affsym"

[[certificate]]
kind = "affsym"
activation = "logistic"       # tanh, logistic (sigmoid), arctan, softsign, erf, xtanh, relu,
                              # sin, or an expression such as "x*tanh(x)" or "t^3 + t^2"
""",
    ("tanh", "orbit"): """\
# The orbit of a tanh network under the group of its activation's affine symmetries and the
# permutations of interchangeable neurons: group order, orbit size, canonical representative
# (docs/math.md §4).
name = "my-tanh-orbit"

[network]
family = "tanh"
activation = "tanh"           # its affine symmetry group must be finite of order 1 or 2
widths = [1, 3, 1]            # layered; or a DAG: inputs, hidden, outputs, edges

[parameters]
weights = [[[1], [-2], [3]], [[1, 2, -1]]]
biases = [[1, 1, "1/2"], [0]]

[[certificate]]
kind = "orbit"
""",
    ("tanh", "equiv"): """\
# Whether two tanh networks of the same architecture are related by the group of symmetries
# (docs/math.md §4): an explicit group element, or two different canonical forms.
name = "my-tanh-equiv"

[network]
family = "tanh"
activation = "tanh"
widths = [1, 3, 1]

[parameters]
weights = [[[1], [-2], [3]], [[1, 2, -1]]]
biases = [[1, 1, "1/2"], [0]]

[[certificate]]
kind = "equiv"                # the second network: same architecture, its own parameters
weights = [[[2], [-3], [1]], [[-2, 1, 1]]]
biases = [[-1, "-1/2", 1], [0]]
""",
    ("compind", "compind"): """\
# Linear (in)dependence of sigma(p_1), ..., sigma(p_k) (docs/math.md §1, composition
# independence). No [network] is needed.
name = "my-compind"

[[certificate]]
kind = "compind"
variables = ["t"]             # default ["x"]
polynomials = ["t", "2*t", "3*t"]
activation = "z^2 + z"        # or generic_degree = d, or search = true (max_degree = 12)
# origin = false              # sigma(0) = 0 and p_i(0) = 0
# bias = false                # the constant 1 joins the family
""",
    ("compind", "prop21"): """\
# The hypotheses of Prop. 2.1 (or Prop. 3.3 with origin = true) of Kohn-Marchetti-Massarenti-
# Mella for an activation (docs/math.md §1). No [network] is needed.
name = "my-prop21"

[[certificate]]
kind = "prop21"
activation = "z^3 + z + 1"
# origin = false              # true: Prop. 3.3 (sigma(0) = 0, a_r a_(r-1) != 0)
""",
    ("compind", "newman-slater"): """\
# Independence of p_1^r, ..., p_k^r and whether r > k(k - 2) (Newman-Slater, docs/math.md §1).
# No [network] is needed.
name = "my-newman-slater"

[[certificate]]
kind = "newman-slater"
variables = ["x", "y"]
polynomials = ["x + y", "x - y", "2*x + 3*y"]
power = 4
""",
}


def kinds() -> list[str]:
    """The kind names of the registry, in registry order, each once."""
    return list(dict.fromkeys(k.kind for k in registry.KINDS))


def families_of(kind: str) -> list[str]:
    """The families that have `kind`, in registry order (the first is the default)."""
    return [k.family for k in registry.KINDS if k.kind == kind]


def starter(kind: str, family: str | None = None) -> str:
    """The starter spec text of (family, kind); family None: the kind's first family.

    An unknown kind, or a family that does not have the kind, is an InputError (exit 2)
    naming the valid kinds (or that kind's families)."""
    if kind not in kinds():
        raise InputError(f"init: unknown kind {kind!r}; expected one of {', '.join(kinds())}")
    fams = families_of(kind)
    if family is None:
        family = fams[0]
    if family not in fams:
        raise InputError(
            f"init --family: kind {kind!r} is not a kind of family {family!r}; "
            f"expected one of {', '.join(fams)}"
        )
    return STARTERS[(family, kind)]
