"""Render implicit-equation certificates (scalar ResNets) for Coq and Lean; read literals back."""

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
    return L.module_ident("Implicit_", cert_name)


def _terms(cert: dict[str, Any]) -> list[tuple[tuple[int, int], list[int]]]:
    return [(as_rat(c, "equation"), [int(e) for e in es]) for c, es in cert["witness"]["equation"]]


def render_prover(cert: dict[str, Any], sha: str, prover: str) -> str:
    coq = prover == "coq"
    inst = decode_instance(cert)
    wit = cert["witness"]
    free = [bool(f) for f in wit["free"]]
    degree = int(wit["degree"])
    terms = _terms(cert)
    if coq:
        eqn = "[" + "; ".join(f"({L.coq(c)}, {L.coq(e, nat=True)})" for c, e in terms) + "]"
    else:
        eqn = L.lean(terms)
    ctx = {
        "name": L.comment_safe(cert["name"]),
        "sha256": sha,
        "claim": L.comment_safe(cert["claim"]["text"]),
        **instance_literals(inst, coq),
        "free": L.coq(free) if coq else L.lean(free),
        "degree": f"{degree}%nat" if coq else str(degree),
        "eqn": eqn,
    }
    coeffs = [as_rat(c, "F_coefficients") for c in cert["result"]["F_coefficients"]]
    ctx["coeffs"] = L.coq(coeffs) if coq else L.lean(coeffs)
    if coq:
        text = render("coq/resnet/implicit.v.j2", **ctx)
        stmt = "check_implicit inst free degree eqn = true"
    else:
        module = f"Certificates.{module_name(cert['name'])}"
        text = render("lean/resnet/implicit.lean.j2", module=module, **ctx)
        stmt = "NNCert.checkImplicit inst free degree eqn = true"
    check_instance_read_back(text, inst, coq)
    check_read_back(text, {"free": free, "degree": degree, "eqn": terms, "f_coeffs": coeffs})
    fn = "check_scalar_coeffs" if coq else "NNCert.checkScalarCoeffs"
    for st in (stmt, f"{fn} inst f_coeffs = true"):
        if st not in text:
            raise RenderError(f"rendered file lacks the statement {st!r}")
    return text


def theorem_names(cert: dict[str, Any]) -> list[str]:
    return ["implicit_check", "coefficients"]


def render_files(cert: dict[str, Any], sha: str) -> tuple[str, list[str], str, str]:
    """(module name, theorem names, Coq text, Lean text): the registry's renderer entry."""
    return prover_files(module_name(cert["name"]), theorem_names(cert), cert, sha, render_prover)
