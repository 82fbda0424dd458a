"""Throughput of a sweep: 100 small rank certificates (<= 30 parameters each), with coqc.

    python benchmarks/bench_sweep.py [--runs 3] [--count 100]

Three configurations of the same `certify run SWEEP --no-lean --quiet`, each timed as a whole
process by farm-bench (median of --runs, after one warm-up; falls back to one timed run
per configuration without it): --jobs 1 (the baseline, measured in the same call), --jobs 2
(farm-bench --vs pairs it with --jobs 1, so the ratio is taken run by run), and --executor
dask on a local cluster of a scheduler and two single-threaded worker processes started
here (the workers' CPU seconds, which farm-bench cannot see, are read from /proc through
psutil). Certificates per minute = count / median wall seconds. The NNCert Coq library is
compiled once per installation (the cache), never per bundle. Writes results-sweep.json."""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ACTS = ["t^2", "t^3", "t^2 + t", "t^3 - t"]


def params(widths: list[int], bias: bool) -> int:
    return sum(a * b + (b if bias else 0) for a, b in zip(widths, widths[1:]))


def sweep_text(count: int) -> str:
    """[[sweep]] tables of one instance each: the first `count` (widths, activation, bias)
    with <= 30 parameters, in a fixed order."""
    shapes = [[a, b, 1] for a in range(1, 5) for b in range(1, 6)]
    shapes += [[a, b, c, 1] for a in range(1, 4) for b in range(1, 4) for c in range(1, 4)]
    rows = [(w, act, bias) for w in shapes for bias in (False, True) for act in ACTS
            if params(w, bias) <= 30]  # fmt: skip
    if len(rows) < count:
        raise SystemExit(f"only {len(rows)} architectures of <= 30 parameters")
    lines = ['name = "bench"', "[network]", 'family = "mlp"']
    for w, act, bias in rows[:count]:
        lines += ["[[sweep]]", f"widths = [{list(w)}]", f'activation = ["{act}"]',
                  f"bias = [{str(bias).lower()}]"]  # fmt: skip
    lines += ["[[certificate]]", 'kind = "rank"']
    return "\n".join(lines) + "\n"


def farm_bench(cmd: list[str], runs: int, vs: list[str] | None, timeout: int) -> str:
    fb = [shutil.which("farm-bench") or "farm-bench", "-n", str(runs), "--timeout", str(timeout)]
    if vs is not None:
        fb += ["--vs", " ".join(vs)]
    r = subprocess.run(fb + ["--", *cmd], capture_output=True, text=True, cwd=ROOT)
    return r.stdout + r.stderr


def medians(text: str) -> dict[str, float]:
    """'A wall s  min median max' lines -> {'A wall s': median}."""
    out = {}
    for line in text.splitlines():
        m = re.match(r"^((?:A|B|A/B) [a-z/ ]+?(?:s|MiB)?)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)", line)
        if m:
            out[m.group(1).strip()] = float(m.group(3))
    return out


def timed_once(cmd: list[str]) -> dict[str, float]:
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.monotonic()
    subprocess.run(cmd, check=True, cwd=ROOT, stdout=subprocess.DEVNULL)
    wall = time.monotonic() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"A wall s": wall, "A cpu s": cpu, "A peak MiB": after.ru_maxrss / 1024}


class LocalCluster:
    """A scheduler and two single-threaded worker processes, as `dask scheduler` and
    `dask worker` would start them on two machines."""

    def __init__(self, tmp: Path) -> None:
        f = tmp / "scheduler.json"
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        quiet = {"env": env, "stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
        self.procs = [subprocess.Popen([sys.executable, "-m", "dask", "scheduler",
                                        "--scheduler-file", str(f), "--port", "0",
                                        "--dashboard-address", ":0"], **quiet)]  # fmt: skip
        while not f.is_file():
            time.sleep(0.2)
        for i in range(2):
            self.procs.append(subprocess.Popen([sys.executable, "-m", "dask", "worker",
                                                "--scheduler-file", str(f), "--nthreads", "1",
                                                "--no-nanny", "--name", f"w{i}",
                                                "--dashboard-address", ":0"], **quiet))  # fmt: skip
        self.address = json.loads(f.read_text())["address"]
        from distributed import Client

        with Client(self.address, timeout=60) as c:
            c.wait_for_workers(2, timeout=120)

    def worker_cpu(self) -> float:
        import psutil

        total = 0.0
        for p in self.procs[1:]:
            t = psutil.Process(p.pid).cpu_times()
            total += t.user + t.system + t.children_user + t.children_system
        return total

    def close(self) -> None:
        for p in reversed(self.procs):
            p.terminate()
        for p in self.procs:
            try:
                p.wait(timeout=30)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--timeout", type=int, default=3000)
    a = ap.parse_args()
    have_fb = shutil.which("farm-bench") is not None
    with tempfile.TemporaryDirectory(prefix="nn-certify-bench-") as td:
        tmp = Path(td)
        spec = tmp / "sweep.toml"
        spec.write_text(sweep_text(a.count))
        base = [sys.executable, "-m", "certify.cli", "run", str(spec), "--no-lean", "--quiet",
                "--force"]  # fmt: skip
        j1 = base + ["--out", str(tmp / "j1"), "--jobs", "1"]
        j2 = base + ["--out", str(tmp / "j2"), "--jobs", "2"]
        quiet = {"check": True, "cwd": ROOT, "stdout": subprocess.DEVNULL}
        subprocess.run(j1, **quiet)  # warms the Coq library cache
        results: dict[str, object] = {"count": a.count, "runs": a.runs,
                                      "load_before": os.getloadavg()}  # fmt: skip
        out = Path(__file__).with_name("results-sweep.json")
        if have_fb:
            text = farm_bench(j2, a.runs, j1, a.timeout)
            results["jobs2_vs_jobs1"] = {"farm_bench": text, "medians": medians(text)}
            print(text, flush=True)
            out.write_text(json.dumps(results, indent=1, sort_keys=True) + "\n")  # so far
        else:
            results["jobs1"] = {"medians": timed_once(j1)}
            results["jobs2"] = {"medians": timed_once(j2)}
        cluster = LocalCluster(tmp)
        try:
            dk = base + ["--out", str(tmp / "dk"), "--executor", "dask", "--scheduler",
                         cluster.address]  # fmt: skip
            subprocess.run(dk, **quiet)  # warm-up: the workers import the tool
            c0 = cluster.worker_cpu()
            if have_fb:
                text = farm_bench(dk, a.runs, None, a.timeout)
                results["dask2"] = {"farm_bench": text, "medians": medians(text)}
            else:
                results["dask2"] = {"medians": timed_once(dk)}
            # farm-bench also runs one warm-up, which the workers' CPU includes
            results["dask2"]["worker_cpu_s_per_run"] = (cluster.worker_cpu() - c0) / (
                a.runs + 1 if have_fb else 1
            )
        finally:
            cluster.close()
        same = all(
            (tmp / "j1" / rel).read_bytes() == (tmp / "dk" / rel).read_bytes()
            for rel in ("results.csv", "manifest.json", "report.md")
        )
        results["dask_bundle_identical_to_jobs1"] = same
        results["load_after"] = os.getloadavg()
    out.write_text(json.dumps(results, indent=1, sort_keys=True) + "\n")
    for k in ("jobs2_vs_jobs1", "jobs1", "jobs2", "dask2"):
        if k in results:
            print(
                k, json.dumps(results[k].get("medians")), results[k].get("worker_cpu_s_per_run", "")
            )  # type: ignore[union-attr]
    print(f"written to {out}")


if __name__ == "__main__":
    main()
