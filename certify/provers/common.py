"""Running external provers: timeouts, captured output, verdict vocabulary."""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

PASSED, FAILED, NOT_RUN, TIMEOUT = "passed", "failed", "not-run", "timeout"
VERDICTS = (PASSED, FAILED, NOT_RUN, TIMEOUT)
PROVERS = ("coq", "lean")  # the provers a bundle can hold verdicts of


@dataclass
class Verdict:
    """A prover's verdict for one certificate; never `passed` unless it really ran.

    `timeout` means the prover ran out of time: nothing was established either way (unlike
    `failed`, a refutation or a rejected file)."""

    status: str
    message: str = ""
    seconds: float | None = None
    assumptions: list[str] = field(default_factory=list)


@dataclass
class Run:
    returncode: int | None  # None: timed out or could not start
    output: str
    seconds: float
    timed_out: bool = False
    stdout: str = ""  # the standard output alone (`output` is stdout then stderr)


_LIVE: set[subprocess.Popen[str]] = set()
_LOCK = threading.Lock()
_STOPPING = threading.Event()


def kill_all() -> None:
    """Kill every prover process still running and start no new one (Ctrl-C: no orphaned
    coqc or lake, no worker thread waiting for one); `resume()` undoes the latter."""
    with _LOCK:
        _STOPPING.set()
        procs = list(_LIVE)
    for p in procs:
        _kill(p)


def _kill(p: subprocess.Popen[str]) -> None:
    """Kill the process and everything it started (its own session: a wrapper script's
    children, lake's lean processes)."""
    try:
        os.killpg(p.pid, signal.SIGKILL)
    except OSError:
        try:
            p.kill()
        except OSError:
            pass


def resume() -> None:
    _STOPPING.clear()


def _address_space_limit(limit: int) -> Callable[[], None]:
    """A preexec_fn that caps the child's address space (RLIMIT_AS, soft and hard) at `limit`
    bytes: an allocation past it fails inside the prover (coqc: "Error: Out of memory.")
    instead of taking the machine. Only a system call between fork and exec."""

    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    return apply


def run(
    cmd: list[str],
    cwd: Path,
    timeout: float,
    memory_limit: int | None = None,
    env: dict[str, str] | None = None,
) -> Run:
    """Run a prover command in its own session, killed after `timeout` seconds; with
    `memory_limit` (bytes) under an address-space limit of that size; with `env` in that
    environment (default: this process's)."""
    t0 = time.monotonic()
    with _LOCK:
        if _STOPPING.is_set():
            return Run(None, "interrupted", 0.0)
        try:
            p = subprocess.Popen(
                cmd,
                cwd=cwd,
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                start_new_session=True,
                preexec_fn=None if memory_limit is None else _address_space_limit(memory_limit),
            )
        except OSError as e:
            return Run(None, f"could not run {cmd[0]}: {e}", time.monotonic() - t0)
        _LIVE.add(p)
    try:
        out, err = p.communicate(timeout=timeout)
        return Run(p.returncode, out + err, time.monotonic() - t0, stdout=out)
    except subprocess.TimeoutExpired:
        _kill(p)
        out, err = p.communicate()
        text = (out or "") + (err or "") + f"\n[timed out after {timeout:.0f} s]"
        return Run(None, text, time.monotonic() - t0, timed_out=True)
    except BaseException:
        _kill(p)
        p.wait()
        raise
    finally:
        with _LOCK:
            _LIVE.discard(p)
