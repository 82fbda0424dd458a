"""Running external provers: timeouts, captured output, verdict vocabulary."""

from __future__ import annotations

import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

PASSED, FAILED, NOT_RUN = "passed", "failed", "not-run"


@dataclass
class Verdict:
    """A prover's verdict for one certificate; never `passed` unless it really ran."""

    status: str
    message: str = ""
    seconds: float | None = None
    assumptions: list[str] = field(default_factory=list)


@dataclass
class Run:
    returncode: int | None  # None: timed out or could not start
    output: str
    seconds: float


def run(cmd: list[str], cwd: Path, timeout: float) -> Run:
    t0 = time.monotonic()
    try:
        p = subprocess.run(
            cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout, check=False
        )
        return Run(p.returncode, p.stdout + p.stderr, time.monotonic() - t0)
    except subprocess.TimeoutExpired as e:
        out = (e.stdout or b"") + (e.stderr or b"")
        text = out.decode(errors="replace") if isinstance(out, bytes) else str(out)
        return Run(None, text + f"\n[timed out after {timeout:.0f} s]", time.monotonic() - t0)
    except OSError as e:
        return Run(None, f"could not run {cmd[0]}: {e}", time.monotonic() - t0)
