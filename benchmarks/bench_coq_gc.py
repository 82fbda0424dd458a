"""coqc's OCaml GC settings, side by side on the same certificate files (issue 23).

Coq 8.16 sets its own GC policy only when OCAMLRUNPARAM is unset: a 256 MB minor heap
(32 M words), best-fit allocation, space_overhead 200 (coqinit.ml `init_gc`). Any value of
OCAMLRUNPARAM switches that off and takes OCaml's defaults for what it does not name. This
compiles the same files under each setting, interleaved (A B C A B C ...), and reports per
file the median user + system CPU seconds and the peak RSS of coqc (`os.wait4`), and the
ratio of each setting to Coq's own policy measured in the same run.

    python benchmarks/bench_coq_gc.py                # the small-certificate demo mix
    python benchmarks/bench_coq_gc.py --big           # + (20,30,12,1) t^2, rank 864
    python benchmarks/bench_coq_gc.py --settings 'unset;s=1M,o=200' --repeat 5

Files: one certificate per kind of the quick demo (`certify demo --quick --no-coq`), its
Audit.v driver (compiled after the certificates), and with --big one large rank
certificate. Results: benchmarks/results-coq-gc.json.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

from certify.provers import coq as coqp  # noqa: E402
from certify.resources import resource_dir  # noqa: E402

BIG_SPEC = """name = "big"
[network]
family = "mlp"
widths = [20, 30, 12, 1]
activation = "t^2"
bias = false
[[certificate]]
kind = "rank"
"""


def compile_once(coq: Path, lib: Path, rel: str, setting: str) -> tuple[float, float]:
    """(user + system CPU seconds, peak RSS in MB) of one coqc of `rel` under `setting`."""
    env = {k: v for k, v in os.environ.items() if k != "OCAMLRUNPARAM"}
    if setting != "unset":
        env["OCAMLRUNPARAM"] = setting
    p = subprocess.Popen(
        ["coqc", *coqp._flags(lib), rel], cwd=coq, env=env,
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )  # fmt: skip
    _, status, ru = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    err = p.stderr.read().decode() if p.stderr else ""
    if p.returncode != 0:
        raise SystemExit(f"coqc {rel} under {setting!r} failed: {err[-2000:]}")
    return ru.ru_utime + ru.ru_stime, ru.ru_maxrss / 1024


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--settings", default="unset;s=256k,o=120;s=1M,o=200;s=4M,o=200")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--big", action="store_true")
    ap.add_argument("--out", default=str(HERE / "results-coq-gc.json"))
    args = ap.parse_args()
    settings = args.settings.split(";")
    work = Path(tempfile.mkdtemp(prefix="nn-certify-gc-"))
    try:
        lib = coqp.prepare_library(resource_dir("coq"), work / "lib", coqp.default_cache_base(),
                                   1800)  # fmt: skip
        assert lib.verdict.status == "passed" and lib.root is not None, lib.verdict.message
        certify = [sys.executable, "-m", "certify.cli"]
        subprocess.run([*certify, "demo", "--quick", "--no-coq", "--no-lean", "--quiet",
                        "--out", str(work / "demo")], check=True, cwd=ROOT)  # fmt: skip
        coq = work / "demo" / "coq"
        files = sorted(f"Certificates/{p.name}" for p in (coq / "Certificates").glob("*.v"))
        if args.big:
            (work / "big.toml").write_text(BIG_SPEC)
            big = [*certify, "run", str(work / "big.toml"), "--no-coq", "--no-lean", "--quiet"]
            subprocess.run([*big, "--out", str(work / "big")], check=True, cwd=ROOT)
            shutil.copy(work / "big" / "coq" / "Certificates" / "Rank_big.v",
                        coq / "Certificates" / "Rank_big.v")  # fmt: skip
            files.append("Certificates/Rank_big.v")
        for rel in files:  # compiled once first: Audit.v requires every certificate
            compile_once(coq, lib.root, rel, "unset")
        files.append("Audit.v")
        runs: dict[str, dict[str, list[tuple[float, float]]]] = {
            s: {f: [] for f in files} for s in settings
        }
        for _ in range(args.repeat):
            for rel in files:
                for s in settings:  # interleaved: drift hits every setting alike
                    runs[s][rel].append(compile_once(coq, lib.root, rel, s))
        base = settings[0]
        table = {}
        for s in settings:
            per = {f: {"cpu": statistics.median(c for c, _ in v), "peak_mb": max(m for _, m in v)}
                   for f, v in runs[s].items()}  # fmt: skip
            small = [f for f in files if f not in ("Certificates/Rank_big.v",)]
            table[s] = {
                "files": per,
                "small_cpu_sum": sum(per[f]["cpu"] for f in small),
                "small_peak_mb": max(per[f]["peak_mb"] for f in small),
            }
        for s in settings:
            t = table[s]
            t["small_ratio"] = t["small_cpu_sum"] / table[base]["small_cpu_sum"]
            line = (
                f"{s:>16}: {len(files) - args.big} small files {t['small_cpu_sum']:.2f} s CPU "
                f"({t['small_ratio']:.2f}x {base}), peak {t['small_peak_mb']:.0f} MB"
            )
            if args.big:
                b = t["files"]["Certificates/Rank_big.v"]
                r = b["cpu"] / table[base]["files"]["Certificates/Rank_big.v"]["cpu"]
                line += f"; big {b['cpu']:.1f} s CPU ({r:.2f}x), peak {b['peak_mb']:.0f} MB"
            print(line)
        out = {"settings": settings, "repeat": args.repeat, "files": files, "results": table,
               "load": os.getloadavg()}  # fmt: skip
        Path(args.out).write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
