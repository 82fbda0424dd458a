"""Progress: a tqdm bar on an interactive terminal, timestamped lines when stderr is not a
terminal, nothing with --quiet; and the process pool gives the same bundle as one process."""

from __future__ import annotations

import fcntl
import os
import pty
import re
import struct
import subprocess
import sys
import termios
from pathlib import Path

from certify.bundle import walk_files
from tests.conftest import run_cli

ROOT = Path(__file__).resolve().parents[1]
SPEC = """name = "pg"
[network]
family = "mlp"
bias = false
[sweep]
widths = [[2, 2, 1], [3, 2, 1], [2, 3, 1]]
activation = ["t^2", "t^3"]
"""


def _spec(tmp: Path) -> Path:
    p = tmp / "pg.toml"
    p.write_text(SPEC)
    return p


def test_without_a_terminal_every_finished_task_is_one_timestamped_line(tmp_path: Path):
    # --no-coq: what is printed per task does not depend on the provers (the coqc phase
    # lines: tests/test_report.py); the pool test below runs coqc
    r = run_cli("run", str(_spec(tmp_path)), "--out", str(tmp_path / "b"), "--no-lean", "--no-coq")
    assert r.returncode == 0, r.stderr
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert lines and all(re.match(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ \[certify\] ", ln)
                         for ln in lines)  # fmt: skip
    done = [ln for ln in lines if re.search(r"\] \d+/6 pg-", ln)]
    assert len(done) == 6 and done[-1].split("] ")[1].startswith("6/6 ")


def test_quiet_prints_nothing_on_stderr(tmp_path: Path):
    r = run_cli("run", str(_spec(tmp_path)), "--out", str(tmp_path / "b"), "--no-lean", "--no-coq",
                "--quiet")  # fmt: skip
    assert r.returncode == 0 and r.stderr == ""
    assert "bundle written" in r.stdout


def test_on_a_terminal_a_progress_bar_counts_the_tasks(tmp_path: Path):
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))  # 24 x 100
    env = dict(os.environ, PYTHONPATH=str(ROOT), COLUMNS="100")
    p = subprocess.Popen(
        [sys.executable, "-m", "certify.cli", "run", str(_spec(tmp_path)), "--out",
         str(tmp_path / "b"), "--no-lean", "--no-coq"],
        stdout=subprocess.DEVNULL, stderr=follower, stdin=subprocess.DEVNULL, env=env, cwd=ROOT,
    )  # fmt: skip
    os.close(follower)
    chunks = []
    while True:
        try:
            data = os.read(leader, 4096)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    os.close(leader)
    assert p.wait(timeout=300) == 0
    text = b"".join(chunks).decode(errors="replace")
    assert "6/6" in text and ("task/s" in text or "s/task" in text), text
    assert "\r" in text  # redrawn in place
    assert not re.search(r"^\d{4}-\d\d-\d\dT", text, re.M)  # no timestamps on a terminal


def test_a_pool_of_two_jobs_writes_the_same_bundle_as_one_process(tmp_path: Path):
    # three tasks with coqc (more than the pool's two workers, so they finish out of order)
    spec = tmp_path / "pool.toml"
    spec.write_text(SPEC.replace('activation = ["t^2", "t^3"]', 'activation = ["t^2"]'))
    for j in ("1", "2"):
        r = run_cli("run", str(spec), "--out", str(tmp_path / j), "--jobs", j, "--quiet")
        assert r.returncode == 0, r.stderr

    def files(b: Path) -> dict[str, bytes]:
        return {rel: (b / rel).read_bytes() for rel in walk_files(b) if not rel.startswith("logs/")}

    assert files(tmp_path / "1") == files(tmp_path / "2")
