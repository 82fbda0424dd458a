"""`certify init KIND [--family F]` (certify/init_spec.py): for every (family, kind) of the
registry it prints a spec that the project's spec parser accepts and whose certificates the
Python checker accepts (what `certify run` does short of the provers); a kind several
families have takes its first family; an unknown kind, or a family without the kind, exits 2
naming the valid kinds (or families), without a traceback."""

from __future__ import annotations

import contextlib
import io

import pytest

from certify import cli
from certify.checker import registry
from certify.init_spec import STARTER_DIR, STARTERS, kinds, starter_path
from tests.conftest import run_cli

LINES = sorted(registry.BY_KEY)


def init_text(kind: str, family: str | None = None) -> str:
    buf = io.StringIO()
    argv = ["init", kind] + (["--family", family] if family else [])
    with contextlib.redirect_stdout(buf):
        assert cli.main(argv) == 0
    return buf.getvalue()


@pytest.mark.quick
def test_there_is_one_starter_per_registry_line() -> None:
    assert set(STARTERS) == set(registry.BY_KEY)
    files = sorted(p.name for p in STARTER_DIR.iterdir())
    assert files == sorted(starter_path(f, k).name for f, k in registry.BY_KEY)
    assert kinds() == list(dict.fromkeys(k.kind for k in registry.KINDS))


@pytest.mark.quick
@pytest.mark.parametrize("family,kind", LINES, ids=[f"{f}-{k}" for f, k in LINES])
def test_init_prints_a_spec_the_parser_accepts(family: str, kind: str) -> None:
    from certify.families import request_family
    from certify.spec import decode_toml, parse_specs

    text = init_text(kind, family)
    specs = parse_specs(decode_toml(text, "init.toml"), "init.toml")
    assert len(specs) == 1 and specs[0].certificates
    for req in specs[0].certificates:
        assert req.kind == kind
        assert request_family(specs[0], req) == family


@pytest.mark.quick
def test_init_without_family_takes_the_kind_s_first_family() -> None:
    for kind in kinds():
        first = next(k.family for k in registry.KINDS if k.kind == kind)
        assert init_text(kind) == STARTERS[(first, kind)]


@pytest.mark.parametrize("family,kind", LINES, ids=[f"{f}-{k}" for f, k in LINES])
def test_the_starter_passes_the_checker(family: str, kind: str) -> None:
    """What `certify run` would do short of the provers: generate, then the Python checker."""
    from certify import api

    got = api.certify(STARTERS[(family, kind)])
    assert got and got[0].kind == kind and got[0].family == family
    for c in got:
        assert c.passed, (c.name, c.checker)


def test_init_unknown_kind_exits_2_naming_the_kinds() -> None:
    r = run_cli("init", "no-such-kind")
    assert r.returncode == 2, r.stderr
    assert "Traceback" not in r.stderr and r.stdout == ""
    assert "'no-such-kind'" in r.stderr
    for kind in kinds():
        assert kind in r.stderr, kind
    r = run_cli("init", "orbit", "--family", "mlp")
    assert r.returncode == 2 and "resnet, tanh" in r.stderr and "Traceback" not in r.stderr
