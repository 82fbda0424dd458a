"""Exact semantics of ReLU networks for the generator (untrusted; math.md §3).

Forward evaluation in Fractions, Jacobian rows mod p by backpropagation with the activation
pattern fixed (written apart from the kernels' reverse mode, on (W, b) matrices; the tests
cross-check both with exact finite differences), the positive-scaling
tangents, the breakpoints of a one-dimensional network, and an exact search for a
permutation-and-positive-scaling group element mapping one parameter vector to another."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from math import gcd, lcm

Layer = tuple[list[list[Fraction]], list[Fraction]]


def layers(widths: Sequence[int], theta: Sequence[Fraction]) -> list[Layer]:
    """(W_l, b_l) per layer from the flat theta (incoming weights then bias, per neuron)."""
    out: list[Layer] = []
    pos = 0
    for prev, d in zip(widths, widths[1:]):
        W, b = [], []
        for _ in range(d):
            W.append(list(theta[pos : pos + prev]))
            b.append(theta[pos + prev])
            pos += prev + 1
        out.append((W, b))
    return out


def flatten(ls: list[Layer]) -> list[Fraction]:
    out: list[Fraction] = []
    for W, b in ls:
        for row, bi in zip(W, b):
            out.extend(row)
            out.append(bi)
    return out


def forward(
    widths: Sequence[int], theta: Sequence[Fraction], x: Sequence[Fraction]
) -> tuple[list[Fraction], list[list[Fraction]]]:
    """(F_theta(x), hidden pre-activations per hidden layer), exactly."""
    h = [Fraction(v) for v in x]
    pres: list[list[Fraction]] = []
    ls = layers(widths, theta)
    for ell, (W, b) in enumerate(ls):
        pre = [
            sum((w * v for w, v in zip(row, h)), start=Fraction(0)) + bi for row, bi in zip(W, b)
        ]
        if ell == len(ls) - 1:
            return pre, pres
        pres.append(pre)
        h = [a if a > 0 else Fraction(0) for a in pre]
    return h, pres


def relu_vec(pre: list[Fraction]) -> list[Fraction]:
    return [a if a > 0 else Fraction(0) for a in pre]


def pattern(pres: list[list[Fraction]]) -> tuple[tuple[bool, ...], ...]:
    return tuple(tuple(a > 0 for a in pre) for pre in pres)


def jacobian_rows_modp(
    widths: Sequence[int], theta_m: Sequence[int], x_m: Sequence[int], pat: Sequence, p: int
) -> list[list[int]]:
    """The n_L rows dF(x)[k]/dtheta mod p by backpropagation, with the pattern `pat` fixed."""
    ls = layers(widths, [Fraction(t) for t in theta_m])
    Wm = [[[int(w) for w in row] for row in W] for W, _ in ls]
    bm = [[int(v) for v in b] for _, b in ls]
    hs = [[v % p for v in x_m]]
    for ell in range(len(ls) - 1):
        pre = [
            (sum(w * v for w, v in zip(row, hs[-1])) + bi) % p for row, bi in zip(Wm[ell], bm[ell])
        ]
        hs.append([a if on else 0 for a, on in zip(pre, pat[ell])])
    offsets = []
    pos = 0
    for prev, d in zip(widths, widths[1:]):
        offsets.append(pos)
        pos += d * (prev + 1)
    rows = []
    for k in range(widths[-1]):
        g = [0] * pos
        gpre = [1 if i == k else 0 for i in range(widths[-1])]  # dF_k / d pre_L
        for ell in range(len(ls) - 1, -1, -1):
            prev = widths[ell]
            h = hs[ell]
            for i, gi in enumerate(gpre):
                if gi:
                    base = offsets[ell] + i * (prev + 1)
                    for j in range(prev):
                        g[base + j] = gi * h[j] % p
                    g[base + prev] = gi % p
            if ell == 0:
                break
            gh = [sum(Wm[ell][i][j] * gpre[i] for i in range(len(gpre))) % p for j in range(prev)]
            gpre = [v if on else 0 for v, on in zip(gh, pat[ell - 1])]
        rows.append(g)
    return rows


def primitive(v: Sequence[Fraction]) -> list[int]:
    """The primitive integer vector on the ray of v (same direction, positive multiple)."""
    den = lcm(*(Fraction(x).denominator for x in v)) if v else 1
    ints = [int(Fraction(x) * den) for x in v]
    g = 0
    for x in ints:
        g = gcd(g, x)
    return [x // g for x in ints] if g else ints


def scaling_tangents(widths: Sequence[int], theta: Sequence[Fraction]) -> list[list[int]]:
    """For each hidden neuron v (layer by layer): the tangent of lam -> (lam (w_in, b),
    w_out / lam) at lam = 1, i.e. (w_in(v), b_v, -w_out(v)), as a primitive integer vector."""
    n = len(theta)
    offsets = []
    pos = 0
    for prev, d in zip(widths, widths[1:]):
        offsets.append(pos)
        pos += d * (prev + 1)
    out = []
    for ell in range(1, len(widths) - 1):
        prev = widths[ell - 1]
        for i in range(widths[ell]):
            t = [Fraction(0)] * n
            base = offsets[ell - 1] + i * (prev + 1)
            for j in range(prev + 1):
                t[base + j] = Fraction(theta[base + j])
            for u in range(widths[ell + 1]):
                c = offsets[ell] + u * (widths[ell] + 1) + i
                t[c] = -Fraction(theta[c])
            out.append(primitive(t))
    return out


# ---------------------------------------------------------------- one-dimensional input
def _affine_roots(xs: list[Fraction], vals: list[Fraction]) -> set[Fraction]:
    """Zeros, strictly between consecutive points or on the outer rays, of a function that is
    affine on each piece cut by xs (values vals) and on the rays."""
    roots = {x for x, v in zip(xs, vals) if v == 0}  # extra points never hurt the check
    for a, b, va, vb in zip(xs, xs[1:], vals, vals[1:]):
        if va * vb < 0:
            roots.add(a + (b - a) * va / (va - vb))
    if len(xs) >= 2:
        for (a, b, va, vb), left in (
            ((xs[0], xs[1], vals[0], vals[1]), True),
            ((xs[-2], xs[-1], vals[-2], vals[-1]), False),
        ):
            s = (vb - va) / (b - a)
            if s != 0:
                r = a - va / s
                if (left and r < a) or (not left and r > b):
                    roots.add(r)
    return roots


def breakpoints(widths: Sequence[int], theta: Sequence[Fraction]) -> list[Fraction]:
    """Every point where a hidden pre-activation of a one-dimensional network changes sign,
    found layer by layer (a layer's pre-activations are affine between earlier kinks)."""
    known: set[Fraction] = set()
    for ell in range(len(widths) - 2):
        ks = sorted(known)
        xs = [ks[0] - 1, *ks, ks[-1] + 1] if ks else [Fraction(0), Fraction(1)]
        vals = [forward(widths, theta, [x])[1][ell] for x in xs]
        new: set[Fraction] = set()
        for i in range(widths[ell + 1]):
            new |= _affine_roots(xs, [v[i] for v in vals])
        known |= new
    return sorted(known)


def equiv_points(bps: list[Fraction]) -> list[Fraction]:
    """The kinks, one point left of the first and one right of the last ([-1, 0, 1] if none)."""
    if not bps:
        return [Fraction(-1), Fraction(0), Fraction(1)]
    return [bps[0] - 1, *bps, bps[-1] + 1]


def cover_batch(
    widths: Sequence[int], theta: Sequence[Fraction]
) -> tuple[list[Fraction], list[Fraction]] | None:
    """Input width 1: two points inside every linear piece cut by the breakpoints q_1 < ... <
    q_m of the hidden neurons (at a third and two thirds of each bounded piece, at q_1 - 2,
    q_1 - 1 and q_m + 1, q_m + 2 on the rays; 0 and 1 without breakpoints) and the cuts
    between consecutive pairs (the breakpoints). None if a hidden pre-activation vanishes at
    one of the points (it is then identically zero on a piece)."""
    bps = breakpoints(widths, theta)
    if not bps:
        pts, cuts = [Fraction(0), Fraction(1)], []
    else:
        pts = [bps[0] - 2, bps[0] - 1]
        for a, b in zip(bps, bps[1:]):
            g = (b - a) / 3
            pts += [a + g, a + 2 * g]
        pts += [bps[-1] + 1, bps[-1] + 2]
        cuts = list(bps)
    for x in pts:
        if any(v == 0 for pre in forward(widths, theta, [x])[1] for v in pre):
            return None
    return pts, cuts


def jacobian_rows_exact(
    widths: Sequence[int], theta: Sequence[Fraction], x: Sequence[Fraction]
) -> list[list[Fraction]]:
    """The n_L exact gradients dF(x)[k]/dtheta over Q (pattern of x fixed), by forward
    differences: with the pattern forced, F(x) is affine in every single parameter."""
    _, pres = forward(widths, theta, x)
    pat = pattern(pres)

    def forced(th: Sequence[Fraction]) -> list[Fraction]:
        h = [Fraction(v) for v in x]
        ls = layers(widths, th)
        for ell, (W, b) in enumerate(ls):
            pre = [sum((w * v for w, v in zip(row, h)), start=Fraction(0)) + bi
                   for row, bi in zip(W, b)]  # fmt: skip
            if ell == len(ls) - 1:
                return pre
            h = [a if on else Fraction(0) for a, on in zip(pre, pat[ell])]
        return h

    base = forced(theta)
    cols = []
    for c in range(len(theta)):
        moved = list(theta)
        moved[c] += 1
        cols.append([a - b for a, b in zip(forced(moved), base)])
    return [[col[k] for col in cols] for k in range(widths[-1])]


def exact_nullspace(rows: list[list[Fraction]], n: int) -> list[list[int]]:
    """A basis of primitive integer vectors of {v : row . v = 0 for every row} (FLINT, exact
    over Q)."""
    from flint import fmpq, fmpq_mat

    if not rows:
        return [[1 if i == j else 0 for i in range(n)] for j in range(n)]
    M = fmpq_mat([[fmpq(v.numerator, v.denominator) for v in r] for r in rows])
    R, rank = M.rref()
    pivots: list[int] = []
    for i in range(rank):
        pivots.append(next(j for j in range(n) if R[i, j] != 0))
    out = []
    for f in (j for j in range(n) if j not in pivots):
        v = [Fraction(0)] * n
        v[f] = Fraction(1)
        for i, pc in enumerate(pivots):
            e = R[i, f]
            v[pc] = -Fraction(int(e.p), int(e.q))
        out.append(primitive(v))
    return out


# ---------------------------------------------------------------- symmetry search
class SearchExhausted(Exception):
    """The bounded search ran out of nodes before deciding."""


def find_symmetry(
    widths: Sequence[int],
    th1: Sequence[Fraction],
    th2: Sequence[Fraction],
    max_nodes: int = 200_000,
) -> tuple[list[list[int]], list[list[Fraction]]] | None:
    """A permutation and positive scaling of the hidden neurons mapping th1 to th2 exactly, or
    None when there is none. Requires every hidden neuron of th1 to have a nonzero incoming
    row (weights and bias), so that each match fixes its scaling; exhaustive backtracking
    over the matches of positively proportional rows, layer by layer.

    Returns (perms, scales): new neuron k of hidden layer l is old neuron perms[l][k] scaled
    by scales[l][k] (the kernel's `apply_sym` convention)."""
    L1, L2 = layers(widths, th1), layers(widths, th2)
    nodes = [0]

    def transformed(row: list[Fraction], bias: Fraction, perm_prev, scale_prev) -> list[Fraction]:
        return [row[j] / s for j, s in zip(perm_prev, scale_prev)] + [bias]

    def ratio(a: list[Fraction], b: list[Fraction]) -> Fraction | None:
        """lam > 0 with b = lam a, or None."""
        lam = None
        for x, y in zip(a, b):
            if x == 0:
                if y != 0:
                    return None
                continue
            q = y / x
            if q <= 0 or (lam is not None and q != lam):
                return None
            lam = q
        return lam

    def layer(ell: int, perm_prev, scale_prev, perms, scales):
        W1, b1 = L1[ell]
        W2, b2 = L2[ell]
        d = len(b1)
        rows1 = [transformed(W1[i], b1[i], perm_prev, scale_prev) for i in range(d)]
        rows2 = [W2[k] + [b2[k]] for k in range(d)]
        if ell == len(L1) - 1:  # output layer: neurons stay, no scaling
            ok = all(r1 == r2 for r1, r2 in zip(rows1, rows2))
            return (perms, scales) if ok else None
        perm: list[int] = []
        scale: list[Fraction] = []
        used = [False] * d

        def assign(k: int):
            nodes[0] += 1
            if nodes[0] > max_nodes:
                raise SearchExhausted
            if k == d:
                return layer(ell + 1, list(perm), list(scale), [*perms, list(perm)],
                             [*scales, list(scale)])  # fmt: skip
            for i in range(d):
                if used[i]:
                    continue
                lam = ratio(rows1[i], rows2[k])
                if lam is None:
                    continue
                used[i] = True
                perm.append(i)
                scale.append(lam)
                found = assign(k + 1)
                if found is not None:
                    return found
                used[i] = False
                perm.pop()
                scale.pop()
            return None

        return assign(0)

    for W, b in L1[:-1]:
        for row, bi in zip(W, b):
            if bi == 0 and all(w == 0 for w in row):
                raise SearchExhausted  # a dead row leaves its scaling free: not decided here
    return layer(0, list(range(widths[0])), [Fraction(1)] * widths[0], [], [])
