"""Primes and mod-p linear algebra on python-flint (generator side, untrusted)."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from flint import fmpz, fmpz_mat, nmod_mat


def previous_prime(p: int) -> int:
    """The largest prime below p (deterministic retries walk down from the default)."""
    q = p - 1
    while q > 2 and not fmpz(q).is_prime():
        q -= 1
    return q


def residue(x: Fraction, p: int) -> int | None:
    """x mod p, or None when p divides the denominator."""
    x = Fraction(x)
    if x.denominator % p == 0:
        return None
    return (x.numerator % p) * pow(x.denominator, -1, p) % p


def inverse_mod(d: int, p: int) -> int:
    return pow(d % p, -1, p)


def nmod(rows: Sequence[Sequence[int]], p: int, ncols: int) -> nmod_mat:
    return nmod_mat(len(rows), ncols, [int(v) % p for r in rows for v in r], p)


def maximal_minor(rows: Sequence[Sequence[int]], p: int, ncols: int) -> tuple[list[int], list[int]]:
    """Rows R and columns C with J[R, C] nonsingular and |R| = |C| = rank J (mod p).

    R = pivot columns of rref(J^T) (a row basis); C = pivot columns of rref(J[R, :]) (a column
    basis of the row-basis submatrix, all columns when J has full column rank). A row basis
    and a column basis of it meet in a nonsingular submatrix.
    """
    m = len(rows)
    Jt = nmod_mat(ncols, m, [int(rows[i][j]) % p for j in range(ncols) for i in range(m)], p)
    Et, r = Jt.rref()
    R = _pivots_of(Et, r)
    if r == ncols:
        return R, list(range(ncols))
    JR = nmod(([rows[i] for i in R]), p, ncols)
    E, r2 = JR.rref()
    C = _pivots_of(E, r2)
    assert len(R) == len(C) == r == r2
    return R, C


def _pivots_of(E: nmod_mat, r: int) -> list[int]:
    out = []
    ncols = E.ncols()
    for i in range(r):
        j = out[-1] + 1 if out else 0
        while j < ncols and int(E[i, j]) == 0:
            j += 1
        out.append(j)
    return out


def submatrix(
    rows: Sequence[Sequence[int]], R: Sequence[int], C: Sequence[int], p: int
) -> nmod_mat:
    return nmod_mat(len(R), len(C), [int(rows[i][j]) % p for i in R for j in C], p)


def to_int_rows(M: nmod_mat) -> list[list[int]]:
    return [[int(v) for v in row] for row in M.tolist()]


def integer_nullspace(rows: Sequence[Sequence[Fraction]], ncols: int) -> list[list[int]]:
    """An integer basis of the right kernel of a rational matrix (exact, flint)."""
    from math import lcm

    int_rows = []
    for r in rows:
        den = lcm(*(Fraction(v).denominator for v in r)) if r else 1
        int_rows.append([int(Fraction(v) * den) for v in r])
    if not int_rows:
        int_rows = [[0] * ncols]
    M = fmpz_mat(int_rows)
    X, nullity = M.nullspace()
    basis = []
    for j in range(nullity):
        basis.append([int(X[i, j]) for i in range(ncols)])
    return basis
