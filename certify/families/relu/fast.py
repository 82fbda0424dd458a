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

from collections.abc import Sequence
from fractions import Fraction

import numpy as np

from certify.algebra.modp import nmod
from certify.checker import relu_fast as RF


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
    if not As:
        return np.zeros((0, 0), dtype=object), np.zeros(0, dtype=object), []
    return np.vstack(As), np.concatenate(as_), Cs


mat_mod = RF.mat_mod
pattern_rows_mod = RF.pattern_rows_mod


def _rref(M: np.ndarray, p: int) -> tuple[np.ndarray, list[int]]:
    """(the nonzero rows of rref(M) mod p, their pivot columns), by FLINT."""
    if M.shape[0] == 0 or M.shape[1] == 0:
        return np.zeros((0, M.shape[1]), dtype=np.int64), []
    E, r = nmod(M, p, M.shape[1]).rref()
    vals = np.array([int(v) for v in E.entries()], dtype=np.int64).reshape(M.shape)[:r]
    piv = [int(np.flatnonzero(vals[i])[0]) for i in range(r)]
    return vals, piv


class Echelon:
    """A reduced row echelon basis mod p of the rows added so far, over n columns.

    Basis row i is e_(piv[i]) + sum_j E[i, j] e_(free[j]); `add` reduces a block of rows
    against it (row - row[piv] @ basis), keeps the rows of the block independent of every
    earlier row (pivot columns of the transposed reduced block, greedy in order) and extends
    the basis by them."""

    def __init__(self, p: int, n: int) -> None:
        self.p, self.n = p, n
        self.piv: list[int] = []
        self.free = np.arange(n)
        self.E = np.zeros((0, n), dtype=np.int64)

    @property
    def rank(self) -> int:
        return len(self.piv)

    def add(self, rows: np.ndarray) -> list[int]:
        """Indices of the rows of `rows` (int64 residues, n columns) independent of the basis
        and of the rows before them in the block; the basis then spans all rows added."""
        p = self.p
        if rows.shape[0] == 0 or self.free.size == 0:
            return []
        rows = rows % p
        R = rows[:, self.free]
        if self.piv:
            R = (R - mat_mod(rows[:, self.piv], self.E, p)) % p
        _, indep = _rref(R.T.copy(), p)
        if not indep:
            return []
        F, q = _rref(R[indep], p)
        if self.piv:
            self.E = (self.E - mat_mod(self.E[:, q], F, p)) % p
        keep = np.setdiff1d(np.arange(self.free.size), q)
        self.piv += [int(self.free[j]) for j in q]
        self.E = np.vstack([self.E[:, keep], F[:, keep]])
        self.free = self.free[keep]
        return indep


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
    # the float estimate of model.region_simplex, in the same order of operations
    from certify.families.relu import model as M

    Xs, qs = scaled_points([x])
    X, q = Xs[0], qs[0]
    vals = At @ np.array(X, dtype=object) + at * q
    g0 = [abs(M._float(Fraction(int(v), q * C))) for v, C in zip(vals, Cs)]
    G = [[1.0 if i == j else 0.0 for j in range(n0)] for i in range(n0)]
    S: list[list[float]] = []
    pats = [[bool(b) for b in pat[o : o + d]] for o, d in _offsets(widths)]
    for ell, (W, _) in enumerate(M.layers(widths, theta)[:-1]):
        Wf = [[M._float(w) for w in row] for row in W]
        G = [[sum(r[k] * G[k][j] for k in range(len(G))) for j in range(n0)] for r in Wf]
        S.extend([abs(v) for v in row] for row in G)
        G = [row if on else [0.0] * n0 for row, on in zip(G, pats[ell])]
    pts = [tuple(Fraction(c) for c in x)]
    for i in range(n0):
        k = 0
        while k < 1000 and any(4 * s[i] >= g * 2.0**k for s, g in zip(S, g0)):
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


def pivot_columns(rows: np.ndarray, p: int) -> list[int]:
    """The pivot columns of rref(rows) mod p."""
    return _rref(rows, p)[1]


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
    from certify.families.relu import model as M

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
