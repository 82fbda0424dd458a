"""Lists of the kernel twins (coq/NNCert/kernel/Lists.v, lean/NNCert/Lists.lean): indexing,
ranges, grids and lattices of sample points, membership; function by function the Coq and
Lean definitions of the same names (tests/twins.toml). `is_unit_row` is in Lists.lean and in
Rank.v (on residues) in Coq.

Only Python ints (and lists of them); see certify/checker/kernel/__init__.py for the
conventions the three implementations share.
"""

from __future__ import annotations

from typing import TypeVar

A = TypeVar("A")


# ---------------------------------------------------------------- lists (NNCert/Lists)
def nth(xs: list[int], j: int) -> int:
    """Entry j of xs, 0 past the end (Lean `nth`, Coq `nth_z`)."""
    return xs[j] if 0 <= j < len(xs) else 0


def nth_nat(xs: list[int], j: int) -> int:
    """Entry j of a list of naturals, 0 past the end: the body of `nth`, but Coq and Lean type
    it on nat/Nat (indices, classes, residues) where `nth` is on Z/Int."""
    return xs[j] if 0 <= j < len(xs) else 0


def nth_row(rows: list[list[int]], i: int) -> list[int]:
    """Row i, [] past the end."""
    return rows[i] if 0 <= i < len(rows) else []


def take_n(n: int, xs: list[A]) -> list[A]:
    return xs[:n]


def drop_n(n: int, xs: list[A]) -> list[A]:
    return xs[n:]


def all_lt(k: int, xs: list[int]) -> bool:
    """Every entry is below k (and a natural number, as the Lean/Coq type Nat forces)."""
    return all(0 <= x < k for x in xs)


def rows_len(m: int, rows: list[list[A]]) -> bool:
    """Every row has length m."""
    return all(len(r) == m for r in rows)


def all_pos(xs: list[int]) -> bool:
    return all(x > 0 for x in xs)


def range_from(start: int, count: int) -> list[int]:
    """[start, start+1, ..., start+count-1]."""
    return [start + i for i in range(count)]


def range_nat(start: int, count: int) -> list[int]:
    """[start, start+1, ..., start+count-1] on naturals: the body of `range_from`, but Coq and
    Lean type it on nat/Nat (node and neuron indices) where `range_from` is on Z/Int."""
    return [start + i for i in range(count)]


def prepend_each(v: int, pts: list[list[int]]) -> list[list[int]]:
    return [[v, *pt] for pt in pts]


def cons_all(vals: list[int], pts: list[list[int]]) -> list[list[int]]:
    out: list[list[int]] = []
    for v in vals:
        out.extend(prepend_each(v, pts))
    return out


def grid(dim: int, deg: int) -> list[list[int]]:
    """All points of {0..deg}^dim."""
    pts: list[list[int]] = [[]]
    for _ in range(dim):
        pts = cons_all(range_from(0, deg + 1), pts)
    return pts


def sum_z(xs: list[int]) -> int:
    return sum(xs)


def lattice(dim: int, deg: int) -> list[list[int]]:
    """The principal lattice {x in {0..deg}^dim : x_1 + ... + x_dim <= deg}, in the
    lexicographic order of `grid`: unisolvent for polynomials of total degree <= deg (one
    vanishing at all these points is zero). Built directly (first coordinate v, then the
    lattice of dimension dim - 1 and degree deg - v), never by filtering the (deg+1)^dim grid."""
    if dim == 0:
        return [[]]
    out: list[list[int]] = []
    for v in range(deg + 1):
        out.extend(prepend_each(v, lattice(dim - 1, deg - v)))
    return out


def mem_nat(i: int, xs: list[int]) -> bool:
    """i occurs in xs."""
    return any(i == x for x in xs)


def nodup_nat(xs: list[int]) -> bool:
    """No entry occurs twice."""
    return all(not mem_nat(x, xs[k + 1 :]) for k, x in enumerate(xs))


def zlist_eq(a: list[int], b: list[int]) -> bool:
    """Equal integer lists (same length, same entries)."""
    return a == b


def is_unit_row(k: int, row: list[int]) -> bool:
    """row = e_k: 1 at index k, 0 elsewhere, and k < len(row)."""
    return k < len(row) and all(x == (1 if j == k else 0) for j, x in enumerate(row))
