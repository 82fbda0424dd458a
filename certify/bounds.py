"""Degree bounds of Kohn-Marchetti-Massarenti-Mella (math.md §1) for `certify bounds`."""

from __future__ import annotations

from fractions import Fraction
from math import ceil


def thm23(k: int, m: int) -> int:
    """Thm 2.3 (polynomials of equal degree m): r >= k^2 (m + 2) - 1."""
    return k * k * (m + 2) - 1


def thm25(k: int, m: int) -> int:
    """Thm 2.5 (degree <= m): r >= (k/2)(3km + 4k - m)."""
    return ceil(Fraction(k, 2) * (3 * k * m + 4 * k - m))


def thm34(k: int, m: int) -> int:
    """Thm 3.4 (origin-passing, equal degree m): r >= k^2 (m + 1)."""
    return k * k * (m + 1)


def thm35(k: int, m: int) -> int:
    """Thm 3.5 (origin-passing, degree <= m): r >= (k/2)(3km + k - m + 1)."""
    return ceil(Fraction(k, 2) * (3 * k * m + k - m + 1))


def bounds_table(k: int, m: int) -> list[tuple[str, str, int]]:
    return [
        ("Thm 2.3", "equal degree m", thm23(k, m)),
        ("Thm 2.5", "degree <= m", thm25(k, m)),
        ("Thm 3.4", "origin-passing, equal degree m", thm34(k, m)),
        ("Thm 3.5", "origin-passing, degree <= m", thm35(k, m)),
    ]


def layer_recursion(widths: list[int], r: int) -> list[dict[str, int | bool]]:
    """Layerwise degrees for a bias-free MLP with activation degree r: the inputs of the
    activation at hidden layer l are polynomials of degree m_l = r^(l-1) (m_1 = 1), and
    identifiability there asks for k = 2 d_l of them (pairs of neurons, Corollary 4.1), so
    Thm 3.5's bound for (k, m_l) applies."""
    rows: list[dict[str, int | bool]] = []
    m = 1
    for ell, d in enumerate(widths[1:-1], start=1):
        need = thm35(2 * d, m)
        rows.append({"layer": ell, "width": d, "k": 2 * d, "m": m, "thm35": need, "ok": r >= need})
        m *= r
    return rows
