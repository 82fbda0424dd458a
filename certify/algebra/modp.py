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


def pivots(rref_rows: list[list[int]]) -> list[int]:
    """Pivot columns of a matrix in reduced row echelon form."""
    out = []
    for row in rref_rows:
        for j, v in enumerate(row):
            if v != 0:
                out.append(j)
                break
    return out


def nmod(rows: Sequence[Sequence[int]], p: int, ncols: int) -> nmod_mat:
    return nmod_mat(len(rows), ncols, [int(v) % p for r in rows for v in r], p)


def maximal_minor(J: nmod_mat) -> tuple[list[int], list[int]]:
    """Rows R and columns C with J[R, C] nonsingular and |R| = |C| = rank J (mod p).

    C = pivot columns of rref(J), R = pivot columns of rref(J^T): a row basis and a
    column basis meet in a nonsingular submatrix.
    """
    E, r = J.rref()
    cols = pivots([[int(v) for v in row] for row in E.tolist()[:r]])
    Et, rt = J.transpose().rref()
    rows = pivots([[int(v) for v in row] for row in Et.tolist()[:rt]])
    assert len(rows) == len(cols) == r
    return rows, cols


def submatrix(J: nmod_mat, rows: Sequence[int], cols: Sequence[int]) -> nmod_mat:
    p = int(J.modulus())
    return nmod_mat(len(rows), len(cols), [int(J[i, j]) for i in rows for j in cols], p)


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
