"""Exact semantics of ReLU networks that the checker states facts about (trusted; math.md §3).

Forward evaluation in Fractions and the activation pattern (the result's count of distinct
patterns), the positive-scaling tangents (the upper witness of kind 'scaling'), and the exact
exhaustive search for a permutation-and-positive-scaling group element mapping one parameter
vector to another: the checker's own search behind an equiv certificate that says "no group
element" (Python checker only; the kernels check the elements that are given). The generator
(certify/families/relu/model.py) uses these too."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from certify.checker.facts.networks import primitive

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


def affine_rank(points: Sequence[Sequence[Fraction]]) -> int:
    """The dimension of the affine hull of the points (rank over Q of their differences from
    the first, by Gaussian elimination in Fractions); -1 for no point."""
    if not points:
        return -1
    rows = [[Fraction(a) - Fraction(b) for a, b in zip(z, points[0])] for z in points[1:]]
    rank, n = 0, len(points[0])
    for c in range(n):
        piv = next((i for i in range(rank, len(rows)) if rows[i][c] != 0), None)
        if piv is None:
            continue
        rows[rank], rows[piv] = rows[piv], rows[rank]
        for i in range(rank + 1, len(rows)):
            if rows[i][c] != 0:
                f = rows[i][c] / rows[rank][c]
                rows[i] = [a - f * b for a, b in zip(rows[i], rows[rank])]
        rank += 1
    return rank


def regions_spanned(
    widths: Sequence[int], theta: Sequence[Fraction], batch: Sequence[Sequence[Fraction]]
) -> bool:
    """Whether the batch points of every activation pattern met span an affine space of
    dimension n0 (n0 + 1 affinely independent points in the region of every pattern)."""
    groups: dict = {}
    for z, pat in zip(batch, batch_pattern_keys(widths, theta, batch)):
        groups.setdefault(pat, []).append(z)
    return bool(groups) and all(affine_rank(g) == widths[0] for g in groups.values())


def batch_pattern_keys(
    widths: Sequence[int], theta: Sequence[Fraction], batch: Sequence[Sequence[Fraction]]
) -> list[bytes]:
    """Per batch point, a key of its activation pattern (equal keys iff equal
    pattern(forward(...))), from the signs of the exact integer-scaled pre-activations
    (relu_fast.batch_signs)."""
    from certify.checker.fast.relu import batch_signs

    def pairs(xs: Sequence[Fraction]) -> list[tuple[int, int]]:
        return [(Fraction(v).numerator, Fraction(v).denominator) for v in xs]

    if not batch:
        return []
    S = batch_signs(widths, pairs(theta), [pairs(z) for z in batch])
    return [row.tobytes() for row in S > 0]


def count_patterns(
    widths: Sequence[int], theta: Sequence[Fraction], batch: Sequence[Sequence[Fraction]]
) -> int:
    """The number of distinct activation patterns pattern(forward(...)) of the batch."""
    return len(set(batch_pattern_keys(widths, theta, batch)))
