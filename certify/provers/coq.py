"""coqc: discovery, compiling the NNCert library and certificates, Print Assumptions audit."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from certify.provers.common import FAILED, NOT_RUN, PASSED, Verdict, run

LIBRARY = [
    "Lists",
    "Arith",
    "Net",
    "RankCore",
    "Rank",
    "Sound",
    "Compind",
    "CompindSound",
    "ResNet",
]
LIBRARY += ["ReLU", "ReLUSound"]  # ReLU networks (issue 5)
LIBRARY += ["Tanh", "TanhSym"]  # tanh-type activations (issue 6)
# Print Assumptions lists Coq's primitive 63-bit integer type and operations as axioms:
# they are kernel primitives (coq-guide.md §3e). Anything else fails the audit.
ALLOWED_PREFIX = "PrimInt63."
_ERR = re.compile(
    r'File "(?P<file>[^"]+)", line (?P<line>\d+), characters [^\n]*\n(?P<msg>Error:.*)', re.S
)


def coqc_path() -> str | None:
    return shutil.which("coqc")


def version() -> str | None:
    exe = coqc_path()
    if exe is None:
        return None
    r = run([exe, "--version"], Path.cwd(), 30)
    m = re.search(r"version (\S+)", r.output)
    return m.group(1) if m else None


def _flags() -> list[str]:
    return ["-q", "-R", "NNCert", "NNCert", "-R", "Certificates", "Certificates"]


def build_library(coq_dir: Path, timeout: float) -> Verdict:
    """Compile NNCert/*.v in dependency order (each compile checks the soundness proofs)."""
    exe = coqc_path()
    if exe is None:
        return Verdict(NOT_RUN, "coqc not found on PATH")
    total = 0.0
    for mod in LIBRARY:
        r = run([exe, *_flags(), f"NNCert/{mod}.v"], coq_dir, timeout)
        total += r.seconds
        if r.returncode != 0:
            return Verdict(FAILED, f"NNCert/{mod}.v: {error_message(r.output)}", total)
    return Verdict(PASSED, "", total)


def parse_assumptions(output: str) -> list[str]:
    """Names listed by Print Assumptions (empty for 'Closed under the global context')."""
    names: list[str] = []
    in_axioms = False
    for line in output.splitlines():
        if line.startswith("Axioms:"):
            in_axioms = True
            continue
        if in_axioms:
            m = re.match(r"^(\S+) :", line)
            if m:
                names.append(m.group(1))
            elif line and not line[0].isspace():
                in_axioms = False
    return sorted(set(names))


def error_message(output: str) -> str:
    m = _ERR.search(output)
    if m:
        msg = " ".join(m.group("msg").split())
        return f"{m.group('file')}:{m.group('line')}: {msg}"[:2000]
    return " ".join(output.split())[-2000:] or "coqc failed without a message"


def check_file(coq_dir: Path, rel: str, timeout: float) -> Verdict:
    """coqc one certificate file; passed iff it compiles and assumes only primitives."""
    exe = coqc_path()
    if exe is None:
        return Verdict(NOT_RUN, "coqc not found on PATH")
    r = run([exe, *_flags(), rel], coq_dir, timeout)
    if r.returncode != 0:
        return Verdict(FAILED, error_message(r.output), r.seconds)
    if "Closed under the global context" not in r.output and "Axioms:" not in r.output:
        return Verdict(FAILED, "no Print Assumptions output found", r.seconds)
    axioms = parse_assumptions(r.output)
    bad = [a for a in axioms if not a.startswith(ALLOWED_PREFIX)]
    if bad:
        return Verdict(FAILED, f"unexpected assumptions: {', '.join(bad)}", r.seconds, axioms)
    return Verdict(PASSED, "", r.seconds, axioms)
