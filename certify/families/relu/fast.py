"""Vectorised exact building blocks of the region-aware ReLU batch (generator: untrusted).

Every decision is exact. A rational theta is scaled layer by layer to integers: layer l has
W_l = Wn_l / c_l and b_l = bn_l / c_l (c_l > 0 the least common denominator of the layer), and
a point x = X / q (q > 0). Then by induction every pre-activation of layer l is P_l / s_l with
P_l = Wn_l H_(l-1) + bn_l s_(l-1) an integer, H_l = ReLU(P_l), s_0 = q, s_l = c_l s_(l-1) > 0:
ReLU is positively homogeneous, so the signs (the activation pattern, a zero) are the signs of
the integers P_l. They are computed in numpy int64 when an exact a-priori bound on every
partial sum stays below 2^62, else in numpy arrays of Python integers (object dtype).

With an activation pattern fixed, every hidden pre-activation is affine in x:
pre_l(x) = (At_l x + at_l) / C_l with C_l = c_1 ... c_l, At_1 = Wn_1, at_1 = bn_1,
At_(l+1) = Wn_(l+1) diag(pat_l) At_l and at_(l+1) = Wn_(l+1) diag(pat_l) at_l + bn_(l+1) C_l
(affine_of_pattern); a point is in the region of the pattern iff every such value has the
pattern's strict sign, one integer matrix-vector product per point.

Jacobian rows mod p (p < 2^31) with a pattern fixed: the gradient of the pre-activations of layer
l with respect to output k, gpre_l = (gpre_(l+1) W_(l+1)) diag(pat_l) with gpre_L = I, does not
depend on x; the row of output k at x is, layer by layer, the outer product gpre_l[k] x (h_(l-1)(x),
1). Products of two residues are below 2^62; sums of products are reduced by splitting one factor
into 15-bit and 16-bit halves (mat_mod), so no int64 overflows.

Echelon keeps a reduced row echelon basis mod p and adds rows block by block, reporting which
rows of each block are independent of all rows before them (the greedy, first-independent row
basis: the pivot columns of rref(J^T), as certify.algebra.modp.maximal_minor)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction

import numpy as np

from certify.checker.fast import relu as RF
from certify.checker.fast.rank import matmul_mod_blas
from certify.families.relu import model as M


def _pairs(xs: Sequence[Fraction]) -> list[tuple[int, int]]:
    return [(Fraction(v).numerator, Fraction(v).denominator) for v in xs]


def int_layers(
    widths: Sequence[int], theta: Sequence[Fraction]
) -> list[tuple[list[list[int]], list[int], int]]:
    """relu_fast.int_layers for a theta of Fractions: (Wn_l, bn_l, c_l) per layer."""
    return RF.int_layers(widths, _pairs(theta))


def scaled_points(points: Sequence[Sequence[Fraction]]) -> tuple[list[list[int]], list[int]]:
    """(X, q): each point x as X / q with q the least common denominator of its coordinates."""
    return RF.scaled_points([_pairs(z) for z in points])


def hidden_signs(
    ils: list[tuple[list[list[int]], list[int], int]],
    X: Sequence[Sequence[int]],
    q: Sequence[int],
) -> np.ndarray:
    """The signs (-1, 0, 1) of every hidden pre-activation at the points X[i] / q[i], one row
    per point, hidden layers side by side (relu_fast.forward_ints)."""
    n_hidden = sum(len(b) for _, b, _ in ils[:-1])
    if not X:
        return np.zeros((0, n_hidden), dtype=np.int8)
    _, Ps, _ = RF.forward_ints(ils, X, q)
    if not Ps:
        return np.zeros((len(X), 0), dtype=np.int8)
    return np.hstack([np.sign(P).astype(np.int8) for P in Ps])


def affine_of_pattern(
    ils: list[tuple[list[list[int]], list[int], int]], pat: np.ndarray
) -> tuple[np.ndarray, np.ndarray, list[int]]:
    """(At, at, C): with the flat hidden pattern `pat` (booleans) forced, the hidden
    pre-activation of neuron j is (At[j] . x + at[j]) / C[j] (Python integers, object arrays)."""
    As: list[np.ndarray] = []
    as_: list[np.ndarray] = []
    Cs: list[int] = []
    A_in = a_in = None  # the previous layer's forced maps, inactive rows zeroed
    C, pos = 1, 0
    for W, b, c in ils[:-1]:
        Wa = np.array(W, dtype=object).reshape(len(b), -1)
        ba = np.array(b, dtype=object)
        if A_in is None:
            A_l, a_l = Wa, ba
        else:
            A_l, a_l = Wa @ A_in, Wa @ a_in + ba * C
        C *= c
        Cs.extend([C] * len(b))
        mask = pat[pos : pos + len(b)].astype(object)
        A_in, a_in = A_l * mask[:, None], a_l * mask
        As.append(A_l)
        as_.append(a_l)
        pos += len(b)
    if not As:  # no hidden layer
        n0 = len(ils[0][0][0]) if ils and ils[0][0] else 0
        return np.zeros((0, n0), dtype=object), np.zeros(0, dtype=object), []
    return np.vstack(As), np.concatenate(as_), Cs


mat_mod = RF.mat_mod
pattern_rows_mod = RF.pattern_rows_mod


SMALL_PRODUCT = 1 << 26  # below this many products, int64 (no BLAS threads to start)


def _mm(A: np.ndarray, B: np.ndarray, p: int) -> np.ndarray:
    """A @ B mod p exactly: small products in int64 (relu_fast.mat_mod), larger ones by float64
    BLAS on 16-bit halves (every sum an integer below 2^53, so the result does not depend on
    the BLAS's order of summation)."""
    if A.shape[0] == 0 or A.shape[1] == 0 or B.shape[1] == 0:
        return np.zeros((A.shape[0], B.shape[1]), dtype=np.int64)
    if A.shape[0] * A.shape[1] * B.shape[1] < SMALL_PRODUCT and A.shape[1] < 1 << 15:
        return RF.mat_mod(A, B, p)
    return matmul_mod_blas(A, B, p)


BLOCK = 64  # rows reduced against the basis at once
PROBE_BITS = 62  # Echelon.add(..., probe=True) misses a row with probability <= 2^-62


class Echelon:
    """A reduced row echelon basis mod p of the rows added so far, over n columns.

    Basis row i is e_(piv[i]) + sum_j E[i, j] e_(free[j]). `add` takes rows in blocks: a block
    is reduced against the basis (row - row[piv] @ basis, one exact matrix product), then
    eliminated in row order (a row is independent of the basis and of the rows before it iff
    it is nonzero after the earlier pivots are eliminated from it: the greedy row basis), and
    the basis is extended by the new pivot rows, back-substituted into reduced form.

    With probe=True a row is first tested against the basis by m = ceil(PROBE_BITS / log2 p)
    (at least 2) fixed pseudo-random vectors w (seeded, so deterministic): its reduced form v'
    has v' . w = v . w' with w' = (w on the free columns, -E w on the pivots), one product of
    length n. A row with some v . w' != 0 is independent of the basis (exact); a row with all
    v . w' = 0 is taken as dependent, wrongly only if v' != 0 is orthogonal to every probe,
    which has probability p^-m <= 2^-PROBE_BITS per row. The error is one-sided: a row may be
    missed (a lower rank, as a rank mod p may miss rank over Q), no dependent row is ever
    taken; the rows kept are then
    eliminated exactly as above."""

    def __init__(self, p: int, n: int) -> None:
        self.p, self.n = p, n
        self.piv: list[int] = []
        self.free = np.arange(n)
        self.E = np.zeros((0, n), dtype=np.int64)
        rng = random.Random(f"nn-certify/echelon-probe/{p}/{n}")
        m = max(2, -(-PROBE_BITS // max(1, p.bit_length() - 1)))
        self.W = np.array([[rng.randrange(p) for _ in range(m)] for _ in range(n)],
                          dtype=np.int64).reshape(n, m)  # fmt: skip
        self.Wp = self.W.copy()

    @property
    def rank(self) -> int:
        return len(self.piv)

    def add(self, rows: np.ndarray, probe: bool = False) -> list[int]:
        """Indices of the rows of `rows` (int64, n columns) independent of the basis and of
        the rows before them; the basis then spans every row added so far (with probe=True,
        up to the one-sided error of the class docstring)."""
        rows = rows % self.p
        k = rows.shape[0]
        out: list[int] = []
        pos = 0
        while pos < k and self.free.size:
            b = BLOCK if 2 * self.rank < self.n else BLOCK // 4
            win = np.arange(pos, min(k, pos + 4 * b))
            if probe and self.piv:
                # rows orthogonal to every probe lie in the span of the basis (which holds the
                # rows before them) and are dropped; the first b others are decided exactly
                win = win[_mm(rows[win], self.Wp, self.p).any(axis=1)]
            head = win[:b]
            pos = int(head[-1]) + 1 if head.size == b else min(k, pos + 4 * b)
            if head.size:
                out += [int(head[i]) for i in self._add_block(rows[head])]
        return out

    def _add_block(self, rows: np.ndarray) -> list[int]:
        p = self.p
        if rows.shape[0] == 0 or self.free.size == 0:
            return []
        R = rows[:, self.free]
        if self.piv:
            R = (R - _mm(rows[:, self.piv], self.E, p)) % p
        indep, qs = [], []
        for i in range(R.shape[0]):
            nz = np.flatnonzero(R[i])
            if nz.size == 0:
                continue
            c = int(nz[0])
            R[i] = R[i] * pow(int(R[i, c]), p - 2, p) % p
            lam = R[i + 1 :, c].copy()
            if lam.any():
                R[i + 1 :] = (R[i + 1 :] - lam[:, None] * R[i] % p) % p
            indep.append(i)
            qs.append(c)
        if not indep:
            return []
        F = R[indep]
        for j in range(len(qs) - 1, 0, -1):  # back-substitution: F[:, qs] = I
            lam = F[:j, qs[j]].copy()
            if lam.any():
                F[:j] = (F[:j] - lam[:, None] * F[j] % p) % p
        if self.piv:
            self.E = (self.E - _mm(self.E[:, qs], F, p)) % p
        keep = np.setdiff1d(np.arange(self.free.size), qs)
        self.piv += [int(self.free[j]) for j in qs]
        self.E = np.vstack([self.E[:, keep], F[:, keep]])
        self.free = self.free[keep]
        Wf = self.W[self.free]
        self.Wp = np.zeros_like(self.W)
        self.Wp[self.free] = Wf
        self.Wp[self.piv] = (-_mm(self.E, Wf, p)) % p
        return indep


def pivot_columns(rows: np.ndarray, p: int) -> list[int]:
    """The pivot columns of rref(rows) mod p: the greedy independent columns, i.e. the
    greedy independent rows of the transpose (Echelon, exact)."""
    return Echelon(p, rows.shape[0]).add(np.ascontiguousarray(rows.T))


def _inside(At: np.ndarray, at: np.ndarray, sgn: np.ndarray, X: Sequence[int], q: int) -> bool:
    """Whether X / q lies in the open region: every forced pre-activation At x + at (times q)
    has the pattern's strict sign."""
    v = At @ np.array(X, dtype=object) + at * q if At.shape[1] else at * q
    return bool(np.all(sgn * v > 0))


def region_simplex(
    ils: list[tuple[list[list[int]], list[int], int]],
    widths: Sequence[int],
    theta: Sequence[Fraction],
    x: Sequence[Fraction],
    pat: np.ndarray,
) -> list[tuple[Fraction, ...]]:
    """model.region_simplex for a point x off every bent hyperplane whose flat hidden pattern is
    `pat`: the same points, every membership decided exactly on the forced affine maps
    (affine_of_pattern) instead of by a forward pass in Fractions."""
    n0 = widths[0]
    At, at, Cs = affine_of_pattern(ils, pat)
    sgn = np.where(pat, 1, -1).astype(object)
    z = tuple(Fraction(round(c)) for c in x)
    Z = [int(c) for c in z]
    if _inside(At, at, sgn, Z, 1):
        simplex = [z]
        base = At @ np.array(Z, dtype=object) + at if n0 else at
        for i in range(n0):
            for step in (1, -1):
                if bool(np.all(sgn * (base + step * At[:, i]) > 0)):
                    zi = list(z)
                    zi[i] += step
                    simplex.append(tuple(zi))
                    break
            else:
                break
        if len(simplex) == n0 + 1:
            return simplex
    # the float estimate of model.region_simplex with the same IEEE operations in the same
    # order (sequential sums from 0, products then sums; numpy elementwise, no BLAS), so the
    # same floats: g0 = |float(pre)| (int / int division rounds correctly, as Fraction's),
    # S = |G| with G = W_l G row by row, masked by the pattern
    Xs, qs = scaled_points([x])
    X, q = Xs[0], qs[0]
    vals = At @ np.array(X, dtype=object) + at * q
    g0 = np.array([abs(_div(int(v), q * C)) for v, C in zip(vals, Cs)])
    G = np.eye(n0)
    S_blocks = []
    for (o, d), (W, _) in zip(_offsets(widths), M.layers(widths, theta)[:-1]):
        Wf = np.array([[M._float(w) for w in row] for row in W]).reshape(d, -1)
        acc = np.zeros((d, n0))
        for k in range(G.shape[0]):
            acc = acc + Wf[:, k : k + 1] * G[k : k + 1, :]
        S_blocks.append(np.abs(acc))
        G = np.where(pat[o : o + d, None], acc, 0.0)
    S = np.vstack(S_blocks)
    pts = [tuple(Fraction(c) for c in x)]
    for i in range(n0):
        k = 0
        s4 = 4 * S[:, i]
        while k < 1000 and bool(np.any(s4 >= g0 * 2.0**k)):
            k += 1
        found = None
        while found is None:
            for sign in (1, -1):
                # x + sign 2^-k e_i = (2^k X + sign q e_i) / (2^k q)
                Xi = [c * 2**k for c in X]
                Xi[i] += sign * q
                if _inside(At, at, sgn, Xi, q * 2**k):
                    xi = list(pts[0])
                    xi[i] += sign * Fraction(1, 2**k)
                    found = tuple(xi)
                    break
            k += 1
        pts.append(found)
    return pts


def _div(a: int, b: int) -> float:
    """a / b rounded to the nearest float (+-inf beyond the range), as model._float."""
    try:
        return a / b
    except OverflowError:
        return float("inf") if (a > 0) == (b > 0) else float("-inf")


def _offsets(widths: Sequence[int]) -> list[tuple[int, int]]:
    """(offset, width) of every hidden layer in the flat hidden pattern."""
    out, pos = [], 0
    for d in widths[1:-1]:
        out.append((pos, d))
        pos += d
    return out


def split_pattern(widths: Sequence[int], pat: np.ndarray) -> tuple[tuple[bool, ...], ...]:
    """The flat hidden pattern as relu_net.pattern's tuple per hidden layer."""
    return tuple(tuple(bool(b) for b in pat[o : o + d]) for o, d in _offsets(widths))


def hidden_values(
    ils: list[tuple[list[list[int]], list[int], int]],
    X: Sequence[Sequence[int]],
    q: Sequence[int],
    layer: int,
) -> list[list[Fraction]]:
    """The exact pre-activations of hidden layer `layer` (0-based) at the points X[i] / q[i]:
    P_l / s_l in Python integers (object arrays)."""
    m = len(X)
    H = np.array([[int(v) for v in r] for r in X], dtype=object).reshape(m, -1)
    s = np.array([int(v) for v in q], dtype=object)
    for ell, (W, b, c) in enumerate(ils[: layer + 1]):
        Wa = np.array(W, dtype=object).reshape(len(b), -1)
        P = H @ Wa.T + s[:, None] * np.array(b, dtype=object)[None, :]
        s = s * c
        if ell == layer:
            return [[Fraction(int(v), int(si)) for v in row] for row, si in zip(P, s)]
        H = np.where(P > 0, P, 0)
    raise ValueError("layer beyond the hidden layers")


def breakpoints(widths: Sequence[int], theta: Sequence[Fraction]) -> list[Fraction]:
    """model.breakpoints (a one-dimensional network's kinks, layer by layer), with each layer's
    pre-activations at the known kinks from one exact integer pass (hidden_values)."""

    ils = int_layers(widths, theta)
    known: set[Fraction] = set()
    for ell in range(len(widths) - 2):
        ks = sorted(known)
        xs = [ks[0] - 1, *ks, ks[-1] + 1] if ks else [Fraction(0), Fraction(1)]
        vals = hidden_values(ils, [[x.numerator] for x in xs], [x.denominator for x in xs], ell)
        new: set[Fraction] = set()
        for i in range(widths[ell + 1]):
            new |= M._affine_roots(xs, [v[i] for v in vals])
        known |= new
    return sorted(known)
