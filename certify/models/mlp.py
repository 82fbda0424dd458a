"""Exact semantics of polynomial MLPs for the generator (untrusted side).

The Jacobian rows are computed by reverse mode (backpropagation), a different algorithm
from the forward-mode dual numbers of the checker and the kernels, so the two sides do not
share a bug. Arithmetic is either exact (Python int / Fraction) or mod p.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from math import comb, lcm
from typing import Any

from certify.spec import MLP

Num = int | Fraction


def layers(mlp: MLP, theta: Sequence[Num]) -> list[tuple[list[list[Num]], list[Num]]]:
    """Split the flat parameter vector into (W, b) per layer (b = zeros without biases)."""
    out = []
    pos = 0
    for ell in range(mlp.depth):
        rows, cols = mlp.widths[ell + 1], mlp.widths[ell]
        W: list[list[Num]] = []
        b: list[Num] = []
        for _ in range(rows):
            W.append(list(theta[pos : pos + cols]))
            pos += cols
            if mlp.bias:
                b.append(theta[pos])
                pos += 1
            else:
                b.append(0)
        out.append((W, b))
    assert pos == len(theta)
    return out


def param_index(mlp: MLP, ell: int, i: int, j: int) -> int:
    """Flat index of W_ell[i, j] (j = d_{ell-1} means the bias of neuron i)."""
    b = 1 if mlp.bias else 0
    pos = sum(mlp.widths[k + 1] * (mlp.widths[k] + b) for k in range(ell))
    return pos + i * (mlp.widths[ell] + b) + j


def _poly(cs: Sequence[Num], a: Num, p: int | None) -> tuple[Num, Num]:
    """(sigma(a), sigma'(a)) by Horner, exact or mod p."""
    s: Num = 0
    ds: Num = 0
    for c in reversed(cs):
        ds = ds * a + s
        s = s * a + c
        if p is not None:
            s %= p
            ds %= p
    return s, ds


def jacobian_rows(
    mlp: MLP | Any,
    theta: Sequence[Num],
    acts: Sequence[Sequence[Num]],
    x: Sequence[Num],
    p: int | None = None,
) -> list[list[Num]]:
    """The d_out rows d f_theta(x)[k] / d theta, by backpropagation (exact or mod p).

    `theta` and `acts` must already be residues when p is given.
    """
    if _is_resnet(mlp):
        from certify.models import resnet

        return resnet.jacobian_rows(mlp, theta, acts, x, p)
    Ls = layers(mlp, theta)
    hs: list[list[Num]] = [list(x)]
    derivs: list[list[Num]] = []
    h = list(x)
    for ell, (W, b) in enumerate(Ls):
        pre = [sum((w * v for w, v in zip(row, h)), start=bi) for row, bi in zip(W, b)]
        if p is not None:
            pre = [v % p for v in pre]
        if ell == mlp.depth - 1:
            break
        vals = [_poly(acts[ell], a, p) for a in pre]
        h = [v for v, _ in vals]
        derivs.append([d for _, d in vals])
        hs.append(h)
    n = len(theta)
    rows = []
    for k in range(mlp.widths[-1]):
        g: list[Num] = [0] * n
        delta: list[Num] = [1 if i == k else 0 for i in range(mlp.widths[-1])]
        for ell in range(mlp.depth - 1, -1, -1):
            W, _ = Ls[ell]
            hin = hs[ell]
            for i, di in enumerate(delta):
                if di == 0:
                    continue
                base = param_index(mlp, ell, i, 0)
                for j, v in enumerate(hin):
                    g[base + j] = di * v if p is None else (di * v) % p
                if mlp.bias:
                    g[base + len(hin)] = di
            if ell == 0:
                break
            back = [sum(W[i][j] * delta[i] for i in range(len(delta))) for j in range(len(hin))]
            delta = [bj * dj for bj, dj in zip(back, derivs[ell - 1])]
            if p is not None:
                delta = [v % p for v in delta]
        rows.append(g)
    return rows


def evaluate(mlp: MLP, theta: Sequence[Num], x: Sequence[Num]) -> list[Num]:
    """f_theta(x), exactly."""
    h = list(x)
    for ell, (W, b) in enumerate(layers(mlp, theta)):
        pre = [sum((w * v for w, v in zip(row, h)), start=bi) for row, bi in zip(W, b)]
        if ell == mlp.depth - 1:
            return pre
        h = [_poly(mlp.activations[ell], a, None)[0] for a in pre]
    return h


def activation_texts(mlp: MLP) -> list[str]:
    from certify.algebra.poly import format_univariate

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
    if _is_resnet(mlp) or mlp.widths[-1] != 1 or mlp.depth < 2:
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
    from math import gcd

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


def _is_resnet(net: Any) -> bool:
    from certify.spec import ResNet

    return isinstance(net, ResNet)


def symmetry_neurons(mlp: MLP) -> list[tuple[int, int]]:
    """Hidden neurons (layer index, neuron) with a scaling symmetry: monomial activation
    c t^r; then scaling the neuron's incoming row (and bias) by lam and its outgoing column
    by lam^-r fixes f_theta."""
    if _is_resnet(mlp):
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
    if _is_resnet(mlp):
        return False
    return not mlp.bias and all(is_monomial(a) for a in mlp.activations)


def expected_dim(mlp: MLP) -> int:
    """Expected dimension: min(#params - symmetry dim, dim of the output space).

    For monomial activations without bias this is Kileel-Trager-Bruna's formula
    min(sum d_l d_(l-1) - sum_(l<L) d_l, d_L * C(d_0 + D - 1, D)).
    """
    if _is_resnet(mlp):
        from certify.models import resnet

        return resnet.expected_dim(mlp)
    return min(mlp.n_params - symmetry_dim(mlp), output_space_dim(mlp))


def _mulmod(A: Any, B: Any, p: int) -> Any:
    """A @ B mod p for int64 residue matrices (p < 2^31): B is split into 16-bit halves so
    every int64 partial sum stays below 2^63 for inner dimensions up to 2^15."""
    import numpy as np

    out = np.zeros((A.shape[0], B.shape[1]), dtype=np.int64)
    for k0 in range(0, A.shape[1], 1 << 15):
        a, b = A[:, k0 : k0 + (1 << 15)], B[k0 : k0 + (1 << 15)]
        out = (out + ((a @ (b >> 16)) % p << 16) % p + (a @ (b & 0xFFFF)) % p) % p
    return out


def jacobian_modp(
    mlp: MLP | Any,
    theta: Sequence[int],
    acts: Sequence[Sequence[int]],
    samples: Sequence[Sequence[int]],
    p: int,
) -> Any:
    """All rows d f_theta(x_s)[k] / d theta mod p (row s * d_out + k) as an int64 numpy
    array, by backpropagation batched over the samples: one forward pass for all samples,
    one backward pass per output coordinate (the generator's own numpy code, independent of
    the checker's)."""
    if _is_resnet(mlp):
        from certify.models import resnet

        return resnet.jacobian_modp(mlp, theta, acts, samples, p)
    import numpy as np

    m, b = len(samples), 1 if mlp.bias else 0
    th = np.array([int(t) % p for t in theta], dtype=np.int64)
    Ws, pos = [], 0
    for prev, d in zip(mlp.widths, mlp.widths[1:]):
        Ws.append(th[pos : pos + d * (prev + b)].reshape(d, prev + b))
        pos += d * (prev + b)
    H = np.array(samples, dtype=np.int64).reshape(m, mlp.widths[0]) % p
    inputs, derivs = [], []
    for ell, W in enumerate(Ws):
        HB = np.hstack([H, np.ones((m, 1), dtype=np.int64)]) if b else H
        inputs.append(HB)
        if ell == mlp.depth - 1:
            break
        pre = _mulmod(HB, np.ascontiguousarray(W.T), p)
        val, der = np.zeros_like(pre), np.zeros_like(pre)
        for c in reversed(list(acts[ell])):
            val, der = (int(c) % p + pre * val) % p, (pre * der + val) % p
        H = val
        derivs.append(der)
    dout, n = mlp.widths[-1], len(theta)
    J = np.empty((m * dout, n), dtype=np.int64)
    for k in range(dout):
        delta = np.zeros((m, dout), dtype=np.int64)
        delta[:, k] = 1
        col = n
        for ell in range(mlp.depth - 1, -1, -1):
            HB = inputs[ell]
            width = delta.shape[1] * HB.shape[1]
            J[k::dout, col - width : col] = ((delta[:, :, None] * HB[:, None, :]) % p).reshape(
                m, width
            )
            col -= width
            if ell:
                prev = mlp.widths[ell]
                back = _mulmod(delta, np.ascontiguousarray(Ws[ell][:, :prev]), p)
                delta = (back * derivs[ell - 1]) % p
    return J
