"""Lean 4 / Lake: discovery, `lake build --wfail`, `#print axioms` audit.

No Lean toolchain exists on our own machines; wherever `lake` is on PATH this runs it, and
otherwise every Lean verdict is `not-run` (never `passed`).
"""

from __future__ import annotations

import contextlib
import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

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


def _first_error(output: str, module: str | None = None) -> str | None:
    errors = parse_errors(output)
    if module is not None:
        path = module.replace(".", "/") + ".lean"
        mine = next((v for k, v in errors.items() if k.endswith(path)), None)
        if mine is not None:
            return mine
    return next(iter(errors.values()), None)


def _tail(output: str) -> str:
    return output.strip()[-1500:]


def _no_phase(label: str) -> contextlib.AbstractContextManager[Any]:
    return contextlib.nullcontext()


def audit_text(module: str, theorems: list[str]) -> str:
    """A one-module axiom audit: import the module, `#print axioms` every theorem."""
    return "\n".join([f"import {module}", ""] + [f"#print axioms {t}" for t in theorems]) + "\n"


def build_and_audit(
    lean_dir: Path,
    modules: dict[str, list[str]],
    timeout: float,
    timings: dict[str, Any] | None = None,
    phase: Callable[[str], contextlib.AbstractContextManager[Any]] = _no_phase,
) -> dict[str, Verdict]:
    """Verdict per module: built without warnings and every theorem's axioms allowed.

    Per module, so one failure or timeout affects only its module: first the toolchain
    set-up (`lake --version`, which makes elan install the pinned toolchain; its own
    `timeout`, not charged to any certificate), then the NNCert library once
    (`lake build --wfail NNCert`), then each certificate module on its own (`lake build
    --wfail Certificates.<Module>`, its own `timeout`), then the axiom audit of each module
    that built (`lake env lean` on a one-module audit file, its own `timeout`). A module's
    verdict carries its own build + audit seconds; set-up and library seconds go to
    `timings` (keys lean_setup, lean_library)."""
    exe = lake_path()
    if exe is None:
        return {m: Verdict(NOT_RUN, "lake not found on PATH") for m in modules}
    timings = timings if timings is not None else {}
    with phase("lean toolchain set-up"):
        setup = run([exe, "--version"], lean_dir, timeout)
    timings["lean_setup"] = {"seconds": setup.seconds}
    if setup.timed_out:
        msg = f"Lean toolchain set-up (lake --version) timed out after {timeout:.0f} s"
        return {m: Verdict(TIMEOUT, msg) for m in modules}
    if setup.returncode != 0:
        msg = f"Lean toolchain set-up (lake --version) failed: {_tail(setup.output)}"
        return {m: Verdict(NOT_RUN, msg) for m in modules}
    if not modules:
        return {}
    with phase("lean library NNCert"):
        lib = run([exe, "build", "--wfail", "NNCert"], lean_dir, timeout)
    timings["lean_library"] = {"seconds": lib.seconds}
    if lib.timed_out:
        msg = f"NNCert library: lake build NNCert timed out after {timeout:.0f} s"
        return {m: Verdict(TIMEOUT, msg) for m in modules}
    if lib.returncode != 0:
        msg = "NNCert library: " + (_first_error(lib.output) or "lake build NNCert failed: "
                                    + _tail(lib.output))  # fmt: skip
        return {m: Verdict(FAILED, msg) for m in modules}
    verdicts: dict[str, Verdict] = {}
    for n, (mod, theorems) in enumerate(modules.items()):
        with phase(f"lean {mod}"):
            verdicts[mod] = _one_module(exe, lean_dir, mod, theorems, timeout, n)
    return verdicts


def _one_module(
    exe: str, lean_dir: Path, mod: str, theorems: list[str], timeout: float, n: int
) -> Verdict:
    build = run([exe, "build", "--wfail", mod], lean_dir, timeout)
    if build.timed_out:
        return Verdict(TIMEOUT, f"lake build {mod} timed out after {timeout:.0f} s", build.seconds)
    if build.returncode != 0:
        msg = _first_error(build.output, mod) or f"lake build {mod} failed: {_tail(build.output)}"
        return Verdict(FAILED, msg, build.seconds)
    audit_file = lean_dir / f"NNCertAudit{n}.lean"
    audit_file.write_text(audit_text(mod, theorems))
    audit = run([exe, "env", "lean", audit_file.name], lean_dir, timeout)
    seconds = build.seconds + audit.seconds
    if audit.timed_out:
        return Verdict(TIMEOUT, f"axiom audit of {mod} timed out after {timeout:.0f} s", seconds)
    axioms = parse_axioms(audit.output)
    missing = [t for t in theorems if t not in axioms]
    bad = sorted({a for t in theorems for a in axioms.get(t, []) if a not in ALLOWED_AXIOMS})
    used = sorted({a for t in theorems for a in axioms.get(t, [])})
    if audit.returncode != 0 or missing:
        return Verdict(FAILED, f"axiom audit incomplete: {missing}", seconds)
    if bad:
        return Verdict(FAILED, f"disallowed axioms: {bad}", seconds, used)
    return Verdict(PASSED, "", seconds, used)
