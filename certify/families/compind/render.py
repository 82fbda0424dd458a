"""Render composition-independence certificates for Coq and Lean; read every literal back."""

from __future__ import annotations

import re
from typing import Any

from certify.checker.check.compind import decode_polys, decode_sigma
from certify.checker.ir import as_dict, as_ints, as_list, as_matrix, as_nats, as_rat
from certify.errors import RenderError
from certify.render import literals as L
from certify.render.env import prover_files, render

PREFIX = {
    "compind": "Compind_",
    "prop21": "Prop21_",
    "newman-slater": "NewmanSlater_",
    "mlp-identifiable": "MlpIdent_",
}


def module_name(kind: str, cert_name: str) -> str:
    return L.module_ident(PREFIX[kind], cert_name)


def kernel_facts(cert: dict[str, Any]) -> tuple[int, list, bool, list[dict[str, Any]]]:
    """(nvars, polys, bias, facts) as the kernel sees them (Python values)."""
    inst = cert["instance"]
    has_polys = cert["kind"] not in ("prop21", "mlp-identifiable")
    nvars, polys = decode_polys(inst) if has_polys else (0, [])
    facts = []
    for i, f in enumerate(cert["witness"]["facts"]):
        d: dict[str, Any] = {"index": i, "kind": f["kind"]}
        if "sigma" in f:
            d["sigma"] = decode_sigma(f["sigma"], "sigma")
        if f["kind"] == "dependent_all":
            d["sigma"] = []
        if f["kind"] == "independent":
            d.update(
                k=f["k"],
                p=f["prime"],
                polys_inv=as_matrix(f["polys_inv"], "polys_inv"),
                sigma_inv=as_ints(f["sigma_inv"], "sigma_inv"),
                points=as_matrix(f["points"], "points"),
                inv=as_matrix(f["inverse"], "inverse"),
            )
        if f["kind"] in ("dependent", "dependent_all"):
            d["lam"] = as_ints(f["lambda"], "lambda")
        if f["kind"] == "dependent_all":
            d.update(lo=f["lo"], degree=f["degree"])
        if f["kind"] == "prop21":
            d.update(d2=as_rat(f["delta2"], "d2"), d3=as_rat(f["delta3"], "d3"))
        if f["kind"] == "mlp":
            d.update(widths=f["widths"], theta=as_ints(f["theta"], "theta"), rmin=f["rmin"])
        facts.append(d)
    bias = bool(inst["network"]["bias"]) if "network" in inst else bool(inst["bias"])
    return nvars, polys, bias, facts


def mlp_instance(cert: dict[str, Any]) -> dict[str, Any] | None:
    """The instance of an mlp-identifiable certificate as the kernel sees it (widths, one
    activation per hidden layer, bias flag, integer weights; inst_sigma the first activation),
    None for the other kinds. The rendered facts check these terms and tie their witness copy
    to them, so a witness about another network fails in the prover too."""
    if cert["kind"] != "mlp-identifiable":
        return None
    net = as_dict(as_dict(cert["instance"], "instance")["network"], "instance.network")
    acts = [
        decode_sigma(a, f"instance.network.activations[{j}]")
        for j, a in enumerate(as_list(net["activations"], "instance.network.activations"))
    ]
    theta = [as_rat(t, "instance.theta") for t in as_list(cert["instance"]["theta"], "theta")]
    if not acts or any(d != 1 for _, d in theta) or not isinstance(net["bias"], bool):
        raise RenderError("instance: expected an activation, integer weights and a bias flag")
    return {
        "widths": as_nats(net["widths"], "instance.network.widths"),
        "acts": acts,
        "sigma": acts[0],
        "bias": net["bias"],
        "theta": [n for n, _ in theta],
    }


def _printed_instance(mi: dict[str, Any], coq: bool) -> dict[str, Any]:
    if not coq:
        return {k: L.lean(v) for k, v in mi.items()}
    return {k: L.coq(v, nat=k == "widths") for k, v in mi.items()}


NAT_KEYS = {"k", "lo", "degree", "rmin"}
FAMILY_FACTS = ("independent", "dependent", "dependent_all")  # the facts about sigma(p_i)


def _coq_polys(polys: list) -> str:
    def term(t: Any) -> str:
        (num, den), exps = t
        return f"(({L.coq(num)}, {L.coq(den)}), {L.coq(exps, nat=True)})"

    return "[" + "; ".join("[" + "; ".join(term(t) for t in q) + "]" for q in polys) + "]"


def _printed_facts(facts: list[dict[str, Any]], coq: bool) -> list[dict[str, Any]]:
    out = []
    for f in facts:
        d: dict[str, Any] = {"index": f["index"], "kind": f["kind"]}
        for k, v in f.items():
            if k in ("index", "kind"):
                continue
            if not coq:
                d[k] = L.lean(v)
            elif k == "inv":
                d[k] = L.coq_uint63(v)
            elif k in NAT_KEYS:
                d[k] = f"{v}%nat"
            elif k == "widths":
                d[k] = L.coq(v, nat=True)
            else:
                d[k] = L.coq(v)
        out.append(d)
    return out


STATEMENTS_COQ = {
    "independent": "check_independent inst_{i} wit_{i} {k}%nat = true",
    "dependent": "check_dependent inst_{i} lam_{i} = true",
    "dependent_all": "check_dependent_all inst_{i} lam_{i} {lo}%nat {degree}%nat = true",
    "prop21": "check_prop21 sigma_{i} d2_{i} d3_{i} = true",
    "prop33": "check_prop33 sigma_{i} = true",
    "mlp": "check_mlp_hypotheses widths_{i} sigma_{i} theta_{i} {rmin}%nat = true",
}
# mlp-identifiable: the facts check the instance's terms and tie their witness copy to them
TIED_COQ = {
    "prop33": "check_prop33 inst_sigma = true /\\ sigma_{i} = inst_sigma",
    "mlp": "check_mlp_hypotheses inst_widths inst_sigma inst_theta {rmin}%nat = true /\\\n"
    "  inst_bias = false /\\ inst_acts = repeat inst_sigma (length inst_acts) /\\\n"
    "  widths_{i} = inst_widths /\\ sigma_{i} = inst_sigma /\\ theta_{i} = inst_theta",
}
STATEMENTS_LEAN = {
    "independent": "NNCert.checkIndependent inst_{i} wit_{i} {k} = true",
    "dependent": "NNCert.checkDependent inst_{i} lam_{i} = true",
    "dependent_all": "NNCert.checkDependentAll inst_{i} lam_{i} {lo} {degree} = true",
    "prop21": "NNCert.checkProp21 sigma_{i} d2_{i} d3_{i} = true",
    "prop33": "NNCert.checkProp33 sigma_{i} = true",
    "mlp": "NNCert.checkMlpHypotheses widths_{i} sigma_{i} theta_{i} {rmin} = true",
}
TIED_LEAN = {
    "prop33": "NNCert.checkProp33 inst_sigma = true ∧ sigma_{i} = inst_sigma",
    "mlp": "NNCert.checkMlpHypotheses inst_widths inst_sigma inst_theta {rmin} = true ∧ "
    "inst_bias = false ∧ inst_acts = List.replicate inst_acts.length inst_sigma ∧ "
    "widths_{i} = inst_widths ∧ sigma_{i} = inst_sigma ∧ theta_{i} = inst_theta",
}
WIT_COQ = {"p": "iw_p", "polys_inv": "iw_polys_inv", "sigma_inv": "iw_sigma_inv",
           "points": "iw_points"}  # fmt: skip
WIT_LEAN = {"p": "p", "polys_inv": "polysInv", "sigma_inv": "sigmaInv", "points": "points",
            "inv": "inv"}  # fmt: skip


def _norm(v: Any) -> Any:
    if isinstance(v, (list, tuple)):
        return [_norm(x) for x in v]
    return v


def _expect(text: str, field: str, value: Any, start: int = 0) -> None:
    got = L.read_field(text, field, start)
    if _norm(got) != _norm(value):
        raise RenderError(f"literal {field} does not read back as rendered")


def render_prover(cert: dict[str, Any], sha: str, prover: str) -> str:
    kind = cert["kind"]
    module = module_name(kind, cert["name"])
    nvars, polys, bias, facts = kernel_facts(cert)
    mi = mlp_instance(cert)
    coq = prover == "coq"
    # nvars, polys and bias are rendered only when a fact is about the family: a prop21,
    # prop33 or mlp fact reads none of them (a prop21 instance pins them to empty values)
    family = any(f["kind"] in FAMILY_FACTS for f in facts)
    ctx = {
        "name": L.comment_safe(cert["name"]),
        "sha256": sha,
        "claim": L.comment_safe(cert["claim"]["text"]),
        "nvars": f"{nvars}%nat" if coq else L.lean(nvars),
        "polys": _coq_polys(polys)
        if coq
        else L.lean([[((a, b), e) for (a, b), e in q] for q in polys]),
        "bias": L.lean(bias),
        "family": family,
        "facts": _printed_facts(facts, coq),
        "mlp_instance": None if mi is None else _printed_instance(mi, coq),
    }
    if coq:
        text = render("coq/compind/compind.v.j2", **ctx)
    else:
        text = render("lean/compind/compind.lean.j2", module=f"Certificates.{module}", **ctx)
    # read back
    if family:
        _expect(text, "polys", [[((a, b), e) for (a, b), e in q] for q in polys])
        _expect(text, "bias", bias)
    elif re.search(r"^(Definition|def) (nvars|polys|bias) ", text, re.M):
        raise RenderError("family data rendered without a fact about the family")
    statements = STATEMENTS_COQ if coq else STATEMENTS_LEAN
    if mi is not None:
        statements = {**statements, **(TIED_COQ if coq else TIED_LEAN)}
        for key, value in mi.items():
            _expect(text, f"inst_{key}", value)
    for f in facts:
        i = f["index"]
        _expect(text, f"sigma_{i}", f["sigma"])
        if "lam" in f:
            _expect(text, f"lam_{i}", f["lam"])
        if f["kind"] == "prop21":
            _expect(text, f"d2_{i}", f["d2"])
            _expect(text, f"d3_{i}", f["d3"])
        if f["kind"] == "mlp":
            _expect(text, f"widths_{i}", f["widths"])
            _expect(text, f"theta_{i}", f["theta"])
        if f["kind"] == "independent":
            start = L.block_start(text, ("Definition wit_" if coq else "def wit_") + str(i))
            for key, fld in (WIT_COQ if coq else WIT_LEAN).items():
                _expect(text, fld, f[key], start)
            if coq:
                _expect(text, f"inv_data_{i}", f["inv"])
        stmt = statements[f["kind"]].format(i=i, **{k: f.get(k) for k in NAT_KEYS})
        if stmt not in text:
            raise RenderError(f"rendered file lacks the statement {stmt!r}")
    return text


def theorem_names(cert: dict[str, Any]) -> list[str]:
    return [f"fact_{i}" for i in range(len(cert["witness"]["facts"]))]


def render_files(cert: dict[str, Any], sha: str) -> tuple[str, list[str], str, str]:
    """(module name, theorem names, Coq text, Lean text): the registry's renderer entry."""
    return prover_files(
        module_name(cert["kind"], cert["name"]), theorem_names(cert), cert, sha, render_prover
    )
