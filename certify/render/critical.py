"""Render critical-point certificates (ResNets) for Coq and Lean: the diagnostics, recomputed
by the kernel from theta (the ranks are in the attached rank certificates' files)."""

from __future__ import annotations

import re
from typing import Any

from certify.checker.rank import decode_instance
from certify.errors import RenderError
from certify.render import literals as L
from certify.render.env import render
from certify.render.rank import _comment_safe
from certify.spec import NAME_RE


def module_name(cert_name: str) -> str:
    if not isinstance(cert_name, str) or not NAME_RE.match(cert_name):
        raise RenderError(f"certificate name {cert_name!r} is not a valid name")
    return "Critical_" + re.sub(r"[^A-Za-z0-9]", "_", cert_name)


def _norm(v: Any) -> Any:
    return [_norm(x) for x in v] if isinstance(v, (list, tuple)) else v


def render_prover(cert: dict[str, Any], sha: str, prover: str) -> str:
    coq = prover == "coq"
    inst = decode_instance(cert)
    wit = cert["witness"]
    rows = [(int(a), int(b)) for a, b in wit["zero_rows"]]
    dead = [int(d) for d in wit["dead_layers"]]
    res = cert["result"]
    ctx = {
        "name": _comment_safe(cert["name"]),
        "sha256": sha,
        "claim": _comment_safe(cert["claim"]["text"]),
        "attached": _comment_safe(
            ", ".join(n for n in (res["at_certificate"], res["generic_certificate"]) if n)
        ),
        "width": f"{inst.width}%nat" if coq else L.lean(inst.width),
        "acts": (L.coq if coq else L.lean)(inst.acts),
        "outer": L.lean(inst.outer),
        "theta": (L.coq if coq else L.lean)(inst.theta),
        "rows": L.coq(rows, nat=True) if coq else L.lean(rows),
        "dead": L.coq(dead, nat=True) if coq else L.lean(dead),
    }
    if coq:
        text = render("coq/critical_resnet.v.j2", **ctx)
        fields = {"rn_width": inst.width, "rn_acts": inst.acts, "rn_outer": inst.outer,
                  "rn_theta": inst.theta}  # fmt: skip
        stmt = "check_diagnostics inst zero_rows dead_layers = true"
    else:
        module = f"Certificates.{module_name(cert['name'])}"
        text = render("lean/critical_resnet.lean.j2", module=module, **ctx)
        fields = {"width": inst.width, "acts": inst.acts, "outer": inst.outer,
                  "theta": inst.theta}  # fmt: skip
        stmt = "NNCert.checkDiagnostics inst zeroRows deadLayers = true"
    start = L.block_start(text, "Definition inst" if coq else "def inst")
    for fld, val in fields.items():
        if _norm(L.read_field(text, fld, start)) != _norm(val):
            raise RenderError(f"literal {fld} does not read back as rendered")
    names = ("zero_rows", "dead_layers") if coq else ("zeroRows", "deadLayers")
    for fld, val in zip(names, (rows, dead)):
        if _norm(L.read_field(text, fld)) != _norm(val):
            raise RenderError(f"literal {fld} does not read back as rendered")
    if stmt not in text:
        raise RenderError(f"rendered file lacks the statement {stmt!r}")
    return text


def theorem_names(cert: dict[str, Any]) -> list[str]:
    return ["diagnostics_check"]
