"""What a spec asks for, as plain data: a `Spec` (one network or polynomial family, its
parameter point) and its `CertRequest`s (one per [[certificate]] table). The parser
(certify/spec.py) builds them from a spec file; the families' generators (certify/families)
read them. This module imports nothing of either, so the families never import the parser
that calls them."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any


@dataclass(frozen=True)
class CertRequest:
    """One [[certificate]] table: the fields every kind has, and `options`, the kind's own
    fields as parsed by its families' option parsers (registry.Kind.options), e.g. "field"
    (orbit), "equation" and "bias" (implicit), "batch" (ReLU), "compind", "activation"
    (affsym), "other" (the second network of a tanh equiv request)."""

    kind: str
    name: str
    prime: int
    upper: bool
    max_grid: int
    attempts: int
    attempts_given: bool = False  # the spec set `attempts` (ReLU: else a family default)
    options: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Spec:
    name: str
    source: str
    network: Any  # MLP | ResNet | certify.families.tanh.dag.TanhNet | None
    seed: int | None
    theta: tuple[Fraction, ...]
    param_range: int
    certificates: tuple[CertRequest, ...] = field(default=())
    other: tuple[Fraction, ...] | None = None  # ReLU equiv: the second parameter vector
    raw: bytes | None = None  # the spec file's bytes (copied into the bundle's specs/)
    sweep: str | None = None  # the name of the sweep this spec is an instance of (sweep.py)
    # The decoded spec (the whole [sweep] spec for a sweep instance): what the bundle's
    # specs/ holds, as canonical JSON, for a spec not read from a file (bundle.spec_file).
    data: Any = field(default=None, compare=False, repr=False)
