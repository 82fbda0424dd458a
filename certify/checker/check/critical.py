"""Independent checker for ResNet critical-point certificates: the diagnostics (and at width
one the coefficients of F_theta) by the kernel twin, the decision and the claim rebuilt from
the recorded ranks, and when present the critical locus by `check_critical_locus` (whose
P(theta) = 0 must agree with the decision); `cross_check` then ties the recorded ranks to the
attached rank certificates of the same bundle."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from certify.checker.check.rank import decode_instance, network_of, network_problems
from certify.checker.claims.resnet import (
    coefficient_fields,
    critical_claim,
    diagnostics,
    locus_result,
)
from certify.checker.facts.networks import expected_dim
from certify.checker.ir import (
    MAX_EXPONENT,
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

    inst = decode_instance(cert)
    if not isinstance(inst, KR.ResNetInstance):
        raise Malformed("instance.network: kind critical needs a resnet")
    if network_problems(cert, inst):
        return network_problems(cert, inst)
    wit = exact_keys(cert["witness"], "witness", ("zero_rows", "dead_layers"), ("locus",))
    rows = [
        (as_int(r[0], "zero_rows"), as_int(r[1], "zero_rows"))
        for r in (as_list(x, "witness.zero_rows") for x in as_list(wit["zero_rows"], "zero_rows"))
        if len(r) == 2
    ]
    dead = [as_int(d, "witness.dead_layers") for d in as_list(wit["dead_layers"], "dead_layers")]
    if len(rows) != len(wit["zero_rows"]):
        raise Malformed("witness.zero_rows: expected [layer, neuron] pairs")
    if not KR.check_diagnostics(inst, rows, dead):
        return ["witness: rejected by check_diagnostics"]
    rn = network_of(inst)
    res = as_dict(cert.get("result"), "result")
    theta = [Fraction(a, b) for a, b in inst.theta]
    r_at, u_at, r_gen = (
        res.get("rank_lower_at_theta"),
        res.get("rank_upper_at_theta"),
        res.get("generic_rank_lower"),
    )
    bound = expected_dim(rn)  # type: ignore[arg-type]
    for v in (r_at, u_at, r_gen):
        if v is not None and not isinstance(v, int):
            raise Malformed("result: ranks are integers or null")
    if not isinstance(r_at, int):
        raise Malformed("result.rank_lower_at_theta: expected an integer")
    critical = r_gen is not None and u_at is not None and u_at < r_gen
    if not critical and r_at != bound:
        return [f"result: neither critical (u < r) nor rank at theta = {bound}"]
    expect = {
        "critical": critical,
        "params": rn.n_params,
        "rank_bound": bound,
        "rank_lower_at_theta": r_at,
        "rank_upper_at_theta": u_at,
        "generic_rank_lower": r_gen if critical else None,
        "at_certificate": res.get("at_certificate"),
        "generic_certificate": res.get("generic_certificate") if critical else None,
        "diagnostics": diagnostics(rn, theta),  # type: ignore[arg-type]
        **coefficient_fields(rn, theta),  # type: ignore[arg-type]
    }
    if "F_coefficients" in expect:
        cs = as_list(res.get("F_coefficients"), "result.F_coefficients")
        if not KR.check_scalar_coeffs(inst, [as_rat(c, "result.F_coefficients") for c in cs]):
            return ["result.F_coefficients: rejected by check_scalar_coeffs"]
    if "locus" in wit:
        loc, probs = check_locus(
            inst, rn, theta, exact_keys(wit["locus"], "witness.locus", LOCUS_KEYS)
        )
        if probs:
            return probs
        if (Fraction(loc["value_at_theta"]) == 0) != critical:
            return ["witness.locus: P(theta) = 0 disagrees with the rank decision"]
        expect["critical_locus"] = loc
    if not isinstance(expect["at_certificate"], str):
        raise Malformed("result.at_certificate: expected a certificate name")
    if critical != (expect["generic_certificate"] is not None):
        return ["result.generic_certificate: present exactly when theta is critical"]
    bad = mismatch(res, expect, "result", "result does not match the decision rebuilt from the "
                   "recorded ranks")  # fmt: skip
    if bad:
        return bad
    if not same(cert.get("claim"), critical_claim(rn, expect)):  # type: ignore[arg-type]
        return ["claim does not match the text rebuilt from the checked facts"]
    return []


MAX_LOCUS_POWER = 16  # k of lam * P^k (the generator tries k <= 4: resnet/locus.py MAX_POWER + 1)
LOCUS_KEYS = ("g", "polynomial", "power", "scale", "value", "cofactors", "bezout")


def _terms(x: Any, where: str, n: int) -> list[tuple[tuple[int, int], list[int]]]:
    out = []
    for i, t in enumerate(as_list(x, where)):
        t = as_list(t, f"{where}[{i}]")
        if len(t) != 2:
            raise Malformed(f"{where}[{i}]: expected [coefficient, exponents]")
        es = [as_int(e, f"{where}[{i}]") for e in as_list(t[1], f"{where}[{i}]")]
        if len(es) != n or any(e < 0 for e in es):
            raise Malformed(f"{where}[{i}]: expected {n} natural exponents")
        if any(e > MAX_EXPONENT for e in es):  # bounds the kernels' polynomial products
            raise Malformed(f"{where}[{i}]: exponent above {MAX_EXPONENT}")
        c = as_rat(t[0], f"{where}[{i}]")
        if c[0] == 0 or (out and not es < out[-1][1]):
            # canonical form, as the generator writes it: no zero term, exponents strictly
            # decreasing; a polynomial has one spelling, so no field changes without meaning
            raise Malformed(f"{where}[{i}]: expected nonzero terms, exponents strictly decreasing")
        out.append((c, es))
    return out


def check_locus(
    inst: KR.ResNetInstance, rn: Any, theta: list[Fraction], loc: dict[str, Any]
) -> tuple[dict[str, Any], list[str]]:
    """The critical-locus identities by the kernel twin `check_critical_locus`, and the result
    fields rebuilt from the checked data."""
    n = len(inst.theta)
    g, k, lam = (as_int(loc.get(f), f"witness.locus.{f}") for f in ("g", "power", "scale"))
    if not 1 <= k <= MAX_LOCUS_POWER:  # the kernels expand lam * P^k
        raise Malformed(f"witness.locus.power: expected 1 <= k <= {MAX_LOCUS_POWER}")
    p = _terms(loc.get("polynomial"), "witness.locus.polynomial", n)
    cofs = [
        _terms(c, "witness.locus.cofactors", n)
        for c in as_list(loc.get("cofactors"), "witness.locus.cofactors")
    ]
    bez = [
        _terms(c, "witness.locus.bezout", n)
        for c in as_list(loc.get("bezout"), "witness.locus.bezout")
    ]
    value = as_rat(loc.get("value"), "witness.locus.value")
    if not KR.check_critical_locus(inst, g, p, k, lam, cofs, bez, value):
        return {}, ["witness.locus: rejected by check_critical_locus"]
    return locus_result(rn, theta, p, g, k, lam, len(cofs)), []


def cross_check(c: dict[str, Any], by_name: dict[Any, dict[str, Any]]) -> list[str]:
    """A critical certificate's attached rank certificates (by_name: the bundle's
    certificates) must be present, about the same network (the first at the same point),
    and certify the ranks it records."""
    res = c.get("result") or {}
    probs = []
    at = by_name.get(res.get("at_certificate"))
    if at is None or at.get("kind") != "rank":
        probs.append(f"attached rank certificate {res.get('at_certificate')!r} missing")
    else:
        if at["instance"] != c["instance"]:
            probs.append("the certificate at theta is about another network or point")
        if at["result"].get("rank_lower") != res.get("rank_lower_at_theta") or at["result"].get(
            "rank_upper_at_point"
        ) != res.get("rank_upper_at_theta"):
            probs.append("ranks at theta differ from the attached rank certificate's")
    if res.get("generic_certificate") is not None:
        gen = by_name.get(res["generic_certificate"])
        if gen is None or gen.get("kind") != "rank":
            probs.append(f"attached rank certificate {res['generic_certificate']!r} missing")
        elif gen["instance"]["network"] != c["instance"]["network"]:
            probs.append("the generic certificate is about another network")
        elif gen["result"].get("rank_lower") != res.get("generic_rank_lower"):
            probs.append("generic rank differs from the attached rank certificate's")
    return probs
