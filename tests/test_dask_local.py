"""`certify run --executor dask` without `--scheduler`: the run starts a local Dask cluster
of `--workers` processes itself and stops it afterwards. The bundle is byte-identical to the
local executor's; an interrupted run leaves no worker, no coqc and no scratch directory
(nn-certify's or Dask's own dask-scratch-space) in its private $TMPDIR."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("distributed", reason="the dask extra is not installed")

from certify.bundle import walk_files  # noqa: E402
from tests.conftest import run_cli  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SPEC = """name = "dl"
[network]
family = "mlp"
bias = false
activation = "t^4"
[sweep]
widths = [[3, 4, 1], [2, 3, 1], [3, 5, 1]]
[[certificate]]
kind = "rank"
"""
# Tasks of a few seconds of coqc each (as tests/test_dask.py's): a Ctrl-C lands mid-task.
SLOW_SPEC = SPEC.replace("[[3, 4, 1], [2, 3, 1], [3, 5, 1]]", "[[4, 8, 1], [4, 9, 1], [4, 10, 1]]")
assert SLOW_SPEC != SPEC
pytestmark = pytest.mark.slow


def _files(b: Path) -> dict[str, bytes]:
    return {rel: (b / rel).read_bytes() for rel in walk_files(b) if not rel.startswith("logs/")}


def _popen(args: list[str], tmpdir: Path) -> subprocess.Popen[str]:
    env = dict(os.environ, TMPDIR=str(tmpdir))
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    # SIGINT with its default disposition, as at a terminal (an xdist worker may ignore it)
    return subprocess.Popen([sys.executable, "-m", "certify.cli", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=ROOT, env=env,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
                            )  # fmt: skip


def test_a_local_dask_cluster_gives_the_local_executors_bytes_and_leaves_no_scratch(tmp_path):
    (tmp_path / "dl.toml").write_text(SPEC)
    r = run_cli("run", str(tmp_path / "dl.toml"), "--out", str(tmp_path / "local"),
                "--no-lean", "--quiet")  # fmt: skip
    assert r.returncode == 0, r.stderr
    tmpdir = tmp_path / "tmp"
    tmpdir.mkdir()
    p = _popen(["run", str(tmp_path / "dl.toml"), "--out", str(tmp_path / "dask"), "--no-lean",
                "--executor", "dask", "--workers", "2"], tmpdir)  # fmt: skip
    out, err = p.communicate(timeout=600)
    assert p.returncode == 0, err
    assert "on dask local cluster of 2 workers" in err
    assert _files(tmp_path / "dask") == _files(tmp_path / "local")
    assert sorted(os.listdir(tmpdir)) == []  # no nn-certify-*, no dask-scratch-space


def _children(pid: int) -> list[int]:
    """Every process whose ancestry reaches `pid` (from /proc)."""
    parent = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                stat = Path(f"/proc/{d}/stat").read_text()
            except OSError:
                continue
            parent[int(d)] = int(stat.rsplit(")", 1)[1].split()[1])
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        kids = [c for c, pp in parent.items() if pp == p]
        out += kids
        todo += kids
    return out


def _coqc_of(tmpdir: Path) -> list[int]:
    """coqc processes working in `tmpdir` (they run in their own sessions, so not found as
    children once their worker is gone)."""
    found = []
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                cmd = Path(f"/proc/{d}/cmdline").read_bytes().decode(errors="replace")
                cwd = os.readlink(f"/proc/{d}/cwd")
            except OSError:
                continue
            if "coqc" in cmd and str(tmpdir) in cwd + cmd:
                found.append(int(d))
    return found


def test_ctrl_c_on_a_local_dask_run_stops_the_cluster_and_leaves_nothing(tmp_path):
    (tmp_path / "dl.toml").write_text(SLOW_SPEC)
    tmpdir = tmp_path / "tmp"
    tmpdir.mkdir()
    p = _popen(["run", str(tmp_path / "dl.toml"), "--out", str(tmp_path / "b"), "--no-lean",
                "--executor", "dask", "--workers", "2"], tmpdir)  # fmt: skip
    deadline = time.monotonic() + 300
    # Wait until a worker runs a task (its scratch directory appears; each task of SLOW_SPEC
    # is a few seconds of coqc, so it is still busy a second later).
    while time.monotonic() < deadline and p.poll() is None:
        if any(n.startswith("nn-certify-task-") for n in os.listdir(tmpdir)):
            break
        time.sleep(0.1)
    time.sleep(1.0)
    assert p.poll() is None, p.communicate()
    kids = _children(p.pid)
    assert kids, "the local cluster's worker processes"
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=120)
    assert p.returncode == 130, err
    assert "interrupted" in err and "Traceback" not in err
    assert sorted(os.listdir(tmpdir)) == []
    assert not (tmp_path / "b").exists()
    time.sleep(1)
    alive = [k for k in kids if Path(f"/proc/{k}").exists()
             and "Z" not in Path(f"/proc/{k}/stat").read_text().rsplit(")", 1)[1][:3]]  # fmt: skip
    assert alive == [] and _coqc_of(tmpdir) == []


def test_workers_without_a_local_dask_cluster_is_bad_input(tmp_path):
    (tmp_path / "dl.toml").write_text(SPEC)
    for extra in ([], ["--executor", "dask", "--scheduler", "tcp://127.0.0.1:9"]):
        r = run_cli("run", str(tmp_path / "dl.toml"), "--out", str(tmp_path / "b"), "--workers",
                    "2", *extra)  # fmt: skip
        assert r.returncode == 2 and "--workers" in r.stderr and "Traceback" not in r.stderr
        assert not (tmp_path / "b").exists()


# A SIGTERM that lands while the local cluster shuts down (just after the last task) must not
# leave the interpreter waiting for a half-closed cluster: it once hung for over an hour.
# The child runs trivial tasks through run_tasks under the CLI's own SIGTERM handler and has
# a timer thread signal it `delay` seconds after the last result, inside the shutdown window.
_SHUTDOWN_CHILD = """
import os, signal, sys, threading, time
from certify import cli, executor
signal.signal(signal.SIGTERM, cli._on_sigterm)
delay = float(sys.argv[1])
try:
    for n, (i, r) in enumerate(executor.run_tasks(abs, [(-k,) for k in range(3)], 2, "dask",
                                                  workers=2), 1):
        if n == 3:  # the last result: the generator's shutdown runs when the loop goes on
            threading.Timer(delay, os.kill, (os.getpid(), signal.SIGTERM)).start()
    time.sleep(30)  # the signal arrives here if the shutdown was quicker than `delay`
except cli.Terminated:
    sys.exit(143)
sys.exit(3)
"""


@pytest.mark.parametrize("delay", [0.0, 0.3])
def test_sigterm_during_the_local_clusters_shutdown_ends_the_process(tmp_path, delay):
    tmpdir = tmp_path / "tmp"
    tmpdir.mkdir()
    env = dict(os.environ, TMPDIR=str(tmpdir))
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    p = subprocess.Popen([sys.executable, "-c", _SHUTDOWN_CHILD, str(delay)], cwd=ROOT, env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)  # fmt: skip
    try:
        out, err = p.communicate(timeout=240)  # a liveness bound, not a speed budget
    except subprocess.TimeoutExpired:
        kids = _children(p.pid)
        p.kill()
        for k in kids:
            os.kill(k, signal.SIGKILL)
        pytest.fail("the process hung after a SIGTERM during the cluster's shutdown")
    assert p.returncode == 143, err
    assert "Traceback" not in err
    assert sorted(os.listdir(tmpdir)) == []
