"""Render ResNet orbit certificates for Coq and Lean; read every literal back."""

from __future__ import annotations

from typing import Any

from certify.checker.check.rank import decode_instance, network_of
from certify.checker.claims.resnet import orbit_theorem
from certify.checker.ir import as_rat
from certify.errors import RenderError
from certify.families.resnet.render_instance import check_instance_read_back, instance_literals
from certify.render import literals as L
from certify.render.env import prover_files, render

# The Coq file's last theorem (NNCert/meaning/resnet/OrbitMeaning.v), for a real orbit
ORBIT_THEOREM = "Proof. exact (resnet_orbit_meaning inst orbit orbit_check). Qed."


def module_name(cert_name: str) -> str:
    return L.module_ident("Orbit_", cert_name)


def _norm(v: Any) -> Any:
    return [_norm(x) for x in v] if isinstance(v, (list, tuple)) else v


def render_prover(cert: dict[str, Any], sha: str, prover: str) -> str:
    coq = prover == "coq"
    module = module_name(cert["name"])
    inst = decode_instance(cert)
    wit = cert["witness"]
    complex_ = wit["field"] == "complex"
    pr = L.coq if coq else L.lean

    def nat(v: int) -> str:
        return f"{int(v)}%nat" if coq else str(int(v))

    syms = [
        {"index": j, "layer": int(s["layer"]), "g": int(s["g"]), "t0": as_rat(s["t0"], "t0")}
        for j, s in enumerate(wit["layers"])
    ]
    gens = []
    for i, f in enumerate(wit["facts"]):
        if complex_:
            th = [[as_rat(c, "theta") for c in row] for row in f["theta"]]
        else:
            th = [as_rat(t, "theta") for t in f["theta"]]
        gens.append(
            {
                "index": i,
                "layer": int(f["layer"]),
                "neuron": int(f["neuron"]),
                "g": int(f.get("g", 2)),
                "t0": as_rat(f["t0"], "t0"),
                "theta": th,
            }
        )
    res = cert["result"]
    trivial = not wit["layers"] and not wit["facts"]
    theorem = orbit_theorem(network_of(inst), res)  # type: ignore[arg-type]
    listed = trivial or theorem
    orbit = [[as_rat(t, "orbit") for t in e] for e in res["orbit"]] if listed else None
    coeffs = (
        [as_rat(c, "F_coefficients") for c in res["F_coefficients"]]
        if res.get("F_coefficients") is not None
        else None
    )
    ctx = {
        "trivial": trivial,
        "theorem": theorem,
        "cplx": "true" if complex_ else "false",
        "orbit": pr(orbit) if listed else None,
        "coeffs": pr(coeffs) if coeffs is not None else None,
        "name": L.comment_safe(cert["name"]),
        "sha256": sha,
        "claim": L.comment_safe(cert["claim"]["text"]),
        "complex": complex_,
        **instance_literals(inst, coq),
        "syms": [
            {"index": s["index"], "layer": nat(s["layer"]), "g": nat(s["g"]), "t0": pr(s["t0"])}
            for s in syms
        ],
        "gens": [
            {
                "index": g["index"],
                "layer": nat(g["layer"]),
                "neuron": nat(g["neuron"]),
                "g": nat(g["g"]),
                "t0": pr(g["t0"]),
                "theta": pr(g["theta"]),
            }
            for g in gens
        ],
    }
    if coq:
        text = render("coq/resnet/orbit.v.j2", **ctx)
    else:
        text = render("lean/resnet/orbit.lean.j2", module=f"Certificates.{module}", **ctx)
    check_instance_read_back(text, inst, coq)
    for s in syms:
        j = s["index"]
        if _norm(L.read_field(text, f"sym_t0_{j}")) != _norm(s["t0"]):
            raise RenderError(f"literal sym_t0_{j} does not read back as rendered")
        fn = "check_layer_symmetry" if coq else "NNCert.checkLayerSymmetry"
        stmt = f"{fn} inst {nat(s['layer'])} {nat(s['g'])} sym_t0_{j} = true"
        if stmt not in text:
            raise RenderError(f"rendered file lacks the statement {stmt!r}")
    extra = []
    if trivial:
        fn = "check_trivial_orbit" if coq else "NNCert.checkTrivialOrbit"
        extra.append(("orbit", orbit, f"{fn} inst {ctx['cplx']} orbit = true"))
    if theorem:
        fn = "check_resnet_orbit" if coq else "NNCert.checkResnetOrbit"
        extra.append(("orbit", orbit, f"{fn} inst orbit = true"))
        if coq and ORBIT_THEOREM not in text:
            raise RenderError("rendered file lacks the theorem orbit_in_fiber's proof")
    if coeffs is not None:
        fn = "check_scalar_coeffs" if coq else "NNCert.checkScalarCoeffs"
        extra.append(("f_coeffs", coeffs, f"{fn} inst f_coeffs = true"))
    for field, value, stmt in extra:
        if _norm(L.read_field(text, field)) != _norm(value):
            raise RenderError(f"literal {field} does not read back as rendered")
        if stmt not in text:
            raise RenderError(f"rendered file lacks the statement {stmt!r}")
    for g in gens:
        i = g["index"]
        if _norm(L.read_field(text, f"t0_{i}")) != _norm(g["t0"]):
            raise RenderError(f"literal t0_{i} does not read back as rendered")
        if _norm(L.read_field(text, f"theta_{i}")) != _norm(g["theta"]):
            raise RenderError(f"literal theta_{i} does not read back as rendered")
        if complex_:
            args = f"{nat(g['layer'])} {nat(g['neuron'])} {nat(g['g'])}"
            fn = "check_root_generator" if coq else "NNCert.checkRootGenerator"
        else:
            args = f"{nat(g['layer'])} {nat(g['neuron'])}"
            fn = "check_orbit_generator" if coq else "NNCert.checkOrbitGenerator"
        stmt = f"{fn} inst {args} t0_{i} theta_{i} = true"
        if stmt not in text:
            raise RenderError(f"rendered file lacks the statement {stmt!r}")
    return text


def theorem_names(cert: dict[str, Any]) -> list[str]:
    wit = cert["witness"]
    syms = [f"sym_{j}" for j in range(len(wit["layers"]))]
    names = syms + [f"gen_{i}" for i in range(len(wit["facts"]))]
    if not wit["layers"] and not wit["facts"]:
        names.append("trivial_orbit")
    elif orbit_theorem(network_of(decode_instance(cert)), cert["result"]):  # type: ignore[arg-type]
        names += ["orbit_check", "orbit_in_fiber"]
    if cert["result"].get("F_coefficients") is not None:
        names.append("coefficients")
    return names


def render_files(cert: dict[str, Any], sha: str) -> tuple[str, list[str], str, str]:
    """(module name, theorem names, Coq text, Lean text): the registry's renderer entry."""
    return prover_files(module_name(cert["name"]), theorem_names(cert), cert, sha, render_prover)
