"""The one table of certificate families and kinds (trusted, plain data).

Each line names, by "module:function" path, the checker that accepts or rejects a kind's
certificates (trusted, under certify/checker), the generator that produces them (untrusted,
under certify/families) and its renderer to Coq and Lean (a module of certify/families with
`render_files(cert, sha) -> (module, theorems, coq_text, lean_text)`), and the fields its
[[certificate]] table may set. Paths are resolved only when used, so the checker
resolving a `check` path never imports a generator (tests/test_import_contract.py).

A new kind for an existing family is: its generator, checker and renderer in their places,
its templates, and one line below. The hubs that describe certificates (summary, referee,
results table, figures) read the line's `summary`, `network`, `cross_check` and `dimensions`
and the family's `certify/families/<family>/describe.py`, never a kind's name."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Kind:
    """One certificate kind of one family. `fields`: what a [[certificate]] table of the
    kind may set besides kind and name; `options`: the parser of the kind's own fields into
    CertRequest.options; `many`: the generator returns a list (the kind
    attaches rank certificates of its own)."""

    family: str
    kind: str
    check: str  # "module:function" under certify.checker
    generate: str  # "module:function" under certify.families
    render: str  # module under certify.families with render_files(cert, sha)
    fields: tuple[str, ...] = ()
    many: bool = False
    options: str = ""  # "module:function" under certify.families parsing the kind's fields
    summary: str = ""  # "module:function" under certify.checker: result -> one line
    network: bool = True  # instance.network is a network table (not an activation/polynomials)
    cross_check: str = ""  # "module:function" under certify.checker: (cert, by_name) -> problems
    dimensions: bool = False  # the result has the dimension columns (figures/dimensions.png)
    jacobian: bool = False  # the generator computes a Jacobian rank (its memory is capped)
    default: bool = False  # what a spec with the family's [network] and no [[certificate]] asks
    lean_shape: str = ""  # "module:function" under certify.families: the Lean cost model's sizes
    figures: str = ""  # "module:function" under certify.families: cert -> {file: draw(path)}
    coq_reals: bool = False  # its Coq theorems are over the reals (their axioms are audited)
    # The example of certify/examples that shows the kind: "stem" (the file's one request, or
    # its default) or "stem:name" (its request of that name). `certify demo --quick` runs it
    # and the mutation campaign (benchmarks/mutation_campaign.py) mutates its certificate.
    example: str = ""

    @property
    def example_request(self) -> tuple[str, str | None]:
        """(example file name, the name of its request to keep, or None for the file's only
        request)."""
        stem, _, name = self.example.partition(":")
        return f"{stem}.toml", name or None

    @property
    def options_path(self) -> str:
        return f"certify.families.{self.options}"

    @property
    def check_path(self) -> str:
        return f"certify.checker.{self.check}"

    @property
    def generate_path(self) -> str:
        return f"certify.families.{self.generate}"

    @property
    def render_path(self) -> str:
        return f"certify.families.{self.render}:render_files"

    @property
    def summary_path(self) -> str:
        return f"certify.checker.{self.summary}"

    @property
    def lean_shape_path(self) -> str:
        return f"certify.families.{self.lean_shape}"

    @property
    def figures_path(self) -> str:
        return f"certify.families.{self.figures}"

    @property
    def cross_check_path(self) -> str:
        return f"certify.checker.{self.cross_check}"

    def describe_path(self, what: str) -> str:
        """The function `what` (architecture, shape, activation, bias) of the family's
        `describe` module: how a certificate's instance reads in one line."""
        return family_path(self.family, "describe", what)


def family_path(family: str, module: str, what: str) -> str:
    """`what` of the family's module `module`, as a "module:name" path. Every family with a
    network has `spec` with `parse_network(data, net, src) -> (network, seed, theta, range)`
    and `check_requests(data, network, theta, raw, requests, src) -> (requests, other)`, and
    may list `TOP_FIELDS` (top-level tables of a spec it reads); every family has `describe`
    (architecture, shape, activation, bias)."""
    return f"certify.families.{family}.{module}:{what}"


RANK = ("prime", "upper", "max_grid", "attempts")
# MLPs and ResNets share one rank generator (certify/families/polynomial)
POLY_RANK = "polynomial.witness_rank:generate"
POLY_SHAPE = "polynomial.render_rank:lean_shape"
RANK_LINE = "claims.common:summary_rank"  # one summary line for every family's rank kind
COMPIND_LINE = "claims.compind:summary_compind"
COMPIND = ("prime", "attempts", "variables", "polynomials", "activation", "generic_degree",
           "origin", "bias", "search", "max_degree", "power")  # fmt: skip

KINDS: tuple[Kind, ...] = (
    # family, kind, checker (under certify.checker), generator and renderer (certify.families)
    Kind("mlp", "rank", "check.rank:check", POLY_RANK, "polynomial.render_rank", RANK,
         summary=RANK_LINE, dimensions=True, jacobian=True, default=True, lean_shape=POLY_SHAPE,
         example="ktb-2-2-1"),
    Kind("mlp", "mlp-identifiable", "check.compind:check", "mlp.witness_identifiable:generate",
         "compind.render", RANK, many=True, summary="claims.compind:summary_mlp_identifiable",
         cross_check="check.compind:cross_check", jacobian=True,
         example="mlp-identifiable-z2z"),
    Kind("mlp", "equiv", "check.mlp_equiv:check", "mlp.witness_equiv:generate",
         "mlp.render_equiv", ("weights", "biases"), summary="claims.mlp:summary_equiv",
         example="mlp-equiv-quadratic:mlp-equiv-rescaled"),
    Kind("resnet", "rank", "check.rank:check", POLY_RANK, "polynomial.render_rank", RANK,
         summary=RANK_LINE, dimensions=True, jacobian=True, default=True, lean_shape=POLY_SHAPE,
         example="resnet-1-2-quadratic"),
    Kind("resnet", "orbit", "check.orbit:check", "resnet.witness_orbit:generate",
         "resnet.render_orbit", ("field",),
         options="resnet.spec:orbit_options", summary="claims.resnet:summary_orbit",
         example="resnet-orbit-trivial-cube"),
    Kind("resnet", "critical", "check.critical:check", "resnet.witness_critical:generate",
         "resnet.render_critical", ("prime", "max_grid", "attempts", "locus"), many=True,
         options="resnet.spec:critical_options", summary="claims.resnet:summary_critical",
         cross_check="check.critical:cross_check", jacobian=True,
         example="resnet-critical-dead-layer"),
    Kind("resnet", "implicit", "check.implicit:check", "resnet.witness_implicit:generate",
         "resnet.render_implicit", ("equation", "bias"),
         options="resnet.spec:implicit_options", summary="claims.resnet:summary_implicit",
         figures="resnet.figure:figures",
         example="resnet-figure-1:resnet-figure-1"),
    Kind("relu", "rank", "check.relu:check_rank", "relu.witness:generate", "relu.render",
         (*RANK, "batch"),
         options="relu.spec:batch_options", summary=RANK_LINE, dimensions=True, jacobian=True,
         default=True, lean_shape="relu.render:lean_shape",
         example="relu-1-1-1"),
    Kind("relu", "equiv", "check.relu:check_equiv", "relu.witness:generate", "relu.render",
         (*RANK, "batch"),
         options="relu.spec:batch_options", summary="claims.relu:summary_equiv",
         example="relu-equiv-permutation"),
    Kind("tanh", "affsym", "check.tanh:check_affsym", "tanh.witness:generate_affsym", "tanh.render",
         (*RANK, "activation"),
         options="tanh.spec:affsym_options", summary="claims.tanh:summary_affsym", network=False,
         coq_reals=True,
         example="affsym:affsym-tanh"),
    Kind("tanh", "orbit", "check.tanh:check_orbit", "tanh.witness:generate_orbit", "tanh.render",
         ("field",),
         options="resnet.spec:orbit_options", summary="claims.tanh:summary_orbit", default=True,
         example="tanh-1-3-1-orbit"),
    Kind("tanh", "equiv", "check.tanh:check_equiv", "tanh.witness:generate_equiv", "tanh.render",
         (*RANK, "weights", "biases"), summary="claims.tanh:summary_equiv",
         example="tanh-equiv:tanh-equivalent"),
    Kind("compind", "compind", "check.compind:check", "compind.witness:generate", "compind.render",
         COMPIND,
         options="compind.spec:compind_options", summary=COMPIND_LINE, network=False,
         example="compind-z2z"),
    Kind("compind", "prop21", "check.compind:check", "compind.witness:generate", "compind.render",
         COMPIND,
         options="compind.spec:compind_options", summary="claims.compind:summary_prop21",
         network=False,
         example="prop21-z3-z-1"),
    Kind("compind", "newman-slater", "check.compind:check", "compind.witness:generate",
         "compind.render", COMPIND,
         options="compind.spec:compind_options", summary=COMPIND_LINE, network=False,
         example="newman-slater-cubes"),
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


def network_free(kind: str) -> Kind | None:
    """The line of `kind` that is about no network (an activation or polynomials), if any:
    such a request needs no [network] table and belongs to that line's family."""
    return next((k for k in KINDS if k.kind == kind and not k.network), None)


def default_kind(family: str) -> str:
    """The kind a spec with a [network] of this family and no [[certificate]] asks for."""
    return next(k.kind for k in KINDS if k.family == family and k.default)


# The families whose requests are about a network (a spec's [network] table names one).
NETWORK_FAMILIES: tuple[str, ...] = tuple(dict.fromkeys(k.family for k in KINDS if k.network))


def resolve(path: str) -> Callable[..., Any]:
    """The function a "module:function" path names (imported on first use)."""
    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module), name)
