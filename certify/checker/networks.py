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


def expected_dim(net: MLP | ResNet) -> int:
    """Expected dimension: min(#params - symmetry dim, dim of the output space).

    For monomial activations without bias this is Kileel-Trager-Bruna's formula
    min(sum d_l d_(l-1) - sum_(l<L) d_l, d_L * C(d_0 + D - 1, D)); for a ResNet of width n
    and degree D, min(#params, n * C(n + D, D)) (polynomial maps of degree <= D)."""
    if isinstance(net, ResNet):
        D = net.degree_bound()
        return min(net.n_params, net.width * comb(net.width + D, D))
    return min(net.n_params - symmetry_dim(net), output_space_dim(net))
