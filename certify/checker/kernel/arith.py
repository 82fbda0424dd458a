"""Arithmetic of the kernel twins (coq/NNCert/kernel/Arith.v, lean/NNCert/Arith.lean): exact
rationals as unnormalised pairs (num, den) with den > 0, residues mod p with 1 < p < 2^31,
and the `Arith` record that network evaluation is generic over.

Only Python ints (and tuples/lists of them); see certify/checker/kernel/__init__.py.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic

from certify.checker.kernel.lists import A

Rat = tuple[int, int]
P_BOUND = 2**31


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
