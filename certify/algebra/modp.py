"""Primes and mod-p linear algebra on python-flint (generator side, untrusted)."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache
from typing import Any

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


@lru_cache(maxsize=64)
def require_prime(p: int) -> int:
    """p itself, when p is a prime; else a ValueError. Every nmod_mat of this project is
    made by `nmod`, which calls this: FLINT's nmod_mat rank and elimination abort the whole
    process (not an exception) on a zero divisor, which a composite modulus can produce."""
    if not (isinstance(p, int) and p >= 2 and fmpz(p).is_prime()):
        raise ValueError(f"the modulus {p!r} is not a prime")
    return p


def nmod(rows: Any, p: int, ncols: int) -> nmod_mat:
    """An nmod_mat from rows of ints or an int64 numpy array, over Z/p for a prime p
    (`require_prime`). Large arrays are filled row by row (no Python list of all m * n
    entries: that list alone is ~36 bytes an entry)."""
    require_prime(p)
    try:
        import numpy as np
    except ImportError:  # pragma: no cover - numpy is a dependency
        np = None
    if np is not None and isinstance(rows, np.ndarray):
        A = rows % p
        if A.size <= 4_000_000:
            return nmod_mat(A.shape[0], ncols, A.ravel().tolist(), p)
        M = nmod_mat(A.shape[0], ncols, p)
        for i in range(A.shape[0]):
            for j, v in enumerate(A[i].tolist()):
                if v:
                    M[i, j] = v
        return M
    return nmod_mat(len(rows), ncols, [int(v) % p for r in rows for v in r], p)


def maximal_minor(rows: Any, p: int, ncols: int) -> tuple[list[int], list[int]]:
    """Rows R and columns C with J[R, C] nonsingular and |R| = |C| = rank J (mod p).

    R = pivot columns of rref(J^T) (a row basis); C = pivot columns of rref(J[R, :]) (a column
    basis of the row-basis submatrix; all columns, with no second elimination, when J has full
    column rank). A row basis and a column basis of it meet in a nonsingular submatrix.
    `rows` is a list of int rows or an int64 numpy array.
    """
    import numpy as np

    J = np.asarray(rows, dtype=object) if not isinstance(rows, np.ndarray) else rows
    if J.dtype == object:
        J = np.array([[int(v) % p for v in r] for r in rows], dtype=np.int64).reshape(-1, ncols)
    Et, r = nmod(J.T, p, J.shape[0]).rref()  # nmod's reduction makes the one copy of J^T
    R = _pivots_of(Et, r)
    if r == ncols:
        return R, list(range(ncols))
    E, r2 = nmod(J[R], p, ncols).rref()
    C = _pivots_of(E, r2)
    assert len(R) == len(C) == r == r2
    return R, C


def rows_for_columns(rows: Any, p: int, C: Sequence[int]) -> list[int]:
    """Rows R of J such that J[R, C] is nonsingular, |R| = rank J[:, C] (pivot columns of
    rref(J[:, C]^T)); one elimination of an |C| x m matrix."""
    import numpy as np

    J = np.asarray(rows, dtype=np.int64)
    E, r = nmod(J[:, list(C)].T, p, J.shape[0]).rref()
    return _pivots_of(E, r)


def _pivots_of(E: nmod_mat, r: int) -> list[int]:
    out = []
    ncols = E.ncols()
    for i in range(r):
        j = out[-1] + 1 if out else 0
        while j < ncols and int(E[i, j]) == 0:
            j += 1
        out.append(j)
    return out


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
