"""`certify init KIND [--family FAMILY]`: a starter spec for one certificate kind.

Each starter is a small TOML spec of the registry's (family, kind) (certify/checker/registry.py),
the file certify/starters/<family>-<kind>.toml, that `certify run` accepts as it stands, with
the kind's optional fields as comments and their defaults (docs/spec-reference.md lists every
field). The instances are small, so that a first `certify run` finishes in seconds; the
mathematics each kind certifies is in docs/math.md.

A kind that several families have (`rank`: mlp, resnet, relu; `orbit`: resnet, tanh; `equiv`:
mlp, relu, tanh) takes its first family in the registry unless `--family` names another."""

from __future__ import annotations

from pathlib import Path

from certify.checker import registry
from certify.errors import InputError

STARTER_DIR = Path(__file__).resolve().parent / "starters"


def starter_path(family: str, kind: str) -> Path:
    """certify/starters/<family>-<kind>.toml: the starter of a registry line (a new kind
    adds its file there; tests/test_init_spec.py checks that each line has exactly one)."""
    return STARTER_DIR / f"{family}-{kind}.toml"


STARTERS: dict[tuple[str, str], str] = {
    key: starter_path(*key).read_text() for key in registry.BY_KEY
}


def kinds() -> list[str]:
    """The kind names of the registry, in registry order, each once."""
    return list(dict.fromkeys(k.kind for k in registry.KINDS))


def families_of(kind: str) -> list[str]:
    """The families that have `kind`, in registry order (the first is the default)."""
    return [k.family for k in registry.KINDS if k.kind == kind]


def starter(kind: str, family: str | None = None) -> str:
    """The starter spec text of (family, kind); family None: the kind's first family.

    An unknown kind, or a family that does not have the kind, is an InputError (exit 2)
    naming the valid kinds (or that kind's families)."""
    if kind not in kinds():
        raise InputError(f"init: unknown kind {kind!r}; expected one of {', '.join(kinds())}")
    fams = families_of(kind)
    if family is None:
        family = fams[0]
    if family not in fams:
        raise InputError(
            f"init --family: kind {kind!r} is not a kind of family {family!r}; "
            f"expected one of {', '.join(fams)}"
        )
    return STARTERS[(family, kind)]
