"""Facts about an architecture that claims and checks state (trusted): the parameter
layout, the known continuous symmetries and their tangents, the dimension of the space the
outputs live in and the expected functional dimension.

The generators use these too (they are the reference); nothing here comes from them."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from math import comb, gcd, lcm

from certify.checker.ir import MLP, ResNet, format_univariate

Num = int | Fraction


def param_index(mlp: MLP, ell: int, i: int, j: int) -> int:
    """Flat index of W_ell[i, j] (j = d_{ell-1} means the bias of neuron i)."""
    b = 1 if mlp.bias else 0
    pos = sum(mlp.widths[k + 1] * (mlp.widths[k] + b) for k in range(ell))
    return pos + i * (mlp.widths[ell] + b) + j


def activation_texts(mlp: MLP) -> list[str]:
    return [format_univariate(list(a)) for a in mlp.activations]


def is_monomial(cs: Sequence[Num]) -> bool:
    return sum(1 for c in cs if c != 0) == 1 and len(cs) >= 2


def scaling_tangents(mlp: MLP, theta: Sequence[Fraction]) -> list[list[int]]:
    """Tangents of the per-neuron scaling symmetry (monomial activations, no bias).

    Scaling row i of W_l by lam and column i of W_{l+1} by lam^(-r_l) fixes f_theta, so
    (d/dlam at 1) = (W_l[i,:] on the row, -r_l * W_{l+1}[:,i] on the column) is in the kernel.
    Returned as primitive integer vectors.
    """
    out = []
    for ell, i in symmetry_neurons(mlp):
        r = len(mlp.activations[ell]) - 1
        if True:
            t = [Fraction(0)] * mlp.n_params
            for j in range(mlp.widths[ell] + (1 if mlp.bias else 0)):
                k = param_index(mlp, ell, i, j)
                t[k] = Fraction(theta[k])
            for a in range(mlp.widths[ell + 2]):
                k = param_index(mlp, ell + 1, a, i)
                t[k] = -r * Fraction(theta[k])
            out.append(primitive(t))
    return out


def quadratic_tangents(mlp: MLP, theta: Sequence[Fraction]) -> list[list[int]]:
    """Tangents of the orthogonal symmetry of a quadratic last hidden layer (scalar output).

    With sigma = c t^2 on the last hidden layer and one output, f = c sum_i a_i (w_i . hb)^2
    = c hb^T (W^T diag(a) W) hb. For X with a_i X_ij + a_j X_ji = 0 the flow W -> exp(sX) W
    keeps W^T diag(a) W, hence f. X = a_j E_ij - a_i E_ji gives the tangent
    (row w_i += a_j w_j, row w_j -= a_i w_i), one per pair i < j of neurons of that layer.
    Empty when the architecture has no such layer. Returned as primitive integer vectors."""
    if isinstance(mlp, ResNet) or mlp.widths[-1] != 1 or mlp.depth < 2:
        return []
    ell = mlp.depth - 2
    cs = mlp.activations[ell]
    if not (is_monomial(cs) and len(cs) == 3):
        return []
    width = mlp.widths[ell] + (1 if mlp.bias else 0)
    a = [Fraction(theta[param_index(mlp, ell + 1, 0, i)]) for i in range(mlp.widths[ell + 1])]
    out = []
    for i in range(len(a)):
        for j in range(i + 1, len(a)):
            t = [Fraction(0)] * mlp.n_params
            for c in range(width):
                t[param_index(mlp, ell, i, c)] = a[j] * Fraction(theta[param_index(mlp, ell, j, c)])
                t[param_index(mlp, ell, j, c)] = -a[i] * Fraction(
                    theta[param_index(mlp, ell, i, c)]
                )
            if any(t):
                out.append(primitive(t))
    return out


def primitive(v: Sequence[Fraction]) -> list[int]:
    """The integer vector on the ray of v with coprime entries."""
    den = lcm(*(x.denominator for x in v)) if v else 1  # ints and Fractions alike
    ints = [x.numerator * (den // x.denominator) for x in v]
    g = 0
    for x in ints:
        g = gcd(g, x)
    return [x // g for x in ints] if g > 1 else ints


def output_degrees(mlp: MLP) -> set[int]:
    """Degrees of the homogeneous parts f_theta can have (all of 0..D with biases).

    Without biases the inputs to layer 1 are linear forms; a layer with activation
    sum_k c_k t^k turns parts of degrees S into sums of k elements of S, k with c_k != 0.
    """
    D = mlp.degree_bound()
    if mlp.bias:
        return set(range(D + 1))
    degs = {1}
    for cs in mlp.activations:
        new: set[int] = set()
        for k, c in enumerate(cs):
            if c == 0:
                continue
            sums = {0}
            for _ in range(k):
                sums = {a + b for a in sums for b in degs}
            new |= sums
        degs = new
    return degs


def output_space_dim(mlp: MLP) -> int:
    """Dimension of the polynomial space the outputs of the architecture live in."""
    d0, dL = mlp.widths[0], mlp.widths[-1]
    return dL * sum(comb(d0 + e - 1, e) for e in output_degrees(mlp))


def symmetry_neurons(mlp: MLP) -> list[tuple[int, int]]:
    """Hidden neurons (layer index, neuron) with a scaling symmetry: monomial activation
    c t^r; then scaling the neuron's incoming row (and bias) by lam and its outgoing column
    by lam^-r fixes f_theta."""
    if isinstance(mlp, ResNet):
        return []  # ResNets: only finite symmetry groups (math.md §2)
    return [
        (ell, i)
        for ell in range(mlp.depth - 1)
        if is_monomial(mlp.activations[ell])
        for i in range(mlp.widths[ell + 1])
    ]


def symmetry_dim(mlp: MLP) -> int:
    """Dimension of the known continuous symmetry group (Usevich et al., Lemma 4)."""
    return len(symmetry_neurons(mlp))


def is_ktb(mlp: MLP) -> bool:
    """Monomial activations, no bias: the setting of Kileel-Trager-Bruna's formula."""
    if isinstance(mlp, ResNet):
        return False
    return not mlp.bias and all(is_monomial(a) for a in mlp.activations)


def quadratic_last_layer(mlp: MLP | ResNet) -> tuple[int, int] | None:
    """(k, m) when the expected dimension accounts for a quadratic last hidden layer: an MLP
    in Kileel-Trager-Bruna's setting (monomial activations, no biases) with one output and at
    least one hidden layer whose last activation is c t^2; k is that layer's width and m the
    width before it. None otherwise.

    Then f = sum_j a_j c (w_j . h)^2 = c h^T W^T diag(a) W h, which is kept by the per-neuron
    scalings and by W -> G W for every G with G^T diag(a) G = diag(a) (an orthogonal group of
    dimension C(k, 2)): the symmetry is larger than the scalings. With several outputs two
    diagonal forms generically allow only finitely many such G, with a linear term in sigma or
    with biases the symmetry is different again: those cases are not accounted."""
    if isinstance(mlp, ResNet) or not is_ktb(mlp) or mlp.widths[-1] != 1 or mlp.depth < 2:
        return None
    if len(mlp.activations[-1]) != 3:
        return None
    return mlp.widths[-2], mlp.widths[-3]


def _quadratic_expected_dim(mlp: MLP, k: int, m: int) -> int:
    """min(A, C(d_0 + D - 1, D), B): the three upper bounds behind expected_dim for a
    quadratic last hidden layer (see expected_dim_source)."""
    n, s = mlp.n_params, symmetry_dim(mlp)
    if k <= m:
        # the scalings and the orthogonal group act with generic orbits of dimension
        # k + C(k, 2): f = h^T A h with A symmetric of rank <= k, a variety of dimension
        # k m - C(k, 2)
        a = n - s - comb(k, 2)
    else:
        # every symmetric m x m form is some W^T diag(a) W: the layers before the quadratic
        # one (#params n - k m - k, s - k hidden neurons) and C(m + 1, 2) for the form
        a = (n - k * m - k) - (s - k) + comb(m + 1, 2)
    bound = min(a, output_space_dim(mlp))
    inner = MLP(mlp.widths[:-1], mlp.activations[:-1], False)
    per_output = output_space_dim(inner) // k
    if k <= min(m, per_output):
        # f = q^T diag(a) q with q = (q_1..q_k) the k outputs of the network before the last
        # linear layer, of dimension <= min(n - s, k * per_output); with the q_j independent
        # the group (dimension C(k + 1, 2)) acts with finite stabilisers on (q, a)
        bound = min(bound, min(n - s, output_space_dim(inner)) - comb(k, 2))
    return bound


def expected_dim(net: MLP | ResNet) -> int:
    """Expected dimension of the architecture; expected_dim_source names the formula.

    For monomial activations without bias, Kileel-Trager-Bruna's formula
    min(sum d_l d_(l-1) - sum_(l<L) d_l, d_L * C(d_0 + D - 1, D)), less the orthogonal
    symmetry of a quadratic last hidden layer with one output (quadratic_last_layer); for a
    ResNet of width n and degree D, min(#params, n * C(n + D, D)) (polynomial maps of degree
    <= D); otherwise the naive min(#params - symmetry dim, dim of the output space)."""
    if isinstance(net, ResNet):
        D = net.degree_bound()
        return min(net.n_params, net.width * comb(net.width + D, D))
    quad = quadratic_last_layer(net)
    if quad is not None:
        return _quadratic_expected_dim(net, *quad)
    return min(net.n_params - symmetry_dim(net), output_space_dim(net))


KTB_SOURCE = (
    "Kileel-Trager-Bruna's expected dimension (monomial activations, no biases): "
    "min(#params - #hidden neurons, d_L * C(d_0 + D - 1, D)), D the product of the degrees"
)
QUADRATIC_SOURCE = (
    "Kileel-Trager-Bruna's expected dimension less the orthogonal symmetry of the quadratic "
    "last hidden layer (sigma = c t^2, width k, width m before it, one output; "
    "f = h^T W^T diag(a) W h): min(A, C(d_0 + D - 1, D), B) with A = #params - #hidden "
    "neurons - C(k, 2) for k <= m, else #params and hidden neurons of the layers before it "
    "+ C(m + 1, 2), and B = min(#params - #hidden neurons, k * P) - C(k, 2) when "
    "k <= min(m, P), P = C(d_0 + D' - 1, D'), D' the degree of the layer before; nn-certify's "
    "count (README), checked against exact generic ranks of a grid of small architectures "
    "(tests/test_mlp_expected_dim.py); KTB's own formula gives {ktb}"
)
NAIVE_SOURCE = (
    "naive bound, not a published expected dimension: min(#params - dim of the per-neuron "
    "scaling group, dim of the output space); other symmetries (of a quadratic layer, with "
    "biases or linear terms in sigma) are not subtracted, so the true dimension may be smaller"
)
RESNET_SOURCE = (
    "naive bound, not a published expected dimension: min(#params, width * C(width + D, D)) "
    "(polynomial maps of degree <= D); no symmetry subtracted"
)


def ktb_formula(mlp: MLP) -> int:
    """Kileel-Trager-Bruna's formula min(#params - #hidden neurons, dim of the output space)
    as published (no correction for a quadratic layer)."""
    return min(mlp.n_params - symmetry_dim(mlp), output_space_dim(mlp))


def expected_dim_source(net: MLP | ResNet) -> str:
    """The formula and source of expected_dim(net), valid for its activations."""
    if isinstance(net, ResNet):
        return RESNET_SOURCE
    if quadratic_last_layer(net) is not None:
        return QUADRATIC_SOURCE.format(ktb=ktb_formula(net))
    return KTB_SOURCE if is_ktb(net) else NAIVE_SOURCE
