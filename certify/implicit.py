"""Implicit equations of scalar polynomial ResNets (math.md §2, Figure 1): the data of a
certificate that P(c_0, ..., c_D) = 0 on the image of theta -> (c_0, ..., c_D), where
F_theta(x) = sum_k c_k x^k. Shared by the generator and the checker."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from certify.algebra.poly import parse_polynomial
from certify.checker.ir import format_polynomial
from certify.spec import ResNet, coefficient_names, rat_str

Term = tuple[tuple[int, int], list[int]]


def parameter_names(rn: ResNet) -> list[str]:
    """w1, b1 (, v1), w2, b2, ...: the parameters of a width-1 ResNet in layout order."""
    out = []
    for ell in range(1, rn.depth + 1):
        out += [f"w{ell}", f"b{ell}"] + ([f"v{ell}"] if rn.outer else [])
    return out


def free_mask(rn: ResNet, bias: bool) -> list[bool]:
    """Which parameters are variables (biases are fixed at 0 when bias is False)."""
    return [bias or not name.startswith("b") for name in parameter_names(rn)]


MAX_EQUATION_DEGREE = 32  # bounds the kernel's work (exponents are unary in Coq)


def canonical_terms(terms: list[Term]) -> list[Term]:
    """Like terms combined, zero terms dropped, lowest form, sorted (highest exponents first):
    the only form a certificate may carry, so that the claim text is the checked polynomial."""
    acc: dict[tuple[int, ...], Fraction] = {}
    for (a, b), e in terms:
        acc[tuple(e)] = acc.get(tuple(e), Fraction(0)) + Fraction(a, b)
    return [
        ((c.numerator, c.denominator), list(e))
        for e, c in sorted(acc.items(), key=lambda kv: tuple(-x for x in kv[0]))
        if c != 0
    ]


def equation_terms(text: str, degree: int) -> list[Term]:
    """The equation as kernel terms (coefficient (num, den), exponents of c_0..c_degree),
    in a canonical order."""
    poly = parse_polynomial(text, coefficient_names(degree))
    return canonical_terms([((c.numerator, c.denominator), list(e)) for e, c in poly.items()])


def equation_text(terms: list[Term], degree: int) -> str:
    poly = {tuple(e): Fraction(a, b) for (a, b), e in terms}
    return format_polynomial(poly, coefficient_names(degree))


def implicit_result(rn: ResNet, terms: list[Term], free: list[bool]) -> dict[str, Any]:
    D = rn.degree_bound()
    names = parameter_names(rn)
    return {
        "equation": equation_text(terms, D),
        "degree": D,
        "variables": [n for n, f in zip(names, free) if f],
        "fixed_at_zero": [n for n, f in zip(names, free) if not f],
    }


def implicit_claim(rn: ResNet, result: dict[str, Any]) -> dict[str, Any]:
    layer = "x + v sigma(w x + b)" if rn.outer else "x + sigma(w x + b)"
    acts = "; ".join(
        "sigma = " + " + ".join(f"{rat_str(c)} t^{k}" for k, c in enumerate(a) if c != 0)
        for a in rn.activations
    )
    fixed = result["fixed_at_zero"]
    text = (
        f"Kernel-checked polynomial identity: for the scalar ResNet of depth {rn.depth} with "
        f"layers {layer} ({acts}), parameters {', '.join(result['variables'])}"
        + (f" and {', '.join(fixed)} fixed at 0" if fixed else "")
        + f", the coefficients of F(x) = c0 + c1 x + ... + c{result['degree']} "
        f"x^{result['degree']} satisfy {result['equation']} = 0 identically in the parameters, "
        f"so the image of the parametrisation lies in this hypersurface."
    )
    return {"text": text, "cites": ["math.md §2 (Figure 1)"]}
