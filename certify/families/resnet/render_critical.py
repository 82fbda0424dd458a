"""Render critical-point certificates (ResNets) for Coq and Lean: the diagnostics, recomputed
by the kernel from theta (the ranks are in the attached rank certificates' files)."""

from __future__ import annotations

from typing import Any

from certify.checker.check.rank import decode_instance
from certify.checker.ir import as_rat
from certify.errors import RenderError
from certify.families.resnet.render_instance import (
    check_instance_read_back,
    check_read_back,
    instance_literals,
)
from certify.render import literals as L
from certify.render.env import prover_files, render


def module_name(cert_name: str) -> str:
    return L.module_ident("Critical_", cert_name)


def render_prover(cert: dict[str, Any], sha: str, prover: str) -> str:
    coq = prover == "coq"
    inst = decode_instance(cert)
    wit = cert["witness"]
    rows = [(int(a), int(b)) for a, b in wit["zero_rows"]]
    dead = [int(d) for d in wit["dead_layers"]]
    res = cert["result"]
    ctx = {
        "name": L.comment_safe(cert["name"]),
        "sha256": sha,
        "claim": L.comment_safe(cert["claim"]["text"]),
        "attached": L.comment_safe(
            ", ".join(n for n in (res["at_certificate"], res["generic_certificate"]) if n)
        ),
        **instance_literals(inst, coq),
        "rows": L.coq(rows, nat=True) if coq else L.lean(rows),
        "dead": L.coq(dead, nat=True) if coq else L.lean(dead),
    }
    coeffs = (
        [as_rat(c, "F_coefficients") for c in res["F_coefficients"]]
        if res.get("F_coefficients") is not None
        else None
    )
    ctx["coeffs"] = None if coeffs is None else (L.coq(coeffs) if coq else L.lean(coeffs))
    loc = wit.get("locus")
    ctx["locus"] = None if loc is None else locus_literals(loc, coq)
    if coq:
        text = render("coq/resnet/critical.v.j2", **ctx)
        stmt = "check_diagnostics inst zero_rows dead_layers = true"
    else:
        module = f"Certificates.{module_name(cert['name'])}"
        text = render("lean/resnet/critical.lean.j2", module=module, **ctx)
        stmt = "NNCert.checkDiagnostics inst zeroRows deadLayers = true"
    check_instance_read_back(text, inst, coq)
    names = ("zero_rows", "dead_layers") if coq else ("zeroRows", "deadLayers")
    check_read_back(text, dict(zip(names, (rows, dead))))
    if stmt not in text:
        raise RenderError(f"rendered file lacks the statement {stmt!r}")
    if coeffs is not None:
        check_read_back(text, {"f_coeffs": coeffs})
        fn = "check_scalar_coeffs" if coq else "NNCert.checkScalarCoeffs"
        if f"{fn} inst f_coeffs = true" not in text:
            raise RenderError("rendered file lacks the statement on the coefficients of F")
    if loc is not None:
        data = locus_data(loc)
        check_read_back(text, {"locus_g": data["g"], "locus_p": data["p"], "locus_k": data["k"]})
        check_read_back(text, {"locus_lam": data["lam"], "locus_value": data["value"]})
        check_read_back(text, {"locus_cofs": data["cofs"], "locus_bez": data["bez"]})
        fn = "check_critical_locus" if coq else "NNCert.checkCriticalLocus"
        args = "inst locus_g locus_p locus_k locus_lam locus_cofs locus_bez locus_value"
        if f"{fn} {args} = true" not in text:
            raise RenderError("rendered file lacks the statement on the critical locus")
    return text


def _terms(ts: list[Any]) -> list[tuple[tuple[int, int], list[int]]]:
    return [(as_rat(c, "locus"), [int(e) for e in es]) for c, es in ts]


def locus_data(loc: dict[str, Any]) -> dict[str, Any]:
    return {
        "g": int(loc["g"]),
        "p": _terms(loc["polynomial"]),
        "k": int(loc["power"]),
        "lam": int(loc["scale"]),
        "value": as_rat(loc["value"], "locus.value"),
        "cofs": [_terms(t) for t in loc["cofactors"]],
        "bez": [_terms(t) for t in loc["bezout"]],
    }


def _coq_terms(ts: list[tuple[tuple[int, int], list[int]]]) -> str:
    return "[" + "; ".join(f"({L.coq(c)}, {L.coq(e, nat=True)})" for c, e in ts) + "]"


def locus_literals(loc: dict[str, Any], coq: bool) -> dict[str, str]:
    """The literals of the critical-locus lemma (terms as ((num, den), exponents))."""
    d = locus_data(loc)
    if coq:
        return {
            "g": f"{d['g']}%nat",
            "p": _coq_terms(d["p"]),
            "k": f"{d['k']}%nat",
            "lam": L.coq(d["lam"]),
            "value": L.coq(d["value"]),
            "cofs": "[" + "; ".join(_coq_terms(t) for t in d["cofs"]) + "]",
            "bez": "[" + "; ".join(_coq_terms(t) for t in d["bez"]) + "]",
        }
    return {
        "g": str(d["g"]),
        "p": L.lean(d["p"]),
        "k": str(d["k"]),
        "lam": L.lean(d["lam"]),
        "value": L.lean(d["value"]),
        "cofs": L.lean(d["cofs"]),
        "bez": L.lean(d["bez"]),
    }


def theorem_names(cert: dict[str, Any]) -> list[str]:
    coeffs = cert["result"].get("F_coefficients") is not None
    locus = cert["witness"].get("locus") is not None
    return (
        ["diagnostics_check"]
        + (["coefficients"] if coeffs else [])
        + (["critical_locus"] if locus else [])
    )


def render_files(cert: dict[str, Any], sha: str) -> tuple[str, list[str], str, str]:
    """(module name, theorem names, Coq text, Lean text): the registry's renderer entry."""
    return prover_files(module_name(cert["name"]), theorem_names(cert), cert, sha, render_prover)
