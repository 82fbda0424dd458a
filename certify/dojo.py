"""`certify check --lean-dojo`: statement pinning with LeanDojo (optional extra
`nn-certify[dojo]`).

Where a Lean toolchain (`lake`) and `lean_dojo` are both installed, the bundle's Lake project
is copied to a scratch git repository, traced with LeanDojo, and every theorem the bundle's
certificates declare must exist in the trace with exactly the statement the bundle renders
(whitespace normalised). That is a separate verdict, `lean-dojo`; without Lean or without
`lean_dojo` it is `not-run` with the reason. No Lean toolchain exists on our own machines, so
the tracing path has not run here; what runs without Lean — extracting each theorem's
statement from the rendered files — is tested (tests/test_dojo.py)."""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from certify.provers import lean as leanp
from certify.provers.common import FAILED, NOT_RUN, PASSED, Verdict

_THM = re.compile(r"^theorem\s+(?P<name>[^\s:]+)\s*:\s*(?P<stmt>.*?)\s*:=", re.M | re.S)


def _norm(s: str) -> str:
    return " ".join(s.split())


def rendered_statements(lean_text: str, module: str, theorems: list[str]) -> dict[str, str]:
    """Full theorem name -> its statement as rendered in the module's Lean file (the text
    between `theorem NAME :` and `:=`, whitespace normalised)."""
    prefix = f"Certificates.{module}."
    found = {f"{prefix}{m.group('name')}": _norm(m.group("stmt")) for m in _THM.finditer(lean_text)}
    return {t: found[t] for t in theorems if t in found}


def unavailable() -> str | None:
    """Why the LeanDojo check cannot run here (None: it can)."""
    try:
        import lean_dojo  # noqa: F401
    except ImportError:
        return "lean_dojo is not installed (pip install 'nn-certify[dojo]')"
    if leanp.lake_path() is None:
        return "no Lean toolchain (lake not found on PATH)"
    if shutil.which("git") is None:
        return "git not found on PATH (LeanDojo traces a git repository)"
    return None


def check(bundle: Path, items: list[Any], timeout: float) -> Verdict:
    """The `lean-dojo` verdict for the re-rendered certificates `items` of `bundle`."""
    why = unavailable()
    if why is not None:
        return Verdict(NOT_RUN, why)
    expected: dict[str, str] = {}
    missing_here: list[str] = []
    for it in items:
        got = rendered_statements(it.lean_text, it.module, it.lean_theorems)
        missing_here += [t for t in it.lean_theorems if t not in got]
        expected.update(got)
    if missing_here:
        return Verdict(FAILED, f"theorems not found in the rendered files: {missing_here}")
    try:  # pragma: no cover - needs a Lean toolchain and lean_dojo
        traced = _trace(bundle / "lean", timeout)
    except Exception as e:  # pragma: no cover - LeanDojo raises many kinds
        return Verdict(FAILED, f"LeanDojo could not trace the bundle's Lake project: {e!r}")
    problems = []  # pragma: no cover
    for name, stmt in sorted(expected.items()):  # pragma: no cover
        if name not in traced:
            problems.append(f"{name}: not in the LeanDojo trace")
        elif traced[name] != stmt:
            problems.append(f"{name}: traced statement {traced[name]!r} differs from {stmt!r}")
    if problems:  # pragma: no cover
        return Verdict(FAILED, "; ".join(problems[:5]))
    return Verdict(PASSED, f"{len(expected)} theorem statements pinned")  # pragma: no cover


def _trace(lean_dir: Path, timeout: float) -> dict[str, str]:  # pragma: no cover
    """Full name -> normalised statement of every theorem LeanDojo traces in Certificates/."""
    from lean_dojo import LeanGitRepo, trace

    with tempfile.TemporaryDirectory(prefix="nn-certify-dojo-") as td:
        repo_dir = Path(td) / "lean"
        shutil.copytree(lean_dir, repo_dir)
        for cmd in (["git", "init", "-q"], ["git", "add", "-A"],
                    ["git", "-c", "user.name=nn-certify", "-c", "user.email=nn-certify@invalid",
                     "commit", "-qm", "bundle"]):  # fmt: skip
            subprocess.run(cmd, cwd=repo_dir, check=True, timeout=timeout, capture_output=True)
        repo = LeanGitRepo.from_path(repo_dir)
        traced_repo = trace(repo)
        out: dict[str, str] = {}
        for path in sorted((repo_dir / "Certificates").glob("*.lean")):
            tf = traced_repo.get_traced_file(path.relative_to(repo_dir))
            for thm in tf.get_traced_theorems():
                stmt = thm.get_theorem_statement()
                m = _THM.search(stmt + " :=") if stmt.lstrip().startswith("theorem") else None
                out[thm.theorem.full_name] = _norm(m.group("stmt")) if m else _norm(stmt)
        return out
