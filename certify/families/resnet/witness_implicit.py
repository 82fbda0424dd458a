"""Implicit-equation certificates for scalar polynomial ResNets (generator)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from certify import __version__
from certify.algebra.poly import parse_polynomial
from certify.checker.check.rank import network_of
from certify.checker.claims.resnet import (
    Term,
    canonical_terms,
    coefficient_fields,
    coefficient_names,
    free_mask,
    implicit_claim,
    implicit_result,
    instance_of,
    parameter_names,
)
from certify.checker.ir import ResNet, envelope, format_polynomial, network_json, rat_str
from certify.checker.kernel import resnet as KR
from certify.checker.kernel.compind import normalize
from certify.errors import CertifyError
from certify.request import CertRequest, Spec


def generate(spec: Spec, req: CertRequest) -> dict[str, Any]:
    rn = spec.network
    if not isinstance(rn, ResNet) or rn.width != 1:
        raise CertifyError(f"{req.name}: kind implicit needs a resnet of width 1")
    D = rn.degree_bound()
    terms = equation_terms(req.options["equation"], D)
    if not terms:
        raise CertifyError(f"{req.name}: the equation is the zero polynomial (no hypersurface)")
    free = free_mask(rn, req.options["bias"])
    inst = instance_of(rn, list(spec.theta))
    if not KR.check_implicit(inst, free, D, terms):
        residual = implicit_residual(inst, free, D, terms)
        raise CertifyError(
            f"{req.name}: the equation does not vanish on the parametrisation: substituting the "
            f"coefficients leaves {residual} (in the parameters and x)"
        )
    result = {**implicit_result(rn, terms, free), **coefficient_fields(rn, list(spec.theta))}
    return envelope(
        "resnet",
        "implicit",
        req.name,
        {"network": network_json(rn), "theta": [rat_str(t) for t in spec.theta]},
        {
            "free": free,
            "degree": D,
            "equation": [[rat_str(Fraction(*c)), e] for c, e in terms],
        },
        result,
        implicit_claim(rn, result),
        generator={"tool": "nn-certify", "version": __version__},
    )


def implicit_residual(inst: KR.ResNetInstance, free: list[bool], D: int, terms: list) -> str:
    nv = len(free) + 1
    ar = KR.arith_terms(nv)
    cs = KR.coeffs_x(KR.scalar_map_terms(inst, free), len(free), D)
    value = KR.poly_eval(
        ar, [[KR.const_term(c, nv)] for c in KR.term_coeffs(terms)], KR.term_exps(terms), cs
    )
    poly = {tuple(e): Fraction(*c) for c, e in normalize(value) if c[0] != 0}
    names = tuple(parameter_names(network_of(inst))) + ("x",)  # type: ignore[arg-type]
    return format_polynomial(poly, names) if poly else "0"


def equation_terms(text: str, degree: int) -> list[Term]:
    """The equation as kernel terms (coefficient (num, den), exponents of c_0..c_degree),
    in a canonical order."""
    poly = parse_polynomial(text, coefficient_names(degree))
    return canonical_terms([((c.numerator, c.denominator), list(e)) for e, c in poly.items()])
