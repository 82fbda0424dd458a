"""Critical-point certificates for polynomial ResNets (generator), math.md §2.

theta is critical when the rank of d(theta -> F_theta) at theta is below the generic rank.
Not critical: a rank certificate at theta whose lower bound reaches min(#params, dim of the
output space), an upper bound on the rank at every point. Critical: a rank certificate at
theta with an exact integer kernel basis (upper bound u) and a rank certificate at a seeded
random point with lower bound r > u. Both are attached as ordinary rank certificates (checked
by the kernels like any other); this certificate records the decision and the diagnostic
conditions (zero rows of W, dead layers), which the kernels recompute from theta, and at
width one the coefficients of F_theta, which the kernels recompute too. With `locus = true`
(width one) it also carries the critical locus P = 0 with cofactors and a Bezout identity
(resnet/locus.py), which the kernels check against the minors they recompute."""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from typing import Any

from certify import __version__
from certify.checker.claims.resnet import (
    coefficient_fields,
    critical_claim,
    diagnostics,
    locus_result,
)
from certify.checker.ir import ResNet, envelope, network_json, rat_str
from certify.errors import CertifyError
from certify.families.polynomial import mlp_model as M
from certify.families.polynomial import witness_rank as rank_witness
from certify.families.resnet.locus import MAX_MINORS, MAX_POWER, locus_witness
from certify.request import CertRequest, Spec
from certify.spec_values import random_theta

GENERIC_SEED = 7919  # the generic point's seed offset (any fixed value: results are pinned)


def critical_result(
    rn: ResNet, at: dict[str, Any], generic: dict[str, Any] | None, diag: dict[str, Any]
) -> dict[str, Any]:
    bound = M.expected_dim(rn)  # type: ignore[arg-type]
    r_at, u_at = at["result"]["rank_lower"], at["result"]["rank_upper_at_point"]
    r_gen = None if generic is None else generic["result"]["rank_lower"]
    critical = r_gen is not None and u_at is not None and u_at < r_gen
    return {
        "critical": critical,
        "params": rn.n_params,
        "rank_bound": bound,
        "rank_lower_at_theta": r_at,
        "rank_upper_at_theta": u_at,
        "generic_rank_lower": r_gen,
        "at_certificate": at["name"],
        "generic_certificate": None if generic is None else generic["name"],
        "diagnostics": diag,
    }


def generate(spec: Spec, req: CertRequest) -> list[dict[str, Any]]:
    rn = spec.network
    if not isinstance(rn, ResNet):
        raise CertifyError(f"{req.name}: kind critical needs a network of family resnet")
    theta = list(spec.theta)
    at_spec = dataclasses.replace(spec, seed=None)  # never reseed: the question is about theta
    at_req = CertRequest("rank", f"{req.name}-at", req.prime, True, req.max_grid, req.attempts)
    at = rank_witness.generate(at_spec, at_req)
    bound = M.expected_dim(rn)  # type: ignore[arg-type]
    generic = None
    if at["result"]["rank_lower"] < bound:
        u = at["result"]["rank_upper_at_point"]
        if u is None:
            raise CertifyError(
                f"{req.name}: the rank at theta is >= {at['result']['rank_lower']} but no exact "
                f"kernel basis was found (raise max_grid), so criticality cannot be decided"
            )
        seed = (spec.seed or 0) + GENERIC_SEED
        gen_spec = dataclasses.replace(
            spec, theta=random_theta(rn, seed, spec.param_range), seed=seed
        )
        gen_req = CertRequest(
            "rank", f"{req.name}-generic", req.prime, False, req.max_grid, req.attempts
        )
        generic = rank_witness.generate(gen_spec, gen_req)
        if generic["result"]["rank_lower"] <= u:
            raise CertifyError(
                f"{req.name}: the rank at theta is {u} and no random point certified more "
                f"({generic['result']['rank_lower']}): theta may be a generic point of a "
                f"defective parametrisation; criticality not decided"
            )
    diag = diagnostics(rn, theta)
    result = {**critical_result(rn, at, generic, diag), **coefficient_fields(rn, theta)}
    witness: dict[str, Any] = {"zero_rows": diag["zero_rows"], "dead_layers": diag["dead_layers"]}
    if req.options.get("locus"):
        witness["locus"], result["critical_locus"] = locus_fields(req.name, rn, theta, result)
    cert = envelope(
        "resnet",
        "critical",
        req.name,
        {"network": network_json(rn), "theta": [rat_str(t) for t in theta]},
        witness,
        result,
        critical_claim(rn, result),
        generator={"tool": "nn-certify", "version": __version__},
    )
    return [cert, at] + ([generic] if generic is not None else [])


def _terms_json(ts: list[Any]) -> list[list[Any]]:
    return [[rat_str(Fraction(*c)), list(e)] for c, e in ts]


def locus_fields(
    name: str, rn: ResNet, theta: list[Fraction], result: dict[str, Any]
) -> tuple[dict[str, Any], dict[str, Any]]:
    """(witness.locus, result.critical_locus): P, its cofactors and Bezout coefficients
    (resnet/locus.py); P(theta) = 0 must agree with the rank decision."""
    if rn.width != 1:
        raise CertifyError(f"{name}: locus = true needs a scalar ResNet (width 1)")
    wl = locus_witness(rn)
    if wl is None:
        raise CertifyError(
            f"{name}: no critical-locus certificate within the caps (at most {MAX_MINORS} "
            f"minors, P^k for k <= {MAX_POWER + 1}); drop locus = true"
        )
    loc = locus_result(
        rn, theta, wl["polynomial"], wl["g"], wl["power"], wl["scale"], len(wl["cofactors"])
    )
    if (Fraction(loc["value_at_theta"]) == 0) != result["critical"]:
        raise CertifyError(f"{name}: P(theta) = 0 disagrees with the rank decision")
    witness = {
        "g": wl["g"],
        "polynomial": _terms_json(wl["polynomial"]),
        "power": wl["power"],
        "scale": wl["scale"],
        "value": loc["value_at_theta"],
        "cofactors": [_terms_json(t) for t in wl["cofactors"]],
        "bezout": [_terms_json(t) for t in wl["bezout"]],
    }
    return witness, loc
