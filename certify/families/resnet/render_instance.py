"""The ResNet instance block shared by the ResNet templates (orbit, critical, implicit): its
literals for Coq or Lean, and their read-back from the rendered text."""

from __future__ import annotations

from typing import Any

from certify.checker.kernel.resnet import ResNetInstance
from certify.errors import RenderError
from certify.render import literals as L


def _norm(v: Any) -> Any:
    return [_norm(x) for x in v] if isinstance(v, (list, tuple)) else v


def instance_literals(inst: ResNetInstance, coq: bool) -> dict[str, str]:
    """Template context for the `inst` definition."""
    pr = L.coq if coq else L.lean
    return {
        "width": f"{inst.width}%nat" if coq else L.lean(inst.width),
        "acts": pr(inst.acts),
        "outer": L.lean(inst.outer),
        "theta": pr(inst.theta),
    }


def check_instance_read_back(text: str, inst: ResNetInstance, coq: bool) -> None:
    """Every field of the rendered `inst` reads back as the decoded instance."""
    prefix = "rn_" if coq else ""
    start = L.block_start(text, "Definition inst" if coq else "def inst")
    for fld, val in {"width": inst.width, "acts": inst.acts, "outer": inst.outer,
                     "theta": inst.theta}.items():  # fmt: skip
        if _norm(L.read_field(text, prefix + fld, start)) != _norm(val):
            raise RenderError(f"literal {prefix + fld} does not read back as rendered")


def check_read_back(text: str, fields: dict[str, Any]) -> None:
    """Each named top-level literal reads back as the given value."""
    for fld, val in fields.items():
        if _norm(L.read_field(text, fld)) != _norm(val):
            raise RenderError(f"literal {fld} does not read back as rendered")
