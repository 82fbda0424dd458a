"""Orbit certificates for polynomial ResNets (generator): per certified layer the identity
sigma(t0 + zeta (y - t0)) = sigma(y) for zeta in the layer's group (real: zeta = -1; complex:
mu_g), and per neuron of those layers the acted-on parameters at theta. When every layer's group
is trivial the witness is empty and the result lists the orbit {theta}, which the kernels check
(check_trivial_orbit)."""

from __future__ import annotations

from typing import Any

from certify import __version__
from certify.checker.claims.resnet import orbit_claim, orbit_result
from certify.checker.facts.resnet_orbit import flip, root_action, symmetries
from certify.checker.ir import ResNet, envelope, network_json, rat_str
from certify.errors import CertifyError
from certify.request import CertRequest, Spec


def generate(spec: Spec, req: CertRequest) -> dict[str, Any]:
    rn = spec.network
    if not isinstance(rn, ResNet):
        raise CertifyError(f"{req.name}: kind orbit needs a network of family resnet")
    theta = list(spec.theta)
    syms = symmetries(rn, req.options["field"])
    facts = []
    for s in syms:
        for i in range(rn.width):
            fact: dict[str, Any] = {"layer": s["layer"], "neuron": i, "t0": rat_str(s["t0"])}
            if req.options["field"] == "real":
                fact["theta"] = [rat_str(x) for x in flip(rn, theta, s["layer"], i, s["t0"])]
            else:
                fact["g"] = s["g"]
                fact["theta"] = root_action(rn, theta, s["layer"], i, s["g"], s["t0"])
            facts.append(fact)
    layers = [{"layer": s["layer"], "g": s["g"], "t0": rat_str(s["t0"])} for s in syms]
    result = orbit_result(rn, theta, req.options["field"])
    return envelope(
        "resnet",
        "orbit",
        req.name,
        {"network": network_json(rn), "theta": [rat_str(t) for t in theta]},
        {"field": req.options["field"], "layers": layers, "facts": facts},
        result,
        orbit_claim(rn, result),
        generator={"tool": "nn-certify", "version": __version__},
    )
