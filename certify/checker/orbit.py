"""Independent checker for ResNet orbit certificates: every generator fact by the kernel
twin (flip at t0 and same function on a unisolvent lattice), then the plan (which neurons
and t0), the orbit and the claim rebuilt from the instance."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from certify.checker import kernel_resnet as KR
from certify.checker.rank import (
    Malformed,
    _dict,
    _int,
    _list,
    _rat,
    _same,
    decode_instance,
    network_of,
)


def check(cert: dict[str, Any]) -> list[str]:
    from certify.orbits import orbit_claim, orbit_result
    from certify.witness.orbit import generators

    inst = decode_instance(cert)
    if not isinstance(inst, KR.ResNetInstance):
        raise Malformed("instance.network: kind orbit needs a resnet")
    facts = _list(_dict(cert["witness"], "witness")["facts"], "witness.facts")
    if not facts:
        return ["witness.facts: expected at least one generator"]
    for i, f in enumerate(facts):
        f = _dict(f, f"witness.facts[{i}]")
        layer, neuron = _int(f["layer"], "layer"), _int(f["neuron"], "neuron")
        if layer < 0 or neuron < 0:
            raise Malformed(f"witness.facts[{i}]: layer and neuron are naturals")
        t0 = _rat(f["t0"], f"witness.facts[{i}].t0")
        th2 = [_rat(t, f"witness.facts[{i}].theta") for t in _list(f["theta"], "theta")]
        if not KR.check_orbit_generator(inst, layer, neuron, t0, th2):
            return [f"witness.facts[{i}]: rejected by check_orbit_generator"]
    rn = network_of(inst)
    want = [(ell, i, t0) for ell, i, t0 in generators(rn)]  # type: ignore[arg-type]
    got = [(f["layer"], f["neuron"], Fraction(f["t0"])) for f in facts]
    problems = []
    if got != want:
        problems.append("witness.facts: not the generators of the real group of this network")
    theta = [Fraction(a, b) for a, b in inst.theta]
    expect = orbit_result(rn, theta, facts)  # type: ignore[arg-type]
    if not _same(cert.get("result"), expect):
        problems.append("result does not match the orbit rebuilt from the checked generators")
    elif not _same(cert.get("claim"), orbit_claim(rn, expect)):  # type: ignore[arg-type]
        problems.append("claim does not match the text rebuilt from the checked generators")
    return problems
