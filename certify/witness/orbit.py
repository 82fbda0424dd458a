"""Orbit certificates for polynomial ResNets (generator): one fact per generator of the real
root-of-unity group (a sign flip at t0 of one neuron), with the flipped parameters."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from certify import __version__
from certify.certificate import SCHEMA
from certify.errors import CertifyError
from certify.orbits import flip, layer_symmetry, orbit_claim, orbit_result
from certify.spec import CertRequest, ResNet, Spec, network_json, rat_str


def generators(rn: ResNet) -> list[tuple[int, int, Fraction]]:
    """(layer, neuron, t0) for every neuron of every layer whose real group is {+1, -1}."""
    out = []
    for ell, a in enumerate(rn.activations):
        s = layer_symmetry(list(a))
        if s["t0"] is not None and s["g"] % 2 == 0:
            out.extend((ell, i, s["t0"]) for i in range(rn.width))
    return out


def generate(spec: Spec, req: CertRequest) -> dict[str, Any]:
    rn = spec.network
    if not isinstance(rn, ResNet):
        raise CertifyError(f"{req.name}: kind orbit needs a network of family resnet")
    theta = list(spec.theta)
    gens = generators(rn)
    if not gens:
        raise CertifyError(
            f"{req.name}: the real root-of-unity group is trivial for these activations (no "
            f"rational critical point t0 with sigma(s + t0) even): nothing to certify"
        )
    facts = [
        {
            "layer": ell,
            "neuron": i,
            "t0": rat_str(t0),
            "theta": [rat_str(x) for x in flip(rn, theta, ell, i, t0)],
        }
        for ell, i, t0 in gens
    ]
    result = orbit_result(rn, theta, facts)
    return {
        "schema": SCHEMA,
        "kind": "orbit",
        "name": req.name,
        "claim": orbit_claim(rn, result),
        "instance": {"network": network_json(rn), "theta": [rat_str(t) for t in theta]},
        "witness": {"facts": facts},
        "result": result,
        "generator": {"tool": "nn-certify", "version": __version__},
    }
