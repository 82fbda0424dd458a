"""Spec parsing for the composition-independence kinds (compind, prop21, newman-slater): the
variables, the polynomials, the activation sigma or a generic degree. Every error is a SpecError
naming file, field and expectation."""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from certify.algebra.poly import parse_univariate
from certify.checker.ir import VAR_RE
from certify.errors import PolynomialSyntaxError, SpecError
from certify.spec_values import bool_field, int_field, poly_text_cap, required

MAX_POLYNOMIALS = 64  # polynomials of a compind / newman-slater certificate
MAX_VARIABLES = 16  # their variables


@dataclass(frozen=True)
class CompindSpec:
    """Inputs of a composition-independence request (kinds compind, prop21, newman-slater).

    polys: one tuple of (exponents, coefficient) terms per polynomial, nonzero, exponents
    strictly decreasing; sigma: the activation's coefficients (constant term first) or None
    for "generic of degree d"."""

    variables: tuple[str, ...]
    polys: tuple[tuple[tuple[tuple[int, ...], Fraction], ...], ...]
    polys_text: tuple[str, ...]
    sigma: tuple[Fraction, ...] | None
    generic_degree: int | None
    origin: bool
    bias: bool
    search: bool
    max_degree: int
    power: int | None


def sigma_text(text: Any, src: str, fld: str) -> tuple[Fraction, ...]:
    """An activation polynomial in z (or t)."""
    if not isinstance(text, str):
        raise SpecError(src, fld, 'a polynomial in z as a string, e.g. "z^2 + z"', text)
    poly_text_cap(text, src, fld)
    var = "t" if re.search(r"\bt\b|t\^|\*t|t\*", text) and "z" not in text else "z"
    try:
        cs = parse_univariate(text, var)
    except PolynomialSyntaxError as e:
        raise SpecError(src, fld, f"a polynomial in z ({e})", text) from None
    if len(cs) < 2:
        raise SpecError(src, fld, "an activation of degree >= 1 (not a constant)", text)
    return tuple(cs)


def compind_spec(c: dict[str, Any], kind: str, src: str, where: str) -> CompindSpec:
    from certify.algebra.poly import parse_polynomial
    from certify.checker.ir import format_polynomial

    origin = bool_field(c, "origin", False, src, where)
    bias = bool_field(c, "bias", False, src, where)
    search = bool_field(c, "search", False, src, where)
    max_degree = int_field(c.get("max_degree", 12), src, f"{where}.max_degree", 1, 64)
    sigma = None
    generic = None
    power = None
    if kind == "prop21":
        for k in ("polynomials", "generic_degree", "search", "power", "bias"):
            if k in c:
                raise SpecError(src, f"{where}.{k}", "not a field of kind prop21")
        sigma = sigma_text(
            required(c, "activation", src, f"{where}.", "an activation"), src, f"{where}.activation"
        )
        return CompindSpec((), (), (), sigma, None, origin, False, False, max_degree, None)
    variables = c.get("variables", ["x"])
    if (
        not isinstance(variables, list)
        or not variables
        or not all(isinstance(v, str) and VAR_RE.match(v) for v in variables)
        or len(set(variables)) != len(variables)
    ):
        raise SpecError(src, f"{where}.variables", "a list of distinct names (not z)", variables)
    if len(variables) > MAX_VARIABLES:
        raise SpecError(
            src, f"{where}.variables", f"at most {MAX_VARIABLES} variables", len(variables)
        )
    vs = tuple(variables)
    texts = required(c, "polynomials", src, f"{where}.", "a list of polynomials")
    if not isinstance(texts, list) or len(texts) < 2:
        raise SpecError(
            src, f"{where}.polynomials", "a list of at least two polynomials (k >= 2)", texts
        )
    if len(texts) > MAX_POLYNOMIALS:
        raise SpecError(
            src, f"{where}.polynomials", f"at most {MAX_POLYNOMIALS} polynomials", len(texts)
        )
    polys = []
    for i, t in enumerate(texts):
        fld = f"{where}.polynomials[{i}]"
        if not isinstance(t, str):
            raise SpecError(src, fld, "a polynomial string", t)
        poly_text_cap(t, src, fld)
        try:
            poly = parse_polynomial(t, vs)
        except PolynomialSyntaxError as e:
            raise SpecError(src, fld, f"a polynomial in {', '.join(vs)} ({e})", t) from None
        if all(sum(e) == 0 for e in poly):
            # sigma(c) is a constant function: the family with the constant 1 in it is what
            # bias = true expresses (1, sigma(p_1), ..., sigma(p_k); math.md §1).
            raise SpecError(
                src,
                fld,
                "a nonconstant polynomial (sigma of a constant is a constant function; to put "
                "the constant 1 in the family, 1, sigma(p_1), ..., sigma(p_k), drop this "
                "polynomial and set bias = true)",
                t,
            )
        if origin and any(sum(e) == 0 for e in poly):
            raise SpecError(src, fld, "p(0) = 0 (origin = true)", t)
        # the one spelling the checker accepts: nonzero terms, exponents strictly decreasing
        polys.append(tuple(sorted(((e, c) for e, c in poly.items() if c != 0), reverse=True)))
    for i in range(len(polys)):
        for j in range(i):
            if polys[i] == polys[j]:
                raise SpecError(
                    src,
                    f"{where}.polynomials[{i}]",
                    f"polynomials distinct from polynomials[{j}]",
                    texts[i],
                )
    if kind == "newman-slater":
        for k in ("activation", "generic_degree", "search"):
            if k in c:
                raise SpecError(src, f"{where}.{k}", "not a field of kind newman-slater")
        power = int_field(
            required(c, "power", src, f"{where}.", "the power r"), src, f"{where}.power", 1, 200
        )
        sigma = tuple([Fraction(0)] * power + [Fraction(1)])
    elif "activation" in c:
        if "generic_degree" in c or search:
            raise SpecError(
                src, f"{where}.activation", "either activation, or generic_degree, or search = true"
            )
        sigma = sigma_text(c["activation"], src, f"{where}.activation")
        if origin and sigma[0] != 0:
            raise SpecError(
                src, f"{where}.activation", "sigma(0) = 0 (origin = true)", c["activation"]
            )
    elif "generic_degree" in c:
        if search:
            raise SpecError(src, f"{where}.generic_degree", "not together with search = true")
        generic = int_field(c["generic_degree"], src, f"{where}.generic_degree", 1, 64)
    elif not search:
        raise SpecError(
            src, f"{where}.activation", "an activation, a generic_degree, or search = true"
        )
    text = tuple(format_polynomial(dict(p), vs) for p in polys)
    return CompindSpec(
        vs, tuple(polys), text, sigma, generic, origin, bias, search, max_degree, power
    )


def compind_options(c: dict[str, Any], kind: str, src: str, where: str) -> dict[str, Any]:
    """The composition-independence kinds: their CompindSpec."""
    return {"compind": compind_spec(c, kind, src, where)}
