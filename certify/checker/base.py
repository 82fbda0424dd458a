"""Lists and arithmetic of the kernel twins (coq/NNCert/Lists.v + Arith.v,
lean/NNCert/Lists.lean + Arith.lean): the helpers every family's checks share, once.

Only Python ints (and tuples/lists of them); see kernel.py for the shared conventions.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

A = TypeVar("A")
Rat = tuple[int, int]
P_BOUND = 2**31


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


# ---------------------------------------------------------------- arithmetic (NNCert/Arith)
@dataclass(frozen=True)
class Arith(Generic[A]):
    """The operations network evaluation needs (Lean `Arith`, Coq section variables)."""

    add: Callable[[A, A], A]
    mul: Callable[[A, A], A]
    zero: A
    one: A


def arith_mod(p: int) -> Arith[int]:
    """Z/p with representatives in [0, p)."""
    return Arith(lambda a, b: (a + b) % p, lambda a, b: (a * b) % p, 0, 1)


def qadd(a: Rat, b: Rat) -> Rat:
    return (a[0] * b[1] + b[0] * a[1], a[1] * b[1])


def qmul(a: Rat, b: Rat) -> Rat:
    return (a[0] * b[0], a[1] * b[1])


ARITH_Q: Arith[Rat] = Arith(qadd, qmul, (0, 1), (1, 1))
ARITH_Z: Arith[int] = Arith(lambda a, b: a + b, lambda a, b: a * b, 0, 1)  # exact integers


def p_ok(p: int) -> bool:
    return 1 < p < P_BOUND


def rat_inv_ok(p: int, r: Rat, inv: int) -> bool:
    """den > 0 and den * inv = 1 (mod p): then num/den reduces to num * inv mod p."""
    return r[1] > 0 and ((r[1] % p) * (inv % p)) % p == 1


def rat_mod(p: int, r: Rat, inv: int) -> int:
    return ((r[0] % p) * (inv % p)) % p


def rats_inv_ok(p: int, rs: list[Rat], invs: list[int]) -> bool:
    return len(rs) == len(invs) and all(rat_inv_ok(p, r, i) for r, i in zip(rs, invs))


def rats_mod(p: int, rs: list[Rat], invs: list[int]) -> list[int]:
    return [rat_mod(p, r, i) for r, i in zip(rs, invs)]


def acts_inv_ok(p: int, acts: list[list[Rat]], invs: list[list[int]]) -> bool:
    return len(acts) == len(invs) and all(rats_inv_ok(p, a, i) for a, i in zip(acts, invs))


def acts_mod(p: int, acts: list[list[Rat]], invs: list[list[int]]) -> list[list[int]]:
    return [rats_mod(p, a, i) for a, i in zip(acts, invs)]


def rats_pos(rs: list[Rat]) -> bool:
    return all(r[1] > 0 for r in rs)


def acts_pos(acts: list[list[Rat]]) -> bool:
    return all(rats_pos(a) for a in acts)


def ints_mod(p: int, xs: list[int]) -> list[int]:
    return [x % p for x in xs]


def ints_q(xs: list[int]) -> list[Rat]:
    return [(x, 1) for x in xs]


def all_zero_q(xs: list[Rat]) -> bool:
    return all(x[0] == 0 for x in xs)


def zeros(ar: Arith[A], n: int) -> list[A]:
    return [ar.zero] * n


def unit_vec(ar: Arith[A], n: int, c: int) -> list[A]:
    """e_c of length n (all zero when c >= n)."""
    return [ar.one if j == c else ar.zero for j in range(n)]


def qneg(a: Rat) -> Rat:
    return (-a[0], a[1])


def qeq(a: Rat, b: Rat) -> bool:
    """a = b as rationals (cross-multiplication; both denominators positive)."""
    return a[0] * b[1] == b[0] * a[1]


def nonzero_q(a: Rat) -> bool:
    return a[0] != 0


def nth_q(xs: list[Rat], j: int) -> Rat:
    """Entry j of a rational list, 0 = (0, 1) past the end."""
    return xs[j] if 0 <= j < len(xs) else (0, 1)


def qeq_all(a: list[Rat], b: list[Rat]) -> bool:
    """Equal lengths and a[i] = b[i] as rationals."""
    return len(a) == len(b) and all(qeq(x, y) for x, y in zip(a, b))
