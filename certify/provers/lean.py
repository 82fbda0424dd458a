"""Lean 4 / Lake: discovery, `lake build --wfail`, `#print axioms` audit.

No Lean toolchain exists on our own machines; wherever `lake` is on PATH this runs it, and
otherwise every Lean verdict is `not-run` (never `passed`).
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from certify.provers.common import FAILED, NOT_RUN, PASSED, TIMEOUT, Verdict, run

ALLOWED_AXIOMS = {"propext", "Classical.choice", "Quot.sound"}
_ERR = re.compile(r"^error: (?P<file>\S+\.lean):(?P<line>\d+):(?P<col>\d+): (?P<msg>.*)$", re.M)
_AX = re.compile(r"'(?P<decl>[^']+)' (?:does not depend on any axioms|depends on axioms: "
                 r"\[(?P<ax>[^\]]*)\])")  # fmt: skip


def lake_path() -> str | None:
    return shutil.which("lake")


def version() -> str | None:
    exe = shutil.which("lean")
    if exe is None:
        return None
    r = run([exe, "--version"], Path.cwd(), 60)
    m = re.search(r"version (\S+)", r.output)
    return m.group(1).rstrip(",") if m else r.output.strip()[:80] or None


def parse_axioms(output: str) -> dict[str, list[str]]:
    """decl -> axioms from `#print axioms` output (whitespace normalised first)."""
    flat = " ".join(output.split())
    out: dict[str, list[str]] = {}
    for m in _AX.finditer(flat):
        ax = m.group("ax")
        out[m.group("decl")] = [a.strip() for a in ax.split(",")] if ax else []
    return out


def parse_errors(output: str) -> dict[str, str]:
    """file -> first error message of `lake build` output."""
    errs: dict[str, str] = {}
    for m in _ERR.finditer(output):
        errs.setdefault(m.group("file"), f"{m.group('line')}:{m.group('col')}: {m.group('msg')}")
    return errs


def build_and_audit(
    lean_dir: Path, modules: dict[str, list[str]], timeout: float
) -> dict[str, Verdict]:
    """Verdict per module: built without warnings and every theorem's axioms allowed."""
    exe = lake_path()
    if exe is None:
        return {m: Verdict(NOT_RUN, "lake not found on PATH") for m in modules}
    build = run([exe, "build", "--wfail"], lean_dir, timeout)
    if build.timed_out:
        msg = f"lake build timed out after {timeout:.0f} s"
        return {m: Verdict(TIMEOUT, msg, build.seconds) for m in modules}
    errors = parse_errors(build.output)
    verdicts: dict[str, Verdict] = {}
    if build.returncode != 0:
        for mod in modules:
            path = mod.replace(".", "/") + ".lean"
            msg = next((v for k, v in errors.items() if k.endswith(path)), None)
            verdicts[mod] = Verdict(
                FAILED, msg or "lake build failed: " + build.output[-1500:], build.seconds
            )
        return verdicts
    audit = run([exe, "env", "lean", "Audit.lean"], lean_dir, timeout)
    if audit.timed_out:
        msg = f"axiom audit timed out after {timeout:.0f} s"
        return {m: Verdict(TIMEOUT, msg, build.seconds) for m in modules}
    axioms = parse_axioms(audit.output)
    for mod, theorems in modules.items():
        missing = [t for t in theorems if t not in axioms]
        bad = sorted({a for t in theorems for a in axioms.get(t, []) if a not in ALLOWED_AXIOMS})
        used = sorted({a for t in theorems for a in axioms.get(t, [])})
        if audit.returncode != 0 or missing:
            verdicts[mod] = Verdict(FAILED, f"axiom audit incomplete: {missing}", build.seconds)
        elif bad:
            verdicts[mod] = Verdict(FAILED, f"disallowed axioms: {bad}", build.seconds, used)
        else:
            verdicts[mod] = Verdict(PASSED, "", build.seconds, used)
    return verdicts
