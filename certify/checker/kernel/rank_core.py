"""The rank core shared by every family (Python twin of coq/NNCert/kernel/RankCore.v and
lean/NNCert/RankCore.lean; same names, same order, loops where they recurse structurally).

A family supplies the Jacobian rows it can compute from its literal instance; the core
decides the two facts a rank certificate needs:

- **lower bound**: for row labels R = ((s, k), ...) and columns C, |R| = |C| = r, the r x r
  minor J[R, C] mod p is nonsingular. The kernel decides it by fraction-free Gaussian
  elimination mod p (`nonsingular_mod`): no inverse is shipped, so a certificate carries
  O(r) indices instead of r^2 residues, and the check costs about r^3/3 multiply-adds
  instead of the r^3 of an inverse-product check. det J[R, C] != 0 mod p implies
  det J[R, C] != 0 over Q, so rank_Q J >= r.
- **upper bound at theta** (independence part): s integer tangents whose s x s minor on the
  columns C is nonsingular mod p are linearly independent over Q.
- **exactness from residues** (`moduli_ok`, `kills_mod`): an integer v with |v| <= B that is
  0 mod each of pairwise coprime moduli q_1..q_m with q_1 ... q_m > B is 0. The families use
  it to show that a tangent annihilates the exact integer Jacobian rows on a unisolvent
  lattice using only residue arithmetic (B from the same rows evaluated on absolute values).

Residues lie in [0, p) with 1 < p < 2^31, so a*y + (p - b)*x < 2^63 never wraps in Coq's
63-bit primitive integers (the Lean twin uses `Nat`, which its kernel accelerates).
"""

from __future__ import annotations

from math import gcd

from certify.checker.kernel.arith import ints_mod, p_ok
from certify.checker.kernel.lists import all_lt, nth


# ---------------------------------------------------------------- elimination mod p
def elim_tail(p: int, a: int, b: int, pt: list[int], rt: list[int]) -> list[int]:
    """[(a * y + (p - b) * x) mod p for x, y in zip(pt, rt)]: the row b :: rt after the
    elimination step a * row - b * pivot (pivot a :: pt), without its first entry (0)."""
    return [(a * y + (p - b) * x) % p for x, y in zip(pt, rt)]


def elim_row(p: int, piv: list[int], row: list[int]) -> list[int]:
    """Eliminate the first column of `row` with the pivot row `piv` (both nonempty); the
    result is one entry shorter. Multiplying a row by the unit a = piv[0] keeps the rank."""
    if not piv or not row:
        return []
    return elim_tail(p, piv[0], row[0], piv[1:], row[1:])


def lead_nonzero(row: list[int]) -> bool:
    """The first entry is nonzero (an empty row counts as starting with 0)."""
    return bool(row) and row[0] != 0


def pick_pivot(rows: list[list[int]]) -> tuple[list[int], list[list[int]]] | None:
    """(the first row whose first entry is nonzero, the other rows in order), or None."""
    for i, row in enumerate(rows):
        if lead_nonzero(row):
            return row, rows[:i] + rows[i + 1 :]
    return None


def nonsingular_mod(p: int, fuel: int, M: list[list[int]]) -> bool:
    """M (entries in [0, p), `fuel` rows of `fuel` entries) is nonsingular mod p: each step
    finds a pivot in the first column and eliminates it from the other rows, which leaves a
    (fuel-1) x (fuel-1) matrix that is nonsingular iff M is. With p prime the residues form
    a field, so a column without a pivot means det M = 0 mod p."""
    while fuel > 0:
        found = pick_pivot(M)
        if found is None:
            return False
        piv, rest = found
        M = [elim_row(p, piv, row) for row in rest]
        fuel -= 1
    return not M


# Two columns per pass: the rows of two consecutive steps of nonsingular_mod in one walk over
# each row (Coq: ElimSound.v nonsingular2_mod_eq proves the two deciders equal).
def elim2_tail(
    p: int, A: int, B: int, C: int, pt: list[int], qt: list[int], rt: list[int]
) -> list[int]:
    """[((A * y + B * x) % p + C * q) % p for x, q, y in zip(pt, qt, rt)]."""
    return [((A * y + B * x) % p + C * q) % p for x, q, y in zip(pt, qt, rt)]


def elim2_row(p: int, piv: list[int], piv2: list[int], row: list[int]) -> list[int]:
    """elim_row(p, piv2, elim_row(p, piv, row)) in one pass: with piv = a :: x0 :: pt,
    piv2 = d :: qt and row = b :: y0 :: rt, the first step gives e :: (a rt - b pt) with
    e = a y0 - b x0, the second d (a rt - b pt) - e qt = (d a) rt + (d (p - b)) pt + (p - e) qt
    (mod p); [] when a row is too short."""
    if len(piv) < 2 or not piv2 or len(row) < 2:
        return []
    a, x0, pt = piv[0], piv[1], piv[2:]
    d, qt = piv2[0], piv2[1:]
    b, y0, rt = row[0], row[1], row[2:]
    nb = p - b
    e = (a * y0 + nb * x0) % p
    return elim2_tail(p, (d * a) % p, (d * nb) % p, p - e, pt, qt, rt)


def pick_pivot2(
    p: int, piv: list[int], rows: list[list[int]]
) -> tuple[list[int], list[list[int]]] | None:
    """(elim_row(p, piv, row), the other rows in order) for the first row whose eliminated
    row has a nonzero first entry, or None: pick_pivot on [elim_row(p, piv, r) for r in rows]
    without eliminating the other rows."""
    for i, row in enumerate(rows):
        e = elim_row(p, piv, row)
        if lead_nonzero(e):
            return e, rows[:i] + rows[i + 1 :]
    return None


def nonsingular2_mod(p: int, fuel: int, M: list[list[int]]) -> bool:
    """nonsingular_mod(p, fuel, M), two elimination steps per pass while fuel >= 2."""
    while fuel >= 2:
        found = pick_pivot(M)
        if found is None:
            return False
        piv, rest = found
        found2 = pick_pivot2(p, piv, rest)
        if found2 is None:
            return False
        piv2, rest2 = found2
        M = [elim2_row(p, piv, piv2, row) for row in rest2]
        fuel -= 2
    return nonsingular_mod(p, fuel, M)


def minor_rows(rows: list[list[int]], cols: list[int]) -> list[list[int]]:
    """The columns `cols` of every row (0 past the end of a row)."""
    return [[nth(row, c) for c in cols] for row in rows]


def gap_cols(b: int, gaps: list[int]) -> list[int]:
    """The strictly increasing columns c_0 = b + g_0, c_(i+1) = c_i + 1 + g_(i+1) of the
    gaps g (the number of columns skipped before each)."""
    out = []
    for g in gaps:
        out.append(g + b)
        b = g + b + 1
    return out


def col_gaps(b: int, cols: list[int]) -> list[int] | None:
    """The gaps of strictly increasing columns, all >= b (gap_cols(b, .) inverts it), or
    None for columns out of order."""
    out = []
    for c in cols:
        if not b <= c:
            return None
        out.append(c - b)
        b = c + 1
    return out


def sel_gaps(row: list[int], gaps: list[int]) -> list[int]:
    """The entries of `row` at the columns gap_cols(0, gaps) (0 past its end), in one walk:
    skip g entries, take the next, go on from the one after."""
    out = []
    for g in gaps:
        rest = row[g:]
        out.append(rest[0] if rest else 0)
        row = rest[1:]
    return out


def select_minor(rows: list[list[int]], cols: list[int]) -> list[list[int]]:
    """minor_rows(rows, cols), by one walk per row (sel_gaps) when the columns are strictly
    increasing (the two are equal: ElimSound.v, select_minor_eq)."""
    gaps = col_gaps(0, cols)
    if gaps is None:
        return minor_rows(rows, cols)
    return [sel_gaps(row, gaps) for row in rows]


def reduce_mod(p: int, rows: list[list[int]]) -> list[list[int]]:
    """Every integer entry reduced into [0, p)."""
    return [ints_mod(p, row) for row in rows]


def check_minor(p: int, n: int, r: int, rows: list[list[int]], cols: list[int]) -> bool:
    """r rows (residues mod p of Jacobian rows of length n), r columns below n, and the
    r x r minor on those columns nonsingular mod p: the rows have rank >= r."""
    return (
        len(rows) == r
        and len(cols) == r
        and all_lt(n, cols)
        and nonsingular2_mod(p, r, select_minor(reduce_mod(p, rows), cols))
    )


def rows_in_range(m: int, dout: int, rows: list[tuple[int, int]]) -> bool:
    """Every label (s, k) has s < m and k < dout (naturals, as Nat forces in Lean/Coq)."""
    return all(0 <= s < m and 0 <= k < dout for s, k in rows)


def check_rank_core(
    p: int,
    n: int,
    nsamples: int,
    dout: int,
    labels: list[tuple[int, int]],
    rows: list[list[int]],
    cols: list[int],
    r: int,
) -> bool:
    """The lower-bound decision every family shares: p usable, r labels (sample, output)
    in range, and the rows the family computed for them (one per label, mod p) have an
    r x r minor on `cols` that is nonsingular mod p. Then rank_Q J >= r."""
    return (
        p_ok(p)
        and len(labels) == r
        and rows_in_range(nsamples, dout, labels)
        and check_minor(p, n, r, rows, cols)
    )


def independent_mod(p: int, n: int, ts: list[list[int]], cols: list[int]) -> bool:
    """The integer vectors ts are linearly independent over Q: an s x s minor is
    nonsingular mod p (s = len(ts))."""
    return p_ok(p) and check_minor(p, n, len(ts), ts, cols)


# ---------------------------------------------------------------- exactness from residues
def coprime_to_all(q: int, qs: list[int]) -> bool:
    return all(gcd(q, q2) == 1 for q2 in qs)


def moduli_ok(qs: list[int]) -> bool:
    """Every modulus is usable (1 < q < 2^31) and the moduli are pairwise coprime."""
    for i, q in enumerate(qs):
        if not (p_ok(q) and coprime_to_all(q, qs[i + 1 :])):
            return False
    return True


def prod_z(qs: list[int]) -> int:
    out = 1
    for q in qs:
        out *= q
    return out


def dot_mod(q: int, xs: list[int], ys: list[int]) -> int:
    """sum xs[i] * ys[i] mod q over the shorter length (entries in [0, q))."""
    acc = 0
    for x, y in reversed(list(zip(xs, ys))):
        acc = (x * y + acc) % q
    return acc


def kills_mod(q: int, rows: list[list[int]], tq: list[list[int]]) -> bool:
    """Every tangent is orthogonal mod q to every row (rows and tangents reduced mod q; the
    families reduce the tangents once per modulus, not once per point)."""
    return all(dot_mod(q, row, t) == 0 for row in rows for t in tq)


def abs_z(x: int) -> int:
    return -x if x < 0 else x


def weighted_abs(bs: list[int], t: list[int]) -> int:
    """sum bs[i] * |t[i]| over the shorter length: a bound on |row . t| when |row[i]| <= bs[i]."""
    acc = 0
    for b, x in zip(bs, t):
        acc += b * abs_z(x)
    return acc


def max_z(a: int, b: int) -> int:
    return a if a >= b else b


def kill_bound(bounds: list[list[int]], ts: list[list[int]]) -> int:
    """max over bound rows bs and tangents t of weighted_abs(bs, t)."""
    out = 0
    for bs in bounds:
        for t in ts:
            out = max_z(out, weighted_abs(bs, t))
    return out
