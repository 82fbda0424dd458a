"""Render equivalence certificates of polynomial MLPs (family mlp, kind equiv) for Coq and
Lean, and read every literal back from the rendered text before a prover runs (design.md §5).
"""

from __future__ import annotations

from typing import Any

from certify.checker.check.mlp_equiv import decode
from certify.checker.ir import as_ints
from certify.errors import RenderError
from certify.render import literals as L
from certify.render.env import prover_files, render

INST_FIELDS = ("widths", "acts", "bias", "theta")  # the same names in Coq and Lean
# The Coq file's last theorem (NNCert/meaning/EquivMeaning.v), for 'same' and for 'differ'
MEANING = {
    False: "Theorem same_on_lattice : forall x,\n"
    "  In x (lattice (first_width (widths inst)) (degree_bound (acts inst))) ->\n"
    "  mlp_fun inst (theta inst) x = mlp_fun inst other x.\n"
    "Proof. exact (same_meaning inst other same_check). Qed.",
    True: "Theorem differ_at_x : mlp_fun inst (theta inst) x <> mlp_fun inst other x.\n"
    "Proof. exact (differ_meaning inst other x differ_check). Qed.",
}


def module_name(cert_name: str) -> str:
    """A Lean/Coq identifier for a certificate name: MlpEquiv_<name with [^A-Za-z0-9] -> _>."""
    return L.module_ident("MlpEquiv_", cert_name)


def theorem_names(cert: dict[str, Any]) -> list[str]:
    if cert["witness"]["kind"] == "differ":
        return ["differ_check", "differ_at_x"]
    return ["same_check", "same_on_lattice"]


def kernel_data(cert: dict[str, Any]) -> dict[str, Any]:
    """The literal data the kernel sees, decoded exactly as the checker decodes it."""
    inst, other = decode(cert)
    differ = cert["witness"]["kind"] == "differ"
    x = as_ints(cert["witness"]["x"], "witness.x") if differ else None
    return {"widths": inst.widths, "acts": inst.acts, "bias": inst.bias, "theta": inst.theta,
            "other": other, "x": x}  # fmt: skip


def _norm(v: Any) -> Any:
    return [_norm(x) for x in v] if isinstance(v, (list, tuple)) else v


def _check(text: str, field: str, value: Any, start: int) -> None:
    if _norm(L.read_field(text, field, start)) != _norm(value):
        raise RenderError(f"literal {field} does not read back as rendered")


def render_prover(cert: dict[str, Any], sha: str, prover: str) -> str:
    coq = prover == "coq"
    module = module_name(cert["name"])
    data = kernel_data(cert)
    if coq:
        printed = {k: (None if v is None else L.coq(v, nat=k == "widths")) for k, v in data.items()}
    else:
        printed = {k: (None if v is None else L.lean(v)) for k, v in data.items()}
    text = render(
        f"{'coq' if coq else 'lean'}/mlp/equiv.{'v' if coq else 'lean'}.j2",
        name=L.comment_safe(cert["name"]),
        sha256=sha,
        claim=L.comment_safe(cert["claim"]["text"]),
        module=f"Certificates.{module}",
        **printed,
    )
    word = "Definition" if coq else "def"
    start = L.block_start(text, f"{word} inst")
    for key in INST_FIELDS:
        _check(text, key, data[key], start)
    _check(text, "other", data["other"], L.block_start(text, f"{word} other"))
    if data["x"] is not None:
        _check(text, "x", data["x"], L.block_start(text, f"{word} x"))
        stmt = "check_mlp_differ inst other x = true" if coq else "checkMlpDiffer inst other x"
    else:
        if f"{word} x" in text:
            raise RenderError("an input x rendered although the witness is 'same'")
        stmt = "check_mlp_same inst other = true" if coq else "checkMlpSame inst other"
    if (stmt if coq else f"NNCert.{stmt} = true") not in text:
        raise RenderError(f"rendered file lacks the statement {stmt!r}")
    if coq and MEANING[data["x"] is not None] not in text:
        raise RenderError("rendered file lacks the theorem that states what the check means")
    return text


def render_files(cert: dict[str, Any], sha: str) -> tuple[str, list[str], str, str]:
    """(module name, theorem names, Coq text, Lean text): the registry's renderer entry."""
    return prover_files(module_name(cert["name"]), theorem_names(cert), cert, sha, render_prover)
