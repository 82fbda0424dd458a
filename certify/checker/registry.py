"""The one table of certificate families and kinds (trusted, plain data).

Each line names, by "module:function" path, the generator that produces a kind's certificates
(untrusted, certify/witness), its renderer to Coq and Lean (certify/render: a function
`render_files(cert, sha) -> (module, theorems, coq_text, lean_text)`), and the checker that accepts
or rejects them (trusted, certify/checker). Paths are resolved only when used, so the checker
resolving a `check` path never imports a generator (tests/test_import_contract.py).

A new kind for an existing family is: its generator, checker and renderer in their places,
its templates, and one line below."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Kind:
    """One certificate kind of one family. `fields`: what a [[certificate]] table of the
    kind may set besides kind and name; `many`: the generator returns a list (the kind
    attaches rank certificates of its own)."""

    family: str
    kind: str
    check: str
    generate: str
    render: str
    fields: tuple[str, ...] = ()
    many: bool = False


RANK = ("prime", "upper", "max_grid", "attempts")
COMPIND = ("prime", "attempts", "variables", "polynomials", "activation", "generic_degree",
           "origin", "bias", "search", "max_degree", "power")  # fmt: skip

KINDS: tuple[Kind, ...] = (
    Kind("mlp", "rank", "certify.checker.rank:check", "certify.witness.rank:generate",
         "certify.render.rank:render_files",
         fields=RANK),
    Kind("mlp", "mlp-identifiable", "certify.checker.compind:check",
         "certify.witness.mlp_ident:generate", "certify.render.compind:render_files",
         fields=RANK, many=True),
    Kind("resnet", "rank", "certify.checker.rank:check", "certify.witness.rank:generate",
         "certify.render.rank:render_files",
         fields=RANK),
    Kind("resnet", "orbit", "certify.checker.orbit:check", "certify.witness.orbit:generate",
         "certify.render.orbit:render_files",
         fields=("field",)),
    Kind("resnet", "critical", "certify.checker.critical:check",
         "certify.witness.critical:generate", "certify.render.critical:render_files",
         fields=("prime", "max_grid", "attempts"), many=True),
    Kind("resnet", "implicit", "certify.checker.implicit:check",
         "certify.witness.implicit:generate", "certify.render.implicit:render_files",
         fields=("equation", "bias")),
    Kind("relu", "rank", "certify.checker.relu:check_rank", "certify.witness.relu:generate",
         "certify.render.relu:render_files",
         fields=(*RANK, "batch")),
    Kind("relu", "equiv", "certify.checker.relu:check_equiv", "certify.witness.relu:generate",
         "certify.render.relu:render_files",
         fields=(*RANK, "batch")),
    Kind("tanh", "affsym", "certify.checker.tanh:check_affsym",
         "certify.witness.tanh:generate_affsym", "certify.render.tanh:render_files",
         fields=(*RANK, "activation")),
    Kind("tanh", "orbit", "certify.checker.tanh:check_orbit",
         "certify.witness.tanh:generate_orbit", "certify.render.tanh:render_files",
         fields=("field",)),
    Kind("tanh", "equiv", "certify.checker.tanh:check_equiv",
         "certify.witness.tanh:generate_equiv", "certify.render.tanh:render_files",
         fields=(*RANK, "weights", "biases")),
    Kind("compind", "compind", "certify.checker.compind:check",
         "certify.witness.compind:generate", "certify.render.compind:render_files",
         fields=COMPIND),
    Kind("compind", "prop21", "certify.checker.compind:check",
         "certify.witness.compind:generate", "certify.render.compind:render_files",
         fields=COMPIND),
    Kind("compind", "newman-slater", "certify.checker.compind:check",
         "certify.witness.compind:generate", "certify.render.compind:render_files",
         fields=COMPIND),
)  # fmt: skip

BY_KEY: dict[tuple[str, str], Kind] = {(k.family, k.kind): k for k in KINDS}
FAMILIES: tuple[str, ...] = tuple(dict.fromkeys(k.family for k in KINDS))


def lookup(family: Any, kind: Any) -> Kind | None:
    """The registry line of (family, kind), or None."""
    if not isinstance(family, str) or not isinstance(kind, str):
        return None
    return BY_KEY.get((family, kind))


def request_fields(kind: str) -> set[str]:
    """The fields a [[certificate]] table of this kind may set, over every family that has
    the kind (the family is checked once the network is known)."""
    return {"kind", "name"}.union(*(k.fields for k in KINDS if k.kind == kind))


def kinds_of(family: str) -> list[str]:
    return [k.kind for k in KINDS if k.family == family]


def resolve(path: str) -> Callable[..., Any]:
    """The function a "module:function" path names (imported on first use)."""
    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module), name)
