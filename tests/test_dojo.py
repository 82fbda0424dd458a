"""`certify check --lean-dojo`: without Lean or without lean_dojo the verdict is not-run with
the reason (and the check still passes); the statements the bundle renders are extracted for
every theorem; the pinning logic is exercised with a stand-in `lean_dojo` module and a fake
`lake` (the real tracing needs a Lean toolchain, absent here)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from certify.bundle import render_certificate
from certify.dojo import rendered_statements
from tests.conftest import make_cert
from tests.test_bundle import SPEC
from tests.test_cli_gates import ROOT, _fake_lake, cli

STUB = '''"""Stand-in for lean_dojo (tests only): traces by reading the files."""
import os, re
from pathlib import Path

_THM = re.compile(r"^theorem\\s+([^\\s:]+)\\s*:\\s*(.*?)\\s*:=", re.M | re.S)


class LeanGitRepo:
    def __init__(self, path):
        self.path = Path(path)

    @classmethod
    def from_path(cls, path):
        assert (Path(path) / ".git").is_dir(), "not a git repository"
        return cls(path)


class _Thm:
    def __init__(self, full, stmt):
        self.theorem = type("T", (), {"full_name": full})()
        self._stmt = stmt

    def get_theorem_statement(self):
        return "theorem x : " + self._stmt


class _File:
    def __init__(self, path, module):
        self.path, self.module = path, module

    def get_traced_theorems(self):
        text = self.path.read_text()
        forged = os.environ.get("STUB_FORGE")
        out = []
        for name, stmt in _THM.findall(text):
            out.append(_Thm(f"Certificates.{self.module}.{name}", forged or stmt))
        return out


class _Repo:
    def __init__(self, root):
        self.root = root

    def get_traced_file(self, rel):
        return _File(self.root / rel, Path(rel).stem)


def trace(repo):
    return _Repo(repo.path)
'''


def test_every_theorem_statement_is_extracted_from_the_rendered_files():
    for cert in (make_cert([3, 2, 1], "t^2"), make_cert([2, 3, 1], "t^3 + t", True)):
        it = render_certificate(cert)
        got = rendered_statements(it.lean_text, it.module, it.lean_theorems)
        assert set(got) == set(it.lean_theorems)
        assert all(s and "=" in s for s in got.values())
        assert got[f"Certificates.{it.module}.rank_lower_check"].startswith(
            "NNCert.checkRankLower inst lower "
        )


@pytest.fixture
def bundle(tmp_path: Path) -> Path:
    spec = tmp_path / "s.toml"
    spec.write_text(SPEC)
    out = tmp_path / "b"
    assert cli("run", str(spec), "--out", str(out), "--no-coq", "--no-lean").returncode == 0
    return out


def test_without_lean_or_lean_dojo_the_verdict_is_not_run_with_the_reason(bundle, tmp_path):
    empty = tmp_path / "empty-bin"
    empty.mkdir()
    r = cli("check", str(bundle), "--no-coq", "--no-lean", "--lean-dojo",
            path=f"{empty}:/usr/bin:/bin")  # fmt: skip
    assert r.returncode == 0, r.stdout + r.stderr
    assert "lean-dojo: not-run (" in r.stdout
    assert "lean_dojo is not installed" in r.stdout or "no Lean toolchain" in r.stdout
    assert "bundle verified" in r.stdout


def _with_stub(tmp_path: Path, bundle: Path, forge: str | None) -> subprocess.CompletedProcess:
    tmp_path.mkdir()
    stub = tmp_path / "stub" / "lean_dojo"
    stub.mkdir(parents=True)
    (stub / "__init__.py").write_text(STUB)
    env = dict(os.environ)
    env["PATH"] = _fake_lake(tmp_path, "exit 0")
    env["PYTHONPATH"] = os.pathsep.join([str(tmp_path / "stub"), str(ROOT)])
    if forge:
        env["STUB_FORGE"] = forge
    return subprocess.run(
        [sys.executable, "-m", "certify.cli", "check", str(bundle), "--no-coq", "--no-lean",
         "--lean-dojo"], capture_output=True, text=True, cwd=ROOT, env=env, timeout=300,
    )  # fmt: skip


@pytest.mark.skipif(shutil.which("git") is None, reason="git not installed")
def test_statement_pinning_passes_on_a_faithful_trace_and_fails_on_a_forged_one(
    bundle: Path, tmp_path: Path
):
    r = _with_stub(tmp_path / "faithful", bundle, None)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "lean-dojo: passed (" in r.stdout and "theorem statements pinned" in r.stdout
    r = _with_stub(tmp_path / "forged", bundle, "True")
    assert r.returncode == 1, r.stdout + r.stderr
    assert "lean-dojo failed" in r.stdout and "differs from" in r.stdout


def test_lean_git_repo_from_path_accepts_a_generated_bundle(bundle: Path, tmp_path: Path):
    """Where the extra is installed (not on our machines): LeanDojo reads the bundle's Lake
    project as a repository without needing Lean."""
    lean_dojo = pytest.importorskip("lean_dojo")
    repo = tmp_path / "repo"
    shutil.copytree(bundle / "lean", repo)
    for cmd in (
        ["git", "init", "-q"],
        ["git", "add", "-A"],
        ["git", "-c", "user.name=t", "-c", "user.email=t@invalid", "commit", "-qm", "b"],
    ):
        subprocess.run(cmd, cwd=repo, check=True)  # fmt: skip
    assert lean_dojo.LeanGitRepo.from_path(repo) is not None
