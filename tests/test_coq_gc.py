"""coqc's OCaml garbage-collector setting (certify/provers/coq.py gc_env): the library,
small certificates and the audit driver run with OCAMLRUNPARAM=SMALL_FILE_GC, large
certificates with Coq's own policy, and a user's OCAMLRUNPARAM is never overridden; the
bundle's build.sh chooses exactly as certify does (that both pass it to the library's coqc:
tests/test_cache.py). What the setting saves: benchmarks/bench_coq_gc.py."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from certify.bundle import COQ_BUILD_SH
from certify.provers import coq as coqp

pytestmark = pytest.mark.quick
LIMIT = coqp.SMALL_FILE_BYTES
SIZES = [0, 1, LIMIT - 1, LIMIT, LIMIT + 1, 4 * LIMIT]


def _file(root: Path, size: int) -> Path:
    f = root / "Certificates" / f"C{size}.v"
    f.parent.mkdir(exist_ok=True)
    f.write_bytes(b"x" * size)
    return f


@pytest.mark.parametrize("size", SIZES)
def test_a_certificate_gets_the_small_file_setting_exactly_up_to_the_limit(
    size, tmp_path, monkeypatch
):
    monkeypatch.delenv(coqp.GC_ENV, raising=False)
    env = coqp.gc_env(_file(tmp_path, size))
    if size <= LIMIT:
        assert env is not None and env[coqp.GC_ENV] == coqp.SMALL_FILE_GC
        assert env["PATH"] == os.environ["PATH"]  # the rest inherited
    else:
        assert env is None  # Coq's own policy


def test_a_library_file_or_the_audit_driver_gets_the_small_file_setting_at_any_size(monkeypatch):
    monkeypatch.delenv(coqp.GC_ENV, raising=False)
    env = coqp.gc_env(None)
    assert env is not None and env[coqp.GC_ENV] == coqp.SMALL_FILE_GC


@pytest.mark.parametrize("size", [0, 4 * LIMIT])
def test_a_users_ocamlrunparam_is_never_overridden(size, tmp_path, monkeypatch):
    monkeypatch.setenv(coqp.GC_ENV, "s=64M")
    assert coqp.gc_env(_file(tmp_path, size)) is None
    assert coqp.gc_env(None) is None


def _printed(env: dict[str, str] | None) -> str:
    """What build.sh's gc prints for the environment gc_env chose."""
    return "" if env is None else f"{coqp.GC_ENV}={env[coqp.GC_ENV]}"


def _build_sh_gc(tmp_path: Path, arg: str, user: str | None) -> str:
    """What build.sh's gc function prints for file `arg` (run in `tmp_path`)."""
    m = re.search(r"^gc\(\) \{.*?^\}\n", COQ_BUILD_SH, re.M | re.S)
    assert m, "build.sh has no gc function"
    script = m.group(0) + f'gc "{arg}"\n'
    env = {"PATH": "/usr/bin:/bin"} | ({coqp.GC_ENV: user} if user is not None else {})
    r = subprocess.run(["sh", "-c", script], cwd=tmp_path, env=env, capture_output=True,
                       text=True, check=True)  # fmt: skip
    return r.stdout.strip()


@pytest.mark.parametrize("user", [None, "s=64M"])
def test_build_sh_chooses_the_setting_certify_chooses(user, tmp_path, monkeypatch):
    if user is None:
        monkeypatch.delenv(coqp.GC_ENV, raising=False)
    else:
        monkeypatch.setenv(coqp.GC_ENV, user)
    (tmp_path / "Audit.v").write_text("")
    cases = [(f"Certificates/C{n}.v", _file(tmp_path, n)) for n in SIZES]
    cases.append(("Audit.v", None))
    for arg, path in cases:
        assert _build_sh_gc(tmp_path, arg, user) == _printed(coqp.gc_env(path)), (arg, user)
    # a library file: the setting of a file without a long kernel computation, at any size
    assert _build_sh_gc(tmp_path, "NNCert/meaning/ElimSound.v", user) == _printed(coqp.gc_env(None))
