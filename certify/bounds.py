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
    """Layerwise degrees for one activation degree r on every hidden layer (see layer_table)."""
    return [
        {"layer": row["layer"], "width": row["width"], "k": row["k"], "m": row["m"],
         "thm35": row["thm35"], "ok": row["ok"]}
        for row in layer_table(widths, [r] * (len(widths) - 2))
    ]  # fmt: skip


def layer_table(widths: list[int], rs: list[int]) -> list[dict]:
    """Per-layer application of the single-layer degree bounds (math.md §1) to a bias-free MLP
    with widths (d_0, ..., d_L) and activation sigma_l of degree r_l at hidden layer l.

    math.md §1 states the theorems for one layer only (k polynomials of degree (<=) m, one
    sigma of degree r) and allows layer-specific sigma_l; it states no deep-network theorem with
    per-layer degrees. So this applies the single-layer statements layer by layer, nothing more:

    * the polynomials entering hidden layer l are the d_l entries of W_l x (l = 1: linear forms,
      m_1 = 1) or of W_l sigma_(l-1)(...) (degree <= m_l = r_1 ... r_(l-1), the product of the
      previous layers' degrees; a cancellation can only lower it, hence the "<= m" theorems);
    * without biases and with sigma_l(0) = 0 (the setting of math.md §1 "MLP identifiability")
      they pass through the origin, so Thms 3.4/3.5 apply; Thms 2.3/2.5 are listed as well;
    * "independence" is the condition for the d_l outputs of layer l alone (k = d_l);
      "identifiability" is the k = 2 d_l of Corollary 4.1 (R(2D): two networks' neurons
      compared in pairs), applied per layer with k = 2 d_l instead of 2 max d_l.

    The verdict `ok` of a layer is Thm 3.5 with k = 2 d_l, m = m_l: r_l >= that bound (as the
    single-degree recursion always reported). A met bound is the hypothesis of a theorem about
    generic sigma_l of that degree, not a proof that a given network is identifiable.
    """
    hidden = widths[1:-1]
    if len(rs) != len(hidden):
        raise ValueError(f"expected {len(hidden)} degrees (one per hidden layer), got {len(rs)}")
    rows: list[dict] = []
    m = 1
    for ell, (d, r) in enumerate(zip(hidden, rs, strict=True), start=1):
        conds = {}
        for name, k in (("independence", d), ("identifiability", 2 * d)):
            conds[name] = {
                "k": k,
                "bounds": [(thm, case, val, r >= val) for thm, case, val in bounds_table(k, m)],
            }
        need = thm35(2 * d, m)
        rows.append({"layer": ell, "width": d, "r": r, "k": 2 * d, "m": m, "thm35": need,
                     "ok": r >= need, "conditions": conds})  # fmt: skip
        m *= r
    return rows
