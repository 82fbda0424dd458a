"""A CI gate that passes (issue 25 item 1): the ci/verify.sh that `certify ci-template` writes
for a real bundle is run here as it is, on this machine. coqc is installed, so the script
skips apt (a fake apt-get and curl that fail are first on PATH: had the script called them it
would have failed); the bundle was written without Lean, so the script has no Lean step. It
creates a fresh venv, pip-installs the sdist the bundle carries (its build backend and
dependencies come from the package index) and that venv's `certify check --require coq`
verifies the bundle: exit 0. Slow: a venv, a pip install and coqc."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from certify.ci_template import SCRIPT
from certify.cli import example_specs
from certify.provers import coq as coqp
from certify.referee import tool_sources
from tests.conftest import run_cli

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(coqp.coqc_path() is None, reason="coqc not installed"),
]
SPEC = "ktb-2-2-1"


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A repository holding a bundle (`certify run` of one spec with coqc, --no-lean) and
    the templates `certify ci-template` writes for it; once per module."""
    root = tmp_path_factory.mktemp("ci-repo")
    spec = example_specs()[0].parent / f"{SPEC}.toml"
    r = run_cli("run", str(spec), "--no-lean", "--out", str(root / "bundle"))
    assert r.returncode == 0, r.stdout + r.stderr
    r = run_cli("ci-template", "--out", str(root))
    assert r.returncode == 0, r.stdout + r.stderr
    return root


def test_the_generated_script_installs_the_bundled_tool_and_verifies_the_bundle(repo: Path):
    fake = repo.parent / "fail-bin"
    fake.mkdir()
    for tool in ("apt-get", "curl"):
        (fake / tool).write_text(f"#!/bin/sh\necho 'ci/verify.sh ran {tool}' >&2\nexit 1\n")
        (fake / tool).chmod(0o755)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env |= {"PATH": f"{fake}:{env['PATH']}", "SUDO": ""}
    assert shutil.which("coqc", path=env["PATH"]) is not None
    script = (repo / SCRIPT).read_text()
    assert "elan" not in script and "--no-lean --require coq" in script
    r = subprocess.run(["sh", SCRIPT], cwd=repo, env=env, capture_output=True, text=True,
                       timeout=3600)  # fmt: skip
    out = r.stdout + r.stderr
    assert r.returncode == 0, out
    assert "ran apt-get" not in out and "ran curl" not in out
    assert "bundle verified" in r.stdout
    assert "ktb-2-2-1: coq passed (re-verified here)" in r.stdout
    assert "tool/nn_certify-0.1.0.tar.gz: the sdist of the nn-certify that wrote" in r.stdout
    assert "the bundle was written by tool sources with sha256" not in r.stdout  # the same
    venv = repo / ".nn-certify-venv"
    where = subprocess.run(
        [str(venv / "bin" / "python"), "-c",
         "import certify, certify.referee as R; print(certify.__file__); "
         "print(R.tool_sources()['sha256'])"],
        capture_output=True, text=True, cwd=repo.parent, env=env, check=True,
    ).stdout.split()  # fmt: skip
    assert where[0].startswith(str(venv)), where  # the installed sdist, not this checkout
    assert where[1] == tool_sources()["sha256"]
