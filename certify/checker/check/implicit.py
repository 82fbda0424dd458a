"""Independent checker for implicit-equation certificates: the identity and the coefficients of
F_theta at the given theta by the kernel twin, then the result and the claim rebuilt from the
checked data."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from certify.checker.check.rank import decode_instance, network_of, network_problems
from certify.checker.ir import (
    Malformed,
    as_dict,
    as_int,
    as_list,
    as_rat,
    exact_keys,
    mismatch,
    same,
)
from certify.checker.kernel import resnet as KR


def check(cert: dict[str, Any]) -> list[str]:
    from certify.checker.claims.resnet import (
        MAX_EQUATION_DEGREE,
        canonical_terms,
        coefficient_fields,
        implicit_claim,
        implicit_result,
    )

    inst = decode_instance(cert)
    if not isinstance(inst, KR.ResNetInstance):
        raise Malformed("instance.network: kind implicit needs a resnet")
    if network_problems(cert, inst):
        return network_problems(cert, inst)
    wit = exact_keys(cert["witness"], "witness", ("free", "degree", "equation"))
    free = as_list(wit["free"], "witness.free")
    if not all(isinstance(f, bool) for f in free):
        raise Malformed("witness.free: expected booleans")
    degree = as_int(wit["degree"], "witness.degree")
    if degree < 0:
        raise Malformed("witness.degree: expected a natural number")
    terms = []
    for i, t in enumerate(as_list(wit["equation"], "witness.equation")):
        t = as_list(t, f"witness.equation[{i}]")
        if len(t) != 2:
            raise Malformed(f"witness.equation[{i}]: expected [coefficient, exponents]")
        es = [as_int(e, f"witness.equation[{i}]") for e in as_list(t[1], "exponents")]
        if any(e < 0 for e in es) or sum(es) > MAX_EQUATION_DEGREE:
            raise Malformed(
                f"witness.equation[{i}]: exponents are naturals of total degree <= "
                f"{MAX_EQUATION_DEGREE}"
            )
        terms.append((as_rat(t[0], f"witness.equation[{i}]"), es))
    if terms != canonical_terms(terms):
        return ["witness.equation: not in canonical form (distinct exponents, nonzero, sorted)"]
    if not KR.check_implicit(inst, free, degree, terms):
        return ["witness: rejected by check_implicit"]
    rn = network_of(inst)
    if degree != rn.degree_bound():
        return [f"witness.degree: expected the degree bound {rn.degree_bound()} of F"]
    theta = [Fraction(a, b) for a, b in inst.theta]
    expect = {
        **implicit_result(rn, terms, free),  # type: ignore[arg-type]
        **coefficient_fields(rn, theta),  # type: ignore[arg-type]
    }
    res = as_dict(cert.get("result"), "result")
    cs = as_list(res.get("F_coefficients"), "result.F_coefficients")
    if not KR.check_scalar_coeffs(inst, [as_rat(c, "result.F_coefficients") for c in cs]):
        return ["result.F_coefficients: rejected by check_scalar_coeffs"]
    bad = mismatch(res, expect, "result", "result does not match the equation rebuilt from "
                   "the checked data")  # fmt: skip
    if bad:
        return bad
    if not same(cert.get("claim"), implicit_claim(rn, expect)):  # type: ignore[arg-type]
        return ["claim does not match the text rebuilt from the checked data"]
    return []
