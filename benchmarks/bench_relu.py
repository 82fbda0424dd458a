"""ReLU rank benchmark (issue 5): widths (8, 16, 16, 1), D = 433 parameters, H = 32 hidden
neurons, target rank D - H = 401. Generation (batch design and minor), Python checker, render,
and coqc on the rendered certificate (a 401 x 401 minor recomputed by forward mode mod p).

    python benchmarks/bench_relu.py            # (8, 16, 16, 1)
    python benchmarks/bench_relu.py 4,8,8,1    # another architecture
"""

from __future__ import annotations

import json
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    from certify import certificate
    from certify.bundle import render_certificate
    from certify.checker import check_certificate
    from certify.families import generate_certificate
    from certify.provers import coq as coqp
    from certify.resources import resource_dir
    from certify.spec import parse_spec

    widths = [int(w) for w in sys.argv[1].split(",")] if len(sys.argv) > 1 else [8, 16, 16, 1]
    spec = parse_spec(
        {"name": "bench-relu", "network": {"family": "relu", "widths": widths},
         "parameters": {"seed": 1}},
        "<bench>",
    )  # fmt: skip
    t0 = time.perf_counter()
    cert = generate_certificate(spec, spec.certificates[0])
    gen = time.perf_counter() - t0
    print(f"generated in {gen:.2f} s: {cert['result']}", flush=True)
    t0 = time.perf_counter()
    problems = check_certificate(cert)
    chk = time.perf_counter() - t0
    print(f"checker in {chk:.2f} s: {problems or 'accepted'}", flush=True)
    t0 = time.perf_counter()
    it = render_certificate(cert)
    ren = time.perf_counter() - t0
    with tempfile.TemporaryDirectory() as td:
        proj = Path(td) / "coq"
        shutil.copytree(resource_dir("coq"), proj, ignore=shutil.ignore_patterns("*.vo*"))
        (proj / "Certificates").mkdir(exist_ok=True)
        coqp.build_library(proj, 600)
        (proj / "Certificates" / f"{it.module}.v").write_text(it.coq_text)
        v = coqp.check_file(proj, f"Certificates/{it.module}.v", 7200)
    r = cert["result"]
    out = {
        "widths": widths,
        "params": r["params"],
        "hidden": r["symmetry_dim"],
        "rank_lower": r["rank_lower"],
        "rank_upper_at_point": r["rank_upper_at_point"],
        "batch_size": r["batch_size"],
        "activation_patterns": r["activation_patterns"],
        "sha256": certificate.sha256(cert)[:16],
        "generate_s": round(gen, 2),
        "checker_ok": not problems,
        "checker_s": round(chk, 2),
        "render_s": round(ren, 2),
        "coq_file_mb": round(len(it.coq_text) / 1e6, 2),
        "coq": v.status,
        "coq_message": v.message[:300],
        "coqc_s": round(v.seconds or 0, 2),
        "peak_rss_mb_python": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
    }
    print(json.dumps(out, indent=1))
    name = "results-relu.json" if widths == [8, 16, 16, 1] else "results-relu-other.json"
    (ROOT / "benchmarks" / name).write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
