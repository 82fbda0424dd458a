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
    """(k, m) when dim_after_symmetries accounts for a quadratic last hidden layer: an MLP
    without biases, with one output and at least one hidden layer, whose last activation has
    degree 2 and whose earlier activations are monomials; k is the last hidden layer's width
    and m the width before it. None otherwise.

    For sigma = c t^2, f = sum_j a_j c (w_j . h)^2 = c h^T W^T diag(a) W h is kept by the
    per-neuron scalings and by W -> G W for every G with G^T diag(a) G = diag(a), an orthogonal
    group of dimension C(k, 2): the symmetry is larger than the scalings. With a linear or
    constant term the scalings are gone but a form of the same kind remains (see
    quadratic_form_dim). With several outputs two diagonal forms generically leave only
    finitely many such G, and biases change the count again: those cases are not accounted."""
    if isinstance(mlp, ResNet) or mlp.bias or mlp.widths[-1] != 1 or mlp.depth < 2:
        return None
    if len(mlp.activations[-1]) != 3 or not all(is_monomial(a) for a in mlp.activations[:-1]):
        return None
    return mlp.widths[-2], mlp.widths[-3]


def symmetric_rank_dim(k: int, m: int) -> int:
    """Dimension of the symmetric m x m matrices of rank <= k: k m - C(k, 2) for k <= m, and
    C(m + 1, 2) (all of them) for k >= m."""
    return k * m - comb(k, 2) if k <= m else comb(m + 1, 2)


def quadratic_form_dim(sigma: Sequence[Num], k: int, m: int) -> int:
    """Dimension of {h -> sum_j a_j sigma(w_j . h)} over W (k x m) and a (k), sigma = c2 t^2 +
    c1 t + c0 with c2 != 0, as forms in h (m variables):

    - c1 = c0 = 0: c h^T W^T diag(a) W h, the rank-<=k forms (symmetric_rank_dim(k, m));
    - c1 = 0, c0 != 0: those plus the free constant c0 sum a_j (+1; the scalings are gone);
    - c1 != 0: completing the square, sigma(t) = c2 (t + c1/(2 c2))^2 + e' with e' = c0 -
      c1^2/(4 c2), so f = hb^T A' hb for hb = (h, 1), where A = c2 sum_j a_j u_j u_j^T, u_j =
      (w_j, c1/(2 c2)), is any form of rank <= k on m + 1 variables (rescale u_j and a_j) and
      A' is A with its corner entry multiplied by 4 c2 c0 / c1^2: the rank-<=k forms on m + 1
      variables if c0 != 0, their projection forgetting the corner if c0 = 0 (at most
      C(m + 2, 2) - 1)."""
    c0, c1 = sigma[0], sigma[1]
    if c1 == 0:
        return symmetric_rank_dim(k, m) + (1 if c0 != 0 else 0)
    full = symmetric_rank_dim(k, m + 1)
    return full if c0 != 0 else min(full, comb(m + 2, 2) - 1)


def _quadratic_expected_dim(mlp: MLP, k: int, m: int) -> int:
    """min(A, #params - symmetry dim, dim of the output space, B): the upper bounds behind
    dim_after_symmetries for a quadratic last hidden layer (see dim_after_symmetries_source)."""
    n, s = mlp.n_params, symmetry_dim(mlp)
    sigma = mlp.activations[-1]
    front_s = s - (k if is_monomial(sigma) else 0)  # scalings of the layers before
    # f depends on theta only through the earlier layers' parameters (n - k m - k, with a
    # scaling group of dimension front_s acting) and the form of quadratic_form_dim
    a = (n - k * m - k) - front_s + quadratic_form_dim(sigma, k, m)
    bound = min(a, n - s, output_space_dim(mlp))
    if is_monomial(sigma):
        inner = MLP(mlp.widths[:-1], mlp.activations[:-1], False)
        per_output = output_space_dim(inner) // k
        if k <= min(m, per_output):
            # f = q^T diag(a) q with q = (q_1..q_k) the k outputs of the network before the
            # last linear layer, of dimension <= min(n - s, k * per_output); with the q_j
            # independent, the group (dimension C(k + 1, 2)) acts with finite stabilisers
            bound = min(bound, min(n - s, output_space_dim(inner)) - comb(k, 2))
    return bound


def dim_after_symmetries(net: MLP | ResNet) -> int:
    """The dimension count after the known continuous symmetries (an upper bound on the
    functional dimension where the symmetry group acts with finite generic stabilisers);
    dim_after_symmetries_source names the symmetries and the formula.

    - bias-free MLP with a quadratic last hidden layer and one output (quadratic_last_layer):
      the count of the forms that layer computes (scalings and its orthogonal group);
    - MLP with biases whose last hidden layer is c t^2 (one output, width k, width m before
      it, k <= m + 1): min(#params - scaling dim - C(k, 2), dim of the output space), the
      orthogonal group acting on the rows (w_j, b_j) as without biases;
    - otherwise min(#params - scaling dim, dim of the output space) (= expected_dim); ResNets:
      no continuous symmetry known, expected_dim."""
    if isinstance(net, ResNet):
        return expected_dim(net)
    quad = quadratic_last_layer(net)
    if quad is not None:
        return _quadratic_expected_dim(net, *quad)
    k = biased_quadratic_width(net)
    if k is not None:
        return min(net.n_params - symmetry_dim(net) - comb(k, 2), output_space_dim(net))
    return expected_dim(net)


def biased_quadratic_width(net: MLP | ResNet) -> int | None:
    """k when net is an MLP with biases, one output, a last hidden layer c t^2 of width k >= 2
    and k <= m + 1 (m the width before it): then W~ = [W b] (k x (m + 1)) has independent rows
    at generic points and the orthogonal group {G : G^T diag(a) G = diag(a)} (dimension
    C(k, 2)) acts on it freely, keeping f = c hb^T W~^T diag(a) W~ hb, hb = (h, 1). None
    otherwise."""
    if isinstance(net, ResNet) or not net.bias or net.widths[-1] != 1 or net.depth < 2:
        return None
    cs = net.activations[-1]
    k, m = net.widths[-2], net.widths[-3]
    if not (is_monomial(cs) and len(cs) == 3) or k < 2 or k > m + 1:
        return None
    return k


def expected_dim(net: MLP | ResNet) -> int:
    """The expected dimension; expected_dim_source names the formula and whose it is.

    MLPs: min(#params - dim of the per-neuron scaling group, dim of the output space). For
    monomial activations without biases this is Kileel-Trager-Bruna's expected dimension
    min(sum d_l (d_(l-1)) - sum_(l<L) d_l, d_L * C(d_0 + D - 1, D)) (Massarenti-Mella use the
    same count); otherwise no paper defines one and it is the naive bound. ResNets of width n
    and degree D: the naive bound min(#params, n * C(n + D, D)) (polynomial maps of degree
    <= D). Further symmetries are counted by dim_after_symmetries, not here."""
    if isinstance(net, ResNet):
        D = net.degree_bound()
        return min(net.n_params, net.width * comb(net.width + D, D))
    return min(net.n_params - symmetry_dim(net), output_space_dim(net))


AH_SPORADIC = {(3, 4, 5), (4, 4, 9), (5, 3, 7), (5, 4, 14)}


def alexander_hirschowitz(net: MLP | ResNet) -> int | None:
    """The dimension of the architecture by the Alexander-Hirschowitz theorem, for a
    bias-free shallow network (d, k, 1) with sigma = c t^r (r >= 2): f = sum_i a_i (w_i . x)^r
    ranges over the affine cone of the k-th secant variety of v_r(P^(d-1)), of dimension
    min(k d, C(d + r - 1, r)) except for r = 2, 2 <= k <= d - 1 (k d - C(k, 2)) and
    (d, r, k) in {(3, 4, 5), (4, 4, 9), (5, 3, 7), (5, 4, 14)} (one less). None otherwise."""
    if isinstance(net, ResNet) or net.bias or net.depth != 2 or net.widths[-1] != 1:
        return None
    cs = net.activations[0]
    if not is_monomial(cs) or len(cs) < 3:
        return None
    d, k, r = net.widths[0], net.widths[1], len(cs) - 1
    generic = min(k * d, comb(d + r - 1, r))
    if r == 2 and 2 <= k <= d - 1:
        return k * d - comb(k, 2)
    return generic - 1 if (d, r, k) in AH_SPORADIC else generic


KTB_SOURCE = (
    "Kileel-Trager-Bruna's expected dimension (monomial activations, no biases; the count "
    "Massarenti-Mella use too): min(#params - #hidden neurons, d_L * C(d_0 + D - 1, D)), D the "
    "product of the degrees"
)
NAIVE_SOURCE = (
    "naive bound, no paper defines an expected dimension for this architecture: "
    "min(#params - dim of the per-neuron scaling group, dim of the output space), the count of "
    "Kileel-Trager-Bruna's formula; symmetries beyond the scalings are counted in "
    "dim_after_symmetries"
)
RESNET_SOURCE = (
    "naive bound, no paper defines an expected dimension for ResNets: min(#params, "
    "width * C(width + D, D)) (polynomial maps of degree <= D); no symmetry subtracted"
)
SCALING_SOURCE = (
    "after the per-neuron scalings (dimension {s}; Usevich et al., Lemma 4): min(#params - {s}, "
    "dim of the output space)"
)
NO_SYMMETRY_SOURCE = (
    "no continuous symmetry known (non-monomial activations): min(#params, dim of the output space)"
)
RESNET_SYMMETRY_SOURCE = (
    "no continuous symmetry known (ResNets: finite symmetry groups only): min(#params, "
    "width * C(width + D, D))"
)
QUADRATIC_SOURCE = (
    "after the per-neuron scalings and the orthogonal group of the quadratic last hidden layer "
    "(sigma = c t^2, width k, width m before it, one output, no biases; "
    "f = h^T W^T diag(a) W h is kept by W -> G W, G^T diag(a) G = diag(a), dimension C(k, 2)): "
    "min(A, C(d_0 + D - 1, D), B) with A = #params - #hidden neurons - C(k, 2) for k <= m, "
    "else #params and hidden neurons of the layers before it + C(m + 1, 2), and "
    "B = min(#params - #hidden neurons, k * P) - C(k, 2) when k <= min(m, P), "
    "P = C(d_0 + D' - 1, D'), D' the degree of the layer before; nn-certify's count (math.md §1), "
    "checked against exact generic ranks of a grid of small architectures "
    "(tests/test_mlp_expected_dim.py); Kileel-Trager-Bruna's formula gives {ktb}"
)
AFFINE_QUADRATIC_SOURCE = (
    "after the orthogonal group of the quadratic last hidden layer (sigma = c2 t^2 + c1 t + c0 "
    "with a linear or constant term, width k, width m before it, one output, no biases; the "
    "scalings of that layer are gone): the layers before it (#params less their hidden "
    "neurons) plus the dimension of the forms it computes: rank-<=k forms in (h, 1) on m + 1 "
    "variables when c1 != 0 (completing the square; the corner forgotten when c0 = 0), "
    "rank-<=k forms on m variables plus a constant when c1 = 0; capped by min(#params - "
    "symmetry dim, dim of the output space); nn-certify's count (math.md §1), checked against "
    "exact generic ranks of a grid of small architectures (tests/test_mlp_expected_dim.py); "
    "the naive bound gives {naive}"
)
BIASED_QUADRATIC_SOURCE = (
    "after the per-neuron scalings (dimension {s}) and the orthogonal group of the quadratic "
    "last hidden layer acting on its rows (w_j, b_j) (sigma = c t^2, width k = {k} <= m + 1, "
    "one output, biases; f = hb^T W~^T diag(a) W~ hb, hb = (h, 1), W~ = [W b], is kept by "
    "W~ -> G W~, G^T diag(a) G = diag(a), dimension C(k, 2) = {ck}): min(#params - {s} - {ck}, "
    "dim of the output space)"
)


def ktb_formula(mlp: MLP) -> int:
    """Kileel-Trager-Bruna's formula min(#params - #hidden neurons, dim of the output space)
    as published (no correction for a quadratic layer); for other activations the naive
    min(#params - scaling dimension, dim of the output space)."""
    return min(mlp.n_params - symmetry_dim(mlp), output_space_dim(mlp))


def expected_dim_source(net: MLP | ResNet) -> str:
    """The formula of expected_dim(net) and the paper that defines it (or: naive bound)."""
    if isinstance(net, ResNet):
        return RESNET_SOURCE
    return KTB_SOURCE if is_ktb(net) else NAIVE_SOURCE


def dim_after_symmetries_source(net: MLP | ResNet) -> str:
    """The symmetries subtracted by dim_after_symmetries(net), named, and its formula."""
    if isinstance(net, ResNet):
        return RESNET_SYMMETRY_SOURCE
    if quadratic_last_layer(net) is not None:
        if is_monomial(net.activations[-1]):
            return QUADRATIC_SOURCE.format(ktb=ktb_formula(net))
        return AFFINE_QUADRATIC_SOURCE.format(naive=ktb_formula(net))
    s = symmetry_dim(net)
    k = biased_quadratic_width(net)
    if k is not None:
        return BIASED_QUADRATIC_SOURCE.format(s=s, k=k, ck=comb(k, 2))
    return SCALING_SOURCE.format(s=s) if s else NO_SYMMETRY_SOURCE
