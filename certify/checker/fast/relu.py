"""Exact integer arithmetic for ReLU networks on a whole batch at once (trusted; numpy only).

The production path of the ReLU checks' exact parts (kernel/relu.py: batch_nonzero,
batch_patterns, tangents_vanish_relu, relu_rows_mod); tests compare each with its twin.

Scaling. Layer l of theta has W_l = Wn_l / c_l and b_l = bn_l / c_l with c_l > 0 the least
common multiple of the layer's denominators; a point is x = X / q (q > 0, likewise). By
induction the pre-activations of layer l are P_l / s_l with integers
    P_l = Wn_l H_(l-1) + bn_l s_(l-1),  H_l = ReLU(P_l),  H_0 = X,  s_0 = q,  s_l = c_l s_(l-1),
since ReLU is positively homogeneous: every sign (the activation pattern, a zero) is the sign
of an integer P_l.

Directional derivatives. With the pattern of x fixed, d/de F_(theta + e t)(x) at e = 0 is the
dot product of the gradient of F(x) in theta with the tangent t (forward mode). Write t_l =
(T_l, tb_l) for the tangent's entries of layer l (integers). Then the derivative of pre_l is
Q_l / s_l with
    Q_l = c_l (T_l H_(l-1) + tb_l s_(l-1)) + Wn_l DH_(l-1),  DH_l = pattern_l * Q_l,  DH_0 = 0:
indeed Q_l / (c_l s_(l-1)) = T_l h_(l-1) + tb_l + W_l dh_(l-1) with h = H / s, dh = DH / s. So
the tangent is orthogonal to the gradient of every output at x iff Q_L = 0.

Every integer array is int64 when an exact a-priori bound on its entries and on every partial
sum of its products is below 2^62 (computed in Python integers), else an array of Python
integers (dtype object): the arithmetic is exact either way.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import lcm

import numpy as np

Rat = tuple[int, int]
IntLayer = tuple[list[list[int]], list[int], int]
BOUND_64 = 2**62


def int_layers(widths: Sequence[int], theta: Sequence[Rat]) -> list[IntLayer]:
    """(Wn_l, bn_l, c_l) per layer, theta flat (per neuron: incoming weights, then bias) as
    (num, den) pairs with den > 0."""
    out = []
    pos = 0
    for prev, d in zip(widths, widths[1:]):
        block = theta[pos : pos + d * (prev + 1)]
        c = lcm(*(den for _, den in block)) if block else 1
        ints = [num * (c // den) for num, den in block]
        W = [ints[i * (prev + 1) : i * (prev + 1) + prev] for i in range(d)]
        b = [ints[i * (prev + 1) + prev] for i in range(d)]
        out.append((W, b, c))
        pos += d * (prev + 1)
    return out


def scaled_points(points: Sequence[Sequence[Rat]]) -> tuple[list[list[int]], list[int]]:
    """(X, q): every point x as X / q, q the least common multiple of its denominators."""
    X, q = [], []
    for z in points:
        den = lcm(*(d for _, d in z)) if z else 1
        X.append([n * (den // d) for n, d in z])
        q.append(den)
    return X, q


def _amax(rows: Sequence[Sequence[int]]) -> int:
    return max((abs(v) for r in rows for v in r), default=0)


def _arr(x: object, fits: bool) -> np.ndarray:
    return np.array(x, dtype=np.int64 if fits else object)


def forward_ints(
    ils: list[IntLayer], X: Sequence[Sequence[int]], q: Sequence[int]
) -> tuple[list[np.ndarray], list[np.ndarray], bool]:
    """([H_0, ..., H_(L-1)], [P_1, ..., P_(L-1)], fits) on the batch (m points): the scaled
    layer inputs and the hidden pre-activations (one row per point); fits: int64 is exact."""
    m = len(X)
    bound, smax, fits = _amax(X), max(q, default=1), True
    for W, b, c in ils[:-1]:
        prev = len(W[0]) if W else 0
        bound = prev * _amax(W) * bound + _amax([b]) * smax
        smax *= c
        fits = fits and bound < BOUND_64 and smax < BOUND_64
    H = _arr(X, fits).reshape(m, -1)
    s = _arr(q, fits)
    Hs, Ps = [H], []
    for W, b, c in ils[:-1]:
        P = H @ _arr(W, fits).reshape(len(b), -1).T + s[:, None] * _arr(b, fits)[None, :]
        Ps.append(P)
        H = np.where(P > 0, P, 0).astype(P.dtype)
        Hs.append(H)
        s = s * c
    return Hs, Ps, fits


def batch_signs(widths: Sequence[int], theta: Sequence[Rat], batch: Sequence[Sequence[Rat]]):
    """The signs (-1, 0, 1; int8) of every hidden pre-activation at every batch point (one row
    per point, hidden layers side by side)."""
    X, q = scaled_points(batch)
    _, Ps, _ = forward_ints(int_layers(widths, theta), X, q)
    if not Ps:
        return np.zeros((len(batch), 0), dtype=np.int8)
    return np.hstack([np.sign(P).astype(np.int8) for P in Ps])


def batch_nonzero(widths: Sequence[int], theta: Sequence[Rat], batch: Sequence[Sequence[Rat]]):
    """kernel_relu.batch_nonzero: no hidden pre-activation vanishes on the batch."""
    return bool(np.all(batch_signs(widths, theta, batch) != 0))


def batch_patterns(
    widths: Sequence[int], theta: Sequence[Rat], batch: Sequence[Sequence[Rat]]
) -> list[list[list[bool]]]:
    """kernel_relu.batch_patterns: per point, per hidden layer, which neurons are active."""
    S = batch_signs(widths, theta, batch) > 0
    out = []
    for row in S.tolist():
        pos, pat = 0, []
        for d in widths[1:-1]:
            pat.append(row[pos : pos + d])
            pos += d
        out.append(pat)
    return out


def tangents_vanish(
    widths: Sequence[int],
    theta: Sequence[Rat],
    batch: Sequence[Sequence[Rat]],
    ts: Sequence[Sequence[int]],
) -> bool:
    """kernel_relu.tangents_vanish_relu: every tangent is orthogonal, exactly, to the gradient
    (pattern fixed) of every output at every batch point: Q_L = 0 (module docstring), for all
    tangents and points at once."""
    if not ts or not batch:
        return True
    ils = int_layers(widths, theta)
    X, q = scaled_points(batch)
    Hs, Ps, fits = forward_ints(ils, X, q)
    # split every tangent into its layers (T_l, tb_l)
    Ts, Tbs, pos = [], [], 0
    for prev, d in zip(widths, widths[1:]):
        blk = [list(t[pos : pos + d * (prev + 1)]) for t in ts]
        Ts.append([[r[i * (prev + 1) : i * (prev + 1) + prev] for i in range(d)] for r in blk])
        Tbs.append([[r[i * (prev + 1) + prev] for i in range(d)] for r in blk])
        pos += d * (prev + 1)
    # exact bound on every Q_l and its partial sums
    hb = [int(abs(H).max()) if H.size else 0 for H in Hs]
    smax = max(q)
    qb = 0
    for ell, (W, _, c) in enumerate(ils):
        prev = widths[ell]
        tmax = max(_amax([r for T in Ts[ell] for r in T]), _amax(Tbs[ell]))
        qb = c * (prev * tmax * hb[ell] + tmax * smax) + prev * _amax(W) * qb
        smax *= c
        fits = fits and qb < BOUND_64 and smax < BOUND_64
    dt = np.int64 if fits else object
    s = np.array(q, dtype=dt)
    DH = np.zeros((len(ts), len(batch), widths[0]), dtype=dt)
    for ell, (W, _, c) in enumerate(ils):
        H = Hs[ell].astype(dt)
        T = np.array(Ts[ell], dtype=dt).reshape(len(ts), widths[ell + 1], widths[ell])
        Tb = np.array(Tbs[ell], dtype=dt).reshape(len(ts), widths[ell + 1])
        Wn = np.array(W, dtype=dt).reshape(widths[ell + 1], widths[ell])
        Q = c * (np.einsum("tdp,mp->tmd", T, H) + Tb[:, None, :] * s[None, :, None])
        Q = Q + DH @ Wn.T
        if ell == len(ils) - 1:
            return bool(np.all(Q == 0))
        DH = np.where(Ps[ell][None, :, :] > 0, Q, 0).astype(dt)
        s = s * c
    return True  # pragma: no cover - the loop returns at the output layer


def mat_mod(A: np.ndarray, B: np.ndarray, p: int) -> np.ndarray:
    """A @ B mod p exactly for int64 residues in [0, p), p < 2^31: A split into its high 15
    and low 16 bits, every product below 2^47, sums of up to 2^15 of them below 2^62."""
    if A.shape[1] == 0:
        return np.zeros((A.shape[0], B.shape[1]), dtype=np.int64)
    hi, lo = A >> 16, A & 0xFFFF
    return ((hi @ B % p) * 65536 % p + lo @ B % p) % p


def pattern_rows_mod(
    widths: Sequence[int],
    th_m: Sequence[int],
    pat: Sequence[Sequence[bool]],
    points_m: Sequence[Sequence[int]],
    p: int,
) -> np.ndarray:
    """The Jacobian rows dF_k(x)/dtheta mod p with the pattern `pat` (per hidden layer) fixed,
    at the residue points `points_m`: row s * n_L + k is output k at point s. Reverse mode:
    gpre_L = I, gpre_l = (gpre_(l+1) W_(l+1)) * pattern_l does not depend on x; the row of
    output k is, layer by layer, the outer product of gpre_l[k] and (h_(l-1)(x), 1)
    (kernel_relu.relu_back on every point of one pattern at once)."""
    L = len(widths) - 1
    Ws, bs = [], []
    pos = 0
    for prev, d in zip(widths, widths[1:]):
        blk = np.array(th_m[pos : pos + d * (prev + 1)], dtype=np.int64).reshape(d, prev + 1) % p
        Ws.append(blk[:, :prev].copy())
        bs.append(blk[:, prev].copy())
        pos += d * (prev + 1)
    m = len(points_m)
    H = np.array(points_m, dtype=np.int64).reshape(m, widths[0]) % p
    hs = [H]
    for ell in range(L - 1):
        pre = (mat_mod(hs[-1], Ws[ell].T.copy(), p) + bs[ell][None, :]) % p
        hs.append(pre * np.array(pat[ell], dtype=np.int64).reshape(1, -1))
    dout = widths[-1]
    g = np.eye(dout, dtype=np.int64)
    blocks: list[np.ndarray] = [np.zeros(0)] * L
    for ell in range(L - 1, -1, -1):
        hb = np.hstack([hs[ell], np.ones((m, 1), dtype=np.int64)])
        blk = g[None, :, :, None] * hb[:, None, None, :] % p  # (m, dout, d, prev + 1)
        blocks[ell] = blk.reshape(m * dout, -1)
        if ell:
            g = mat_mod(g, Ws[ell], p) * np.array(pat[ell - 1], dtype=np.int64).reshape(1, -1)
    return np.hstack(blocks)


def relu_rows_mod(
    p: int,
    widths: list[int],
    pats_all: list[list[list[bool]]],
    th_m: list[int],
    batch_m: list[list[int]],
    rows: list[tuple[int, int]],
) -> np.ndarray:
    """kernel_relu.relu_rows_mod (labels (s, k) in range), as an int64 matrix: the rows of
    every point needed computed once by pattern_rows_mod, in the labels' order."""
    need = sorted({s for s, _ in rows})
    at = {}
    for s in need:
        at[s] = pattern_rows_mod(widths, th_m, pats_all[s], [batch_m[s]], p)
    n = sum(d * (prev + 1) for prev, d in zip(widths, widths[1:]))
    if not rows:
        return np.zeros((0, n), dtype=np.int64)
    return np.vstack([at[s][k : k + 1] for s, k in rows]).reshape(len(rows), n)
