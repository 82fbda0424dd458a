"""Independent checker for ResNet orbit certificates: every layer identity and every
generator fact by the kernel twin, then the plan (which layers, t0 and g; which neurons), the
orbit and the claim rebuilt from the instance. An empty witness is the trivial group: the kernel
twin checks every layer's group trivial and the listed orbit [theta]. At width one the
coefficients of F_theta are checked by the kernel twin too."""

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


def coefficient_problems(inst: KR.ResNetInstance, res: dict[str, Any]) -> list[str]:
    """At width one the result's F_coefficients must pass check_scalar_coeffs (they are also
    compared with the result rebuilt from the instance); at other widths there are none."""
    cs = res.get("F_coefficients")
    if inst.width != 1:
        return [] if cs is None else ["result.F_coefficients: only for width one"]
    cs = [as_rat(c, "result.F_coefficients") for c in as_list(cs, "result.F_coefficients")]
    if not KR.check_scalar_coeffs(inst, cs):
        return ["result.F_coefficients: rejected by check_scalar_coeffs"]
    return []


def trivial_problems(
    cert: dict[str, Any], inst: KR.ResNetInstance, field: str, res: dict[str, Any]
) -> list[str]:
    """An empty witness: every layer's group must be trivial (the checker's own plan and the
    kernel's check_trivial_orbit) and the listed orbit exactly [theta]."""
    from certify.checker.claims.resnet import orbit_claim, orbit_result
    from certify.checker.facts.resnet_orbit import symmetries

    rn = network_of(inst)
    if symmetries(rn, field):  # type: ignore[arg-type]
        return ["witness.layers: empty, but this network has symmetric layers"]
    orbit = as_list(res.get("orbit"), "result.orbit")
    elems = [[as_rat(t, "result.orbit") for t in as_list(e, "result.orbit")] for e in orbit]
    if not KR.check_trivial_orbit(inst, field == "complex", elems):
        return ["result.orbit: rejected by check_trivial_orbit"]
    theta = [Fraction(a, b) for a, b in inst.theta]
    expect = orbit_result(rn, theta, field)  # type: ignore[arg-type]
    bad = mismatch(res, expect, "result", "result does not match the orbit of the trivial group")
    if bad:
        return bad
    if not same(cert.get("claim"), orbit_claim(rn, expect)):  # type: ignore[arg-type]
        return ["claim does not match the text rebuilt from the checked facts"]
    return []


def check(cert: dict[str, Any]) -> list[str]:
    from certify.checker.claims.resnet import orbit_claim, orbit_result, orbit_theorem
    from certify.checker.facts.resnet_orbit import symmetries

    inst = decode_instance(cert)
    if not isinstance(inst, KR.ResNetInstance):
        raise Malformed("instance.network: kind orbit needs a resnet")
    wit = exact_keys(cert["witness"], "witness", ("field", "layers", "facts"))
    field = wit.get("field")
    if field not in ("real", "complex"):
        raise Malformed("witness.field: expected 'real' or 'complex'")
    layers = as_list(wit["layers"], "witness.layers")
    facts = as_list(wit["facts"], "witness.facts")
    if network_problems(cert, inst):
        return network_problems(cert, inst)
    res = as_dict(cert.get("result"), "result")
    problems = coefficient_problems(inst, res)
    if problems:
        return problems
    if not layers and not facts:
        return trivial_problems(cert, inst, field, res)
    if not layers or not facts:
        return ["witness: expected at least one layer identity and one generator"]
    checked: dict[int, tuple[int, Fraction]] = {}
    for j, s in enumerate(layers):
        s = exact_keys(s, f"witness.layers[{j}]", ("layer", "g", "t0"))
        layer, g = as_int(s["layer"], "layer"), as_int(s["g"], "g")
        t0 = as_rat(s["t0"], f"witness.layers[{j}].t0")
        if layer < 0 or not 2 <= g <= max((len(a) for a in inst.acts), default=0):
            raise Malformed(f"witness.layers[{j}]: layer >= 0 and 2 <= g <= deg sigma")
        if field == "real" and g != 2:
            return [f"witness.layers[{j}]: the real group needs g = 2 (zeta = -1)"]
        if not KR.check_layer_symmetry(inst, layer, g, t0):
            return [f"witness.layers[{j}]: rejected by check_layer_symmetry"]
        checked[layer] = (g, Fraction(t0[0], t0[1]))
    for i, f in enumerate(facts):
        keys = ("layer", "neuron", "t0", "theta") + (("g",) if field == "complex" else ())
        f = exact_keys(f, f"witness.facts[{i}]", keys)
        layer, neuron = as_int(f["layer"], "layer"), as_int(f["neuron"], "neuron")
        if layer < 0 or neuron < 0:
            raise Malformed(f"witness.facts[{i}]: layer and neuron are naturals")
        t0 = as_rat(f["t0"], f"witness.facts[{i}].t0")
        rows = as_list(f["theta"], f"witness.facts[{i}].theta")
        if field == "real":
            th2 = [as_rat(t, f"witness.facts[{i}].theta") for t in rows]
            ok = KR.check_orbit_generator(inst, layer, neuron, t0, th2)
            g = 2
        else:
            g = as_int(f["g"], "g")
            if not 2 <= g <= max((len(a) for a in inst.acts), default=0):
                raise Malformed(f"witness.facts[{i}].g: expected 2 <= g <= deg sigma")
            cyc = [[as_rat(c, "theta") for c in as_list(r, "theta")] for r in rows]
            ok = KR.check_root_generator(inst, layer, neuron, g, t0, cyc)
        if not ok:
            return [f"witness.facts[{i}]: rejected by the kernel generator check"]
        if checked.get(layer) != (g, Fraction(t0[0], t0[1])):
            return [f"witness.facts[{i}]: no checked layer identity with this g and t0"]
    rn = network_of(inst)
    want = symmetries(rn, field)  # type: ignore[arg-type]
    plan = [(s["layer"], s["g"], s["t0"]) for s in want]
    got = [(s["layer"], s["g"], Fraction(s["t0"])) for s in layers]
    problems = []
    if got != plan:
        problems.append("witness.layers: not the symmetric layers of this network")
    gens = [(s["layer"], i) for s in want for i in range(rn.width)]
    if [(f["layer"], f["neuron"]) for f in facts] != gens:
        problems.append("witness.facts: not one generator per neuron of the symmetric layers")
    theta = [Fraction(a, b) for a, b in inst.theta]
    expect = orbit_result(rn, theta, field)  # type: ignore[arg-type]
    what = "result does not match the orbit rebuilt from the checked generators"
    bad = mismatch(cert.get("result"), expect, "result", what)
    problems += bad
    if not bad and orbit_theorem(rn, expect):  # type: ignore[arg-type]
        # the data of the Coq file's theorem orbit_in_fiber, checked as coqc will check it
        rows = as_list(res.get("orbit"), "result.orbit")
        orbit = [[as_rat(t, "result.orbit") for t in as_list(e, "result.orbit")] for e in rows]
        if not KR.check_resnet_orbit(inst, orbit):
            problems.append("result.orbit: rejected by check_resnet_orbit")
    if not bad and not same(cert.get("claim"), orbit_claim(rn, expect)):  # type: ignore[arg-type]
        problems.append("claim does not match the text rebuilt from the checked generators")
    return problems
