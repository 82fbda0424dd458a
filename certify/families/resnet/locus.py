"""The critical locus of a scalar ResNet as a certificate (generator, untrusted; sympy and
python-flint).

F_theta(x) = sum_k c_k(theta) x^k (width 1, D = prod deg sigma_l). J = (d c_k / d theta_j) is a
(D+1) x n polynomial matrix, g = min(D+1, n), and M_1, ..., M_N are all its g x g minors (row
subsets outer, column subsets inner, lexicographic: the kernel's order). The certificate ships
P = the primitive gcd of the M_i, the cofactors Q_i = M_i / P and integer Bezout coefficients
c_i with sum_i c_i M_i = lam P^k (lam != 0): P^(k-1) lies in the ideal of the Q_i, found by
solving a linear system for c_i of bounded degree (flint, exact over Q). The kernel recomputes
J and the M_i from the network and checks both identities, so all M_i vanish iff P vanishes.
Not every network has a small certificate: `locus_witness` returns None beyond the caps."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from typing import Any

import flint
import sympy as sp

from certify.checker.ir import ResNet

MAX_MINORS = 10  # the kernel expands every g x g minor by cofactors
MAX_POWER = 3  # try P^(k-1) for k - 1 = 1 .. MAX_POWER
EXTRA_DEGREE = 8  # Bezout coefficients of degree up to deg P^(k-1) + EXTRA_DEGREE - deg Q_i
MAX_UNKNOWNS = 4000  # columns of the linear system

Term = tuple[tuple[int, int], list[int]]


def _symbols(n: int) -> list[sp.Symbol]:
    return list(sp.symbols(f"t0:{n}"))


def coefficient_polys(rn: ResNet, th: list[sp.Symbol]) -> list[sp.Expr]:
    """c_0, ..., c_D of F_theta for symbolic theta (layout w, b (, v) per layer)."""
    x = sp.Symbol("x")
    h: sp.Expr = x
    step = 3 if rn.outer else 2
    for ell, sigma in enumerate(rn.activations):
        w, b = th[step * ell], th[step * ell + 1]
        pre = w * h + b
        v = sum(sp.Rational(c.numerator, c.denominator) * pre**i for i, c in enumerate(sigma))
        h = h + (th[step * ell + 2] * v if rn.outer else v)
    poly = sp.Poly(sp.expand(h), x)
    D = rn.degree_bound()
    return [poly.coeff_monomial(x**k) for k in range(D + 1)]


def to_terms(p: sp.Poly) -> list[Term]:
    """Canonical terms: exponents in lexicographic order, highest first; no zero terms."""
    out = []
    for es, c in sorted(p.terms(), key=lambda t: tuple(-e for e in t[0])):
        q = sp.Rational(c)
        if q == 0:  # sympy lists the zero polynomial as one zero term; canonical is []
            continue
        out.append(((int(q.p), int(q.q)), list(es)))
    return out


def _monomials(n: int, d: int) -> list[tuple[int, ...]]:
    return [
        e
        for tot in range(d + 1)
        for e in itertools.product(range(tot + 1), repeat=n)
        if sum(e) == tot
    ]


def bezout(qs: list[sp.Poly], target: sp.Poly, dtot: int) -> list[sp.Poly] | None:
    """c_i with sum_i c_i q_i = target, deg c_i <= dtot - deg q_i, or None (exact over Q)."""
    gens = target.gens
    n = len(gens)
    cols = [
        (i, e)
        for i, q in enumerate(qs)
        if not q.is_zero and dtot >= q.total_degree()
        for e in _monomials(n, dtot - q.total_degree())
    ]
    if not cols or len(cols) > MAX_UNKNOWNS:
        return None
    rows: dict[tuple[int, ...], int] = {}
    entries: dict[tuple[int, int], sp.Rational] = {}
    for ci, (i, e) in enumerate(cols):
        for me, c in qs[i].terms():
            m = tuple(a + b for a, b in zip(me, e))
            entries[(rows.setdefault(m, len(rows)), ci)] = c
    for me, _ in target.terms():
        rows.setdefault(me, len(rows))
    nc = len(cols)
    A = flint.fmpq_mat(len(rows), nc + 1)
    for (r, c), v in entries.items():
        A[r, c] = flint.fmpq(int(v.p), int(v.q))
    for me, c in target.terms():
        A[rows[me], nc] = flint.fmpq(int(c.p), int(c.q))
    R, rank = A.rref()
    pivots: list[int] = []
    c = 0
    for r in range(rank):  # the pivot columns increase with the row
        while R[r, c] == 0:
            c += 1
        pivots.append(c)
    if nc in pivots:
        return None
    acc: list[dict[tuple[int, ...], sp.Rational]] = [{} for _ in qs]
    for r, pc in enumerate(pivots):
        v = R[r, nc]
        if v != 0:
            i, e = cols[pc]
            acc[i][e] = sp.Rational(int(v.p), int(v.q))
    return [sp.Poly.from_dict(d, *gens) if d else sp.Poly(0, *gens) for d in acc]


def det(m: list[list[sp.Poly]]) -> sp.Poly:
    """Cofactor expansion along the first row (small matrices only)."""
    if len(m) == 1:
        return m[0][0]
    out = m[0][0] * 0
    for j, e in enumerate(m[0]):
        sub = det([row[:j] + row[j + 1 :] for row in m[1:]])
        out = out + e * sub if j % 2 == 0 else out - e * sub
    return out


def locus_witness(rn: ResNet) -> dict[str, Any] | None:
    """The critical-locus witness {g, polynomial, power, scale, cofactors, bezout} of the
    scalar ResNet rn, or None (width > 1, too many minors, or no Bezout identity within the
    caps)."""
    if rn.width != 1:
        return None
    n = rn.n_params
    th = _symbols(n)
    cs = coefficient_polys(rn, th)
    g = min(len(cs), n)
    row_sets = list(itertools.combinations(range(len(cs)), g))
    col_sets = list(itertools.combinations(range(n), g))
    if len(row_sets) * len(col_sets) > MAX_MINORS:
        return None
    J = [[sp.Poly(c, *th).diff(t) for t in th] for c in cs]
    minors = [det([[J[i][j] for j in cl] for i in rs]) for rs in row_sets for cl in col_sets]
    nonzero = [m for m in minors if not m.is_zero]
    if not nonzero:
        return None
    P = nonzero[0]
    for m in nonzero[1:]:
        P = P.gcd(m)
    P = P.primitive()[1]
    if P.LC() < 0:
        P = -P
    if P.total_degree() == 0:
        return None  # no locus: the rank is g everywhere (not this certificate's case)
    qs = []
    for m in minors:
        q, r = m.div(P)
        if not r.is_zero:
            return None
        qs.append(q)
    for power in range(1, MAX_POWER + 1):
        target = P**power
        for dtot in range(target.total_degree(), target.total_degree() + EXTRA_DEGREE + 1):
            cs_b = bezout(qs, target, dtot)
            if cs_b is None:
                continue
            den = 1
            for c in cs_b:
                for _, v in c.terms():
                    den = math.lcm(den, int(sp.Rational(v).q))
            cs_b = [c * den for c in cs_b]
            return {
                "g": g,
                "polynomial": to_terms(P),
                "power": power + 1,
                "scale": den,
                "cofactors": [to_terms(q) for q in qs],
                "bezout": [to_terms(c) for c in cs_b],
            }
    return None


def locus_value(terms: list[Term], theta: list[Fraction]) -> Fraction:
    """P(theta) exactly."""
    total = Fraction(0)
    for (a, b), es in terms:
        total += Fraction(a, b) * math.prod(t**e for t, e in zip(theta, es))
    return total
