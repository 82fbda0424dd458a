"""The Coq theorem of each affine-symmetry element (issue 24): which elements of an affsym
certificate Coq proves over the reals, with which statement and proof (a fact of the trusted
base, shared by the renderer, which writes the theorems, and the claim, which says how many
there are, so that the two cannot disagree).

An element (a, b, g, d) of the group of rho states `affine_symmetry RHO A B G D`
(coq/NNCert/meaning/tanh/AffsymMeaning.v: forall x : R, rho (a x + b) = g rho(x) + d), RHO the
activation
written over Coq's reals: the standard library's tanh, atan, sin, and the library's logistic,
softsign, relu, xtanh (defined there from exp, Rabs, Rmax); a polynomial written out with its
rational coefficients. A family (l, 0, g(l), 0) for l > 0 or l != 0 states its condition as a
hypothesis. erf has no definition in Coq's standard library: its elements are stated for every
odd function rho (oddness of erf is cited). The proof is one lemma of AffsymMeaning.v, or
`field` for a polynomial. Elements outside this table get no theorem (the claim says which)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any

from certify.checker.facts.tanh_expr import ActivationError, X, activation
from certify.checker.facts.tanh_sympy import sp

# sympy expression of a named activation -> its Coq function over R (AffsymMeaning.v, Reals)
_NAMED = {
    sp.tanh(X): "tanh",
    sp.atan(X): "atan",
    sp.sin(X): "sin",
    1 / (1 + sp.exp(-X)): "logistic",
    X / (1 + sp.Abs(X)): "softsign",
    sp.Max(0, X): "relu",
    X * sp.tanh(X): "xtanh",
}
ODD_HYPOTHESIS = "erf"  # stated for every odd function: erf is not defined in Coq's library
# (Coq function, element (a, b, g, d) as texts of _value) -> the lemma of AffsymMeaning.v
_LEMMAS = {
    ("tanh", ("-1", "0", "-1", "0")): "affsym_tanh",
    ("atan", ("-1", "0", "-1", "0")): "affsym_atan",
    ("logistic", ("-1", "0", "-1", "1")): "affsym_logistic",
    ("softsign", ("-1", "0", "-1", "0")): "affsym_softsign",
    ("xtanh", ("-1", "0", "1", "0")): "affsym_xtanh",
    ("sin", ("1", "2*pi", "1", "0")): "affsym_sin_period",
    ("sin", ("-1", "0", "-1", "0")): "affsym_sin_odd",
    ("sin", ("1", "pi", "-1", "0")): "affsym_sin_shift",
    ("sin", ("-1", "pi", "1", "0")): "affsym_sin_reflect",
}
_RAT = re.compile(r"^\(?(-?\d+)(?:/(\d+))?\)?$")
_PI = re.compile(r"^\(?(?:(-?\d+)\*)?pi\)?$")
_PARAM = re.compile(r"^\(?l(?:\^(\d+))?\)?$")
FAMILY_CONDITIONS = {"l > 0": "0 < l", "l != 0": "l <> 0"}


@dataclass(frozen=True)
class ElementTheorem:
    """One element's theorem: its Coq statement and proof script."""

    statement: str
    proof: str


def _value(text: str, param: bool) -> tuple[str, str] | None:
    """(key, Coq term) of an element entry: a rational, k*pi, or (in a family) l or l^k;
    None for anything else. Integers print `IZR n`, other rationals `(IZR n / IZR d)`, the
    forms AffsymMeaning.v's lemmas are stated in."""
    t = text.replace(" ", "")
    if m := _RAT.match(t):
        q = Fraction(int(m.group(1)), int(m.group(2) or 1))
        key = str(q)
        return key, _rat_term(q)
    if m := _PI.match(t):
        k = int(m.group(1) or 1)
        if k == 1:
            return "pi", "PI"
        return f"{k}*pi", f"(IZR ({k}) * PI)" if k < 0 else f"(IZR {k} * PI)"
    if param and (m := _PARAM.match(t)):
        k = int(m.group(1) or 1)
        return (f"l^{k}", f"(l ^ {k})") if k > 1 else ("l", "l")
    return None


def _rat_term(q: Fraction) -> str:
    """A rational as a real: `(IZR n)`, `(IZR (-n))`, `(IZR n / IZR d)`."""
    num = f"({q.numerator})" if q < 0 else f"{q.numerator}"
    return f"(IZR {num})" if q.denominator == 1 else f"(IZR {num} / IZR {q.denominator})"


@cache
def coq_function(text: str) -> tuple[str, str] | None:
    """(kind, Coq term of rho) for an activation: ("named", f), ("odd", "rho") for erf,
    ("poly", "(fun x : R => ...)") for a polynomial with rational coefficients; else None.
    A named activation is recognised by its expression as the activation parser builds it
    (sympy's canonical form, compared structurally: an equal function written otherwise, e.g.
    2*tanh(x)/2, is not recognised and its elements stay sympy's)."""
    try:
        act = activation(text)
    except ActivationError:
        return None
    e = act.expr
    for expr, name in _NAMED.items():
        if e == expr:
            return "named", name
    if e == sp.erf(X):
        return "odd", ODD_HYPOTHESIS
    if e.is_polynomial(X):
        coeffs = sp.Poly(e, X).all_coeffs()[::-1]
        if all(c.is_Rational for c in coeffs):
            terms = [
                f"{_rat_term(Fraction(int(c.p), int(c.q)))} * x ^ {k}"
                for k, c in enumerate(coeffs)
                if c != 0
            ]
            return "poly", f"(fun x : R => {' + '.join(terms)})"
    return None


def element_theorem(text: str, row: dict[str, Any]) -> ElementTheorem | None:
    """The theorem of one group element (a witness row: alpha, beta, gamma, delta, family)
    of the activation `text`, or None when this table has no proof of it."""
    fn = coq_function(text)
    if fn is None or row.get("proof") == "unproved":
        return None
    kind, rho = fn
    family = row.get("family")
    if family is not None and family not in FAMILY_CONDITIONS:
        return None
    vals = [_value(str(row[k]), family is not None) for k in ("alpha", "beta", "gamma", "delta")]
    if any(v is None for v in vals):
        return None
    keys = tuple(v[0] for v in vals)  # type: ignore[index]
    terms = " ".join(v[1] for v in vals)  # type: ignore[index]
    if family is not None:
        cond = FAMILY_CONDITIONS[family]
        statement = f"forall l : R, {cond} -> affine_symmetry {rho} {terms}"
        if kind == "poly":
            return ElementTheorem(statement, "intros l Hl x. cbv beta. field.")
        if (rho, keys, family) == ("relu", ("l", "0", "l", "0"), "l > 0"):
            return ElementTheorem(statement, "exact affsym_relu.")
        return None
    if keys == ("1", "0", "1", "0"):
        if kind == "odd":
            return ElementTheorem(
                f"forall rho : R -> R, affine_symmetry rho {terms}", "exact affsym_identity."
            )
        return ElementTheorem(f"affine_symmetry {rho} {terms}", f"exact (affsym_identity {rho}).")
    if kind == "poly":
        if any("pi" in k for k in keys):  # field cannot prove an identity in pi
            return None
        return ElementTheorem(f"affine_symmetry {rho} {terms}", "intros x. cbv beta. field.")
    if kind == "odd":
        if keys != ("-1", "0", "-1", "0"):
            return None
        return ElementTheorem(
            f"forall rho : R -> R, (forall x : R, rho (- x) = - rho x) -> "
            f"affine_symmetry rho {terms}",
            "exact affsym_odd.",
        )
    lemma = _LEMMAS.get((rho, keys))
    if lemma is None:
        return None
    return ElementTheorem(f"affine_symmetry {rho} {terms}", f"exact {lemma}.")


def element_theorems(group: dict[str, Any]) -> list[ElementTheorem | None]:
    """element_theorem of every row of the group, in order."""
    return [element_theorem(group["activation"], r) for r in group["elements"]]
