"""Exact semantics of ReLU networks for the generator (untrusted; math.md §3).

Forward evaluation in Fractions, Jacobian rows mod p by backpropagation with the activation
pattern fixed (written apart from the kernels' reverse mode, on (W, b) matrices; the tests
cross-check both with exact finite differences), the positive-scaling
tangents, the breakpoints of a one-dimensional network, and an exact search for a
permutation-and-positive-scaling group element mapping one parameter vector to another."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from certify.checker.facts.networks import primitive as primitive
from certify.checker.facts.relu_net import (
    Layer as Layer,
)
from certify.checker.facts.relu_net import (
    SearchExhausted as SearchExhausted,
)
from certify.checker.facts.relu_net import (
    find_symmetry as find_symmetry,
)
from certify.checker.facts.relu_net import (
    forward as forward,
)
from certify.checker.facts.relu_net import (
    layers as layers,
)
from certify.checker.facts.relu_net import (
    pattern as pattern,
)
from certify.checker.facts.relu_net import (
    relu_vec as relu_vec,
)
from certify.checker.facts.relu_net import (
    scaling_tangents as scaling_tangents,
)


def flatten(ls: list[Layer]) -> list[Fraction]:
    out: list[Fraction] = []
    for W, b in ls:
        for row, bi in zip(W, b):
            out.extend(row)
            out.append(bi)
    return out


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


# ---------------------------------------------------------------- region-aware batches (n0 >= 2)
def line_network(
    widths: Sequence[int], theta: Sequence[Fraction], x0: Sequence[Fraction], d: Sequence[Fraction]
) -> list[Fraction]:
    """The parameters of t -> F_theta(x0 + t d), a network of widths (1, n_1, ..., n_L): each
    first-layer neuron gets weight w.d and bias w.x0 + b; the later layers are unchanged."""
    n0, n1 = widths[0], widths[1]
    out: list[Fraction] = []
    for i in range(n1):
        row = theta[i * (n0 + 1) : i * (n0 + 1) + n0]
        b = theta[i * (n0 + 1) + n0]
        out.append(sum((w * c for w, c in zip(row, d)), start=Fraction(0)))
        out.append(sum((w * c for w, c in zip(row, x0)), start=Fraction(0)) + b)
    out.extend(theta[n1 * (n0 + 1) :])
    return out


def simplest_between(a: Fraction, b: Fraction, max_den: int = 64) -> Fraction:
    """A rational of smallest denominator (at most max_den; else the midpoint) strictly inside
    (a, b), the one nearest 0 among the integers: small numbers keep the kernel's work small."""
    if a < 0 < b:
        return Fraction(0)
    for q in range(1, max_den + 1):
        k = (a * q).__floor__() + 1 if a >= 0 else (b * q).__ceil__() - 1
        if a < Fraction(k, q) < b:
            return Fraction(k, q)
    return (a + b) / 2


def line_points(breaks: list[Fraction]) -> list[Fraction]:
    """One parameter t inside every piece of the line cut at the sorted breaks (the two rays
    included): the simplest rational of each open piece."""
    if not breaks:
        return [Fraction(0)]
    return [
        Fraction(breaks[0].__floor__() - 1),
        *(simplest_between(a, b) for a, b in zip(breaks, breaks[1:])),
        Fraction(breaks[-1].__ceil__() + 1),
    ]


def forced_pres(
    widths: Sequence[int], theta: Sequence[Fraction], x: Sequence[Fraction], pat: Sequence
) -> list[Fraction]:
    """All hidden pre-activations at x with the activation pattern `pat` forced (each is an
    affine function of x), flattened layer by layer."""
    h = [Fraction(v) for v in x]
    out: list[Fraction] = []
    ls = layers(widths, theta)
    for ell, (W, b) in enumerate(ls[:-1]):
        pre = [
            sum((w * v for w, v in zip(row, h)), start=Fraction(0)) + bi for row, bi in zip(W, b)
        ]
        out.extend(pre)
        h = [a if on else Fraction(0) for a, on in zip(pre, pat[ell])]
    return out


def _float(a: Fraction) -> float:
    try:
        return float(a)
    except OverflowError:
        return float("inf") if a > 0 else float("-inf")


def region_simplex(
    widths: Sequence[int], theta: Sequence[Fraction], x: Sequence[Fraction]
) -> list[tuple[Fraction, ...]] | None:
    """n0 + 1 affinely independent points of the activation region of x (the convex
    polyhedron where x's pattern holds): the integer point z nearest x and z +- e_i when all
    lie in the region; else x and x +- eps_i e_i (i = 1..n0): with the pattern forced every
    hidden pre-activation g is affine in x, and eps_i = 2^-k is a power of two with
    4 eps_i |dg/dx_i| < |g(x)| for every g in floating point (Python floats in a fixed order,
    so the same on every IEEE machine; the forced network's linear part layer by layer), so
    no g changes sign; every point is then checked exactly (its pattern recomputed in
    Fractions) and eps_i halved until it holds. None if a pre-activation vanishes at x."""
    _, pres = forward(widths, theta, x)
    if any(a == 0 for pre in pres for a in pre):
        return None
    pat = pattern(pres)
    n0 = widths[0]

    def inside(z: Sequence[Fraction]) -> bool:
        pz = forward(widths, theta, z)[1]
        return pattern(pz) == pat and all(a != 0 for pre in pz for a in pre)

    # Integer points first: the kernels add unnormalised rationals, so denominators of batch
    # points multiply through the layers; an integer simplex (the nearest integer point and
    # unit steps, either way) keeps every pre-activation an integer.
    z = tuple(Fraction(round(c)) for c in x)
    if inside(z):
        simplex = [z]
        for i in range(n0):
            for step in (1, -1):
                zi = list(z)
                zi[i] += step
                if inside(zi):
                    simplex.append(tuple(zi))
                    break
            else:
                break
        if len(simplex) == n0 + 1:
            return simplex
    g0 = [abs(_float(a)) for pre in pres for a in pre]
    G = [[1.0 if i == j else 0.0 for j in range(n0)] for i in range(n0)]
    S: list[list[float]] = []  # |dg/dx_j| for every hidden pre-activation g
    for ell, (W, _) in enumerate(layers(widths, theta)[:-1]):
        Wf = [[_float(w) for w in row] for row in W]
        G = [[sum(r[k] * G[k][j] for k in range(len(G))) for j in range(n0)] for r in Wf]
        S.extend([abs(v) for v in row] for row in G)
        G = [row if on else [0.0] * n0 for row, on in zip(G, pat[ell])]
    pts = [tuple(Fraction(c) for c in x)]
    for i in range(n0):
        k = 0
        while k < 1000 and any(4 * s[i] >= g * 2.0**k for s, g in zip(S, g0)):
            k += 1
        eps = Fraction(1, 2**k)
        found = None
        while found is None:
            for step in (eps, -eps):
                xi = list(pts[0])
                xi[i] += step
                if inside(xi):
                    found = tuple(xi)
                    break
            eps /= 2
        pts.append(found)
    return pts
