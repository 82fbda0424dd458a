"""Tool versions on re-check (issue 25 item 4): a prover's version is judged only when the
bundle obtained a verdict from that prover. A bundle built where coqc was absent (or with
--no-coq) and checked where coqc is present passes, its coq verdicts newly checked; a version
recorded for a coqc the stored verdicts say was not found is a forgery; once the bundle holds
a coq verdict, a different coqc version is an error again. Every test runs coqc."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from certify.bundle import Options
from certify.cli import example_specs
from certify.provers import coq as coqp
from certify.verify import check_bundle_result
from tests.conftest import run_cli
from tests.test_check_derives import _manifest, _reseal

pytestmark = pytest.mark.skipif(coqp.coqc_path() is None, reason="coqc not installed")
SPEC = "ktb-2-2-1"


def _spec() -> str:
    return str(example_specs()[0].parent / f"{SPEC}.toml")


@pytest.fixture(scope="module")
def no_coq(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`certify run` of one spec with --no-coq --no-lean (coqc installed; read-only)."""
    out = tmp_path_factory.mktemp("versions") / "b"
    r = run_cli("run", _spec(), "--no-coq", "--no-lean", "--out", str(out))
    assert r.returncode == 0, r.stdout + r.stderr
    return out


def _problems(b: Path) -> list[str]:
    r = check_bundle_result(b, Options(run_coq=False, run_lean=False, jobs=1))
    return r.problems + r.prover_problems


def _path_without_coqc(tmp_path: Path) -> str:
    d = tmp_path / "no-coqc-bin"
    d.mkdir()
    return str(d)


def test_a_bundle_built_where_coqc_was_absent_checks_where_it_is_present(tmp_path: Path):
    out = tmp_path / "b"
    env = dict(os.environ, PATH=_path_without_coqc(tmp_path))
    r = subprocess.run([sys.executable, "-m", "certify.cli", "run", _spec(), "--no-lean",
                        "--out", str(out)], capture_output=True, text=True, env=env)  # fmt: skip
    assert r.returncode == 0, r.stdout + r.stderr
    m = _manifest(out)
    assert m["tool"]["coqc"] is None
    assert {e["messages"]["coq"] for e in m["certificates"]} == {"coqc not found on PATH"}
    r = run_cli("check", str(out), "--no-lean", "--require", "coq")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "coq passed, newly checked here" in r.stdout
    assert "manifest.tool coqc = null, this machine has" in r.stdout
    assert "not compared (the bundle obtained no coq verdict)" in r.stdout
    # ...but a version recorded for a coqc the verdicts say was not found is a forgery
    m["tool"]["coqc"] = coqp.version()
    _reseal(out, m)
    problems = _problems(out)
    assert any(
        p.startswith(
            f'manifest.tool coqc = "{coqp.version()}", but the bundle\'s coq verdicts '
            "say coqc not found on PATH"
        )
        for p in problems
    ), problems


def test_a_no_coq_bundle_is_not_judged_by_its_coqc_version(no_coq: Path, tmp_path: Path):
    b = tmp_path / "b"
    shutil.copytree(no_coq, b)
    m = _manifest(b)
    assert {e["verdicts"]["coq"] for e in m["certificates"]} == {"not-run"}
    m["tool"]["coqc"] = "8.0.0"  # another coqc was installed (not run: --no-coq)
    _reseal(b, m)
    r = run_cli("check", str(b), "--no-lean", "--require", "coq", "--jobs", "1")
    assert r.returncode == 0, r.stdout + r.stderr
    assert 'manifest.tool coqc = "8.0.0", this machine has' in r.stdout
    # once the bundle holds a coq verdict, the version is judged
    m["certificates"][0]["verdicts"]["coq"] = "passed"
    m["certificates"][0]["messages"]["coq"] = ""
    _reseal(b, m)
    problems = _problems(b)
    assert any('manifest.tool coqc = "8.0.0", this machine has' in p for p in problems), problems
