"""`certify run --executor dask` against a real local Dask cluster started here: a scheduler
and two worker processes (`python -m dask scheduler` / `python -m dask worker`), no mocks.
The bundle is byte-identical to a local run; a worker killed mid-task either has its task
re-run elsewhere (the bundle is still identical) or fails the run with no bundle at all."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("distributed", reason="the dask extra is not installed")
from distributed import Client  # noqa: E402

from certify.bundle import walk_files  # noqa: E402
from tests.conftest import run_cli  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
# Four certificates of a few seconds of coqc each: long enough to kill a worker mid-task.
SPEC = """name = "dk"
[network]
family = "mlp"
bias = false
activation = "t^4"
[sweep]
widths = [[4, 8, 1], [4, 9, 1], [3, 5, 1], [4, 10, 1]]
[[certificate]]
kind = "rank"
"""


def _env(**extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")  # this checkout
    env.update(extra)
    return env


class Cluster:
    def __init__(self, tmp: Path, allowed_failures: int) -> None:
        self.file = tmp / "scheduler.json"
        # The workers' TMPDIR: a worker SIGKILLed mid-task cannot remove its task's scratch
        # directory, so it is left here (removed by close) and not in the machine's /tmp.
        # Short (under /tmp, not tmp_path): sockets in it must fit AF_UNIX's 108 bytes.
        self.tmpdir = Path(tempfile.mkdtemp(prefix="nnc-dask-"))
        env = _env(DASK_DISTRIBUTED__SCHEDULER__ALLOWED_FAILURES=str(allowed_failures),
                   TMPDIR=str(self.tmpdir))  # fmt: skip
        common = {"env": env, "stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
        self.procs = [
            subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "dask",
                    "scheduler",
                    "--scheduler-file",
                    str(self.file),
                    "--port",
                    "0",
                    "--dashboard-address",
                    ":0",
                ],
                **common,
            )  # fmt: skip
        ]
        deadline = time.monotonic() + 60
        while not self.file.is_file() and time.monotonic() < deadline:
            time.sleep(0.2)
        for i in range(2):
            self.procs.append(
                subprocess.Popen(
                    [
                        sys.executable,
                        "-m",
                        "dask",
                        "worker",
                        "--scheduler-file",
                        str(self.file),
                        "--nthreads",
                        "1",
                        "--no-nanny",
                        "--name",
                        f"w{i}",
                        "--dashboard-address",
                        ":0",
                    ],
                    **common,
                )  # fmt: skip
            )
        self.address = json.loads(self.file.read_text())["address"]
        self.client = Client(self.address, timeout=60)
        self.client.wait_for_workers(2, timeout=120)

    def close(self) -> None:
        self.client.close()
        for p in reversed(self.procs):
            if p.poll() is None:
                p.terminate()
        # A graceful Dask shutdown is not under test: a process still up 5 s after SIGTERM (a
        # scheduler waiting out its workers' heartbeats took 20 s) is killed.
        deadline = time.monotonic() + 5
        for p in self.procs:
            try:
                p.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        shutil.rmtree(self.tmpdir, ignore_errors=True)

    def kill_a_busy_worker(self, timeout: float = 120) -> bool:
        """SIGKILL the process of a worker while it runs an nn-certify task."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            busy = [w for w, keys in self.client.processing().items()
                    if any(str(k).startswith("nn-certify-task-") for k in keys)]  # fmt: skip
            if busy:
                time.sleep(0.5)  # let the task get into its coqc
                name = self.client.scheduler_info()["workers"][busy[0]]["name"]
                os.kill(self.procs[1 + int(str(name)[1:])].pid, signal.SIGKILL)  # w0, w1
                return True
            time.sleep(0.05)
        return False


@pytest.fixture
def cluster(tmp_path: Path, request) -> Iterator[Cluster]:
    c = Cluster(tmp_path, getattr(request, "param", 3))
    try:
        yield c
    finally:
        c.close()


def _files(b: Path) -> dict[str, bytes]:
    return {rel: (b / rel).read_bytes() for rel in walk_files(b) if not rel.startswith("logs/")}


@pytest.fixture(scope="module")
def local_bundle(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("local")
    (d / "dk.toml").write_text(SPEC)
    r = run_cli("run", str(d / "dk.toml"), "--out", str(d / "b"), "--no-lean", "--quiet")
    assert r.returncode == 0, r.stderr
    return d / "b"


def _run_dask(spec_dir: Path, out: Path, address: str) -> subprocess.Popen[str]:
    (spec_dir / "dk.toml").write_text(SPEC)
    return subprocess.Popen(
        [sys.executable, "-m", "certify.cli", "run", str(spec_dir / "dk.toml"), "--out",
         str(out), "--no-lean", "--executor", "dask", "--scheduler", address],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT, env=_env(),
    )  # fmt: skip


def test_a_dask_run_gives_the_same_bytes_as_a_local_run(cluster, local_bundle, tmp_path):
    p = _run_dask(tmp_path, tmp_path / "b", cluster.address)
    out, err = p.communicate(timeout=600)
    assert p.returncode == 0, err
    assert "on dask tcp:" in err
    assert _files(tmp_path / "b") == _files(local_bundle)
    m = json.loads((tmp_path / "b" / "manifest.json").read_text())
    assert all(e["verdicts"]["coq"] == "passed" for e in m["certificates"])


def test_a_worker_killed_mid_task_has_its_task_rerun_and_the_bundle_is_unchanged(
    cluster, local_bundle, tmp_path
):
    p = _run_dask(tmp_path, tmp_path / "b", cluster.address)
    assert cluster.kill_a_busy_worker()
    out, err = p.communicate(timeout=600)
    assert p.returncode == 0, err
    assert _files(tmp_path / "b") == _files(local_bundle)


@pytest.mark.parametrize("cluster", [0], indirect=True)  # allowed-failures = 0
def test_a_worker_killed_mid_task_without_retries_leaves_no_bundle(cluster, tmp_path):
    p = _run_dask(tmp_path, tmp_path / "b", cluster.address)
    assert cluster.kill_a_busy_worker()
    out, err = p.communicate(timeout=600)
    assert p.returncode == 1, out + err
    assert "no bundle written" in err and "Traceback" not in err
    assert not (tmp_path / "b").exists()
    assert not list(tmp_path.glob(".b.partial-*"))


def test_dask_with_a_dead_scheduler_is_a_clear_error(tmp_path):
    # (without --scheduler the run starts a local cluster: tests/test_dask_local.py)
    (tmp_path / "s.toml").write_text(SPEC)
    env = dict(os.environ, DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT="2s")  # Dask's setting
    r = subprocess.run([sys.executable, "-m", "certify.cli", "run", str(tmp_path / "s.toml"),
                        "--out", str(tmp_path / "b"), "--executor", "dask", "--scheduler",
                        "tcp://127.0.0.1:9"], capture_output=True, text=True, env=env)  # fmt: skip
    assert r.returncode == 1 and "cannot connect" in r.stderr and "Traceback" not in r.stderr
    assert "2s" in r.stderr or "2 s" in r.stderr or "Timed out" in r.stderr, r.stderr
    assert not (tmp_path / "b").exists()
