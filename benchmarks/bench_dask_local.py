"""`certify run --executor dask` on the local cluster the run starts itself: --workers 2
against --workers 1 on 8 small rank certificates (one spec file each, <= 20 parameters,
with coqc, --no-lean), and the local executor's --jobs 2 for reference.

    nice python benchmarks/bench_dask_local.py [--runs 3]

Each configuration runs as a whole `certify run` process; wall seconds are measured around
it, CPU seconds are the user + system time of the process and of every descendant
(getrusage(RUSAGE_CHILDREN) deltas; this script is a child subreaper, so descendants
orphaned on the way, such as the pool's forkserver and its workers, are reaped here and
counted too).
The runs alternate between configurations (after one warm-up each), so a change in the
machine's load hits them alike; the median of --runs is reported. The NNCert Coq library
comes from the cache. Writes results-dask-local.json."""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WIDTHS = [[2, 3, 1], [3, 2, 1], [3, 3, 1], [2, 4, 1], [3, 4, 1], [4, 2, 1], [2, 5, 1], [4, 3, 1]]
CONFIGS = {
    "dask --workers 1": ["--executor", "dask", "--workers", "1"],
    "dask --workers 2": ["--executor", "dask", "--workers", "2"],
    "local --jobs 2": ["--jobs", "2"],
}


def spec_text(i: int, widths: list[int]) -> str:
    return (f'name = "bd{i}"\n[network]\nfamily = "mlp"\nwidths = {widths}\nbias = false\n'
            'activation = "t^4"\n[[certificate]]\nkind = "rank"\n')  # fmt: skip


def one_run(specs: list[Path], out: Path, extra: list[str]) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    r = subprocess.run([sys.executable, "-m", "certify.cli", "run", *map(str, specs), "--out",
                        str(out), "--no-lean", "--quiet", *extra], capture_output=True,
                       text=True, cwd=ROOT)  # fmt: skip
    wall = time.monotonic() - t0
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:  # reap the orphaned descendants (subreaper)
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            break
        if pid == 0:
            time.sleep(0.1)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if r.returncode != 0:
        sys.exit(f"certify run {' '.join(extra)} failed ({r.returncode}):\n{r.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    a = ap.parse_args()
    PR_SET_CHILD_SUBREAPER = 36
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    with tempfile.TemporaryDirectory(prefix="bench-dask-local-") as td:
        d = Path(td)
        specs = []
        for i, w in enumerate(WIDTHS):
            specs.append(d / f"bd{i}.toml")
            specs[-1].write_text(spec_text(i, w))
        res: dict[str, list[tuple[float, float]]] = {k: [] for k in CONFIGS}
        for rnd in range(a.runs + 1):  # round 0: warm-up
            for name, extra in CONFIGS.items():
                out = d / f"out-{rnd}-{len(res[name])}-{name.replace(' ', '_')}"
                wall, cpu = one_run(specs, out, extra)
                print(f"round {rnd} {name}: wall {wall:.1f} s, cpu {cpu:.1f} s", flush=True)
                if rnd:
                    res[name].append((wall, cpu))
    summary = {
        name: {
            "wall_median_s": round(statistics.median(w for w, _ in runs), 2),
            "cpu_median_s": round(statistics.median(c for _, c in runs), 2),
            "runs": [[round(w, 2), round(c, 2)] for w, c in runs],
        }
        for name, runs in res.items()
    }
    one, two = summary["dask --workers 1"], summary["dask --workers 2"]
    summary["speedup_wall_2_vs_1"] = round(one["wall_median_s"] / two["wall_median_s"], 2)
    doc = {
        "certificates": len(WIDTHS),
        "widths": WIDTHS,
        "cores": os.cpu_count(),
        "load_average_at_end": [round(x, 2) for x in os.getloadavg()],
        "results": summary,
    }
    (ROOT / "benchmarks" / "results-dask-local.json").write_text(json.dumps(doc, indent=1) + "\n")
    print(json.dumps(doc, indent=1))


if __name__ == "__main__":
    main()
