"""Rank-witness benchmarks (issue: performance figures in the README).

    python benchmarks/bench_rank.py [--quick] [--out benchmarks/results.json]

Measures, each case in a fresh subprocess (so peak RSS is the case's own):
1. generation time and peak memory for MLPs with about 10^2, 10^3, 10^4 parameters;
2. the independent Python checker and coqc on rank certificates with r = 20, 50, 100;
3. sympy's exact rank of the same Jacobians as a baseline.
Not part of the test suite (timings never belong in timed tests).
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

ACT = "t^3 - 2*t + 1"
GENERATION = {  # widths -> #params (biases on)
    "1e2": [4, 10, 5, 1],  # 111
    "1e3": [20, 30, 12, 1],  # 1015
    "1e4": [60, 80, 40, 1],  # 8161
}
COQ = {"r20": [2, 3, 2, 1], "r50": [3, 5, 4, 1], "r100": [4, 8, 6, 1]}


def spec_for(widths: list[int]):
    from certify.spec import parse_spec

    return parse_spec(
        {
            "name": "bench-" + "-".join(map(str, widths)),
            "network": {"family": "mlp", "widths": widths, "activation": ACT, "bias": True},
            "parameters": {"seed": 1, "range": 3},
        },
        "<bench>",
    )


def case_generate(widths: list[int]) -> dict:
    from certify.families import generate_certificate

    spec = spec_for(widths)
    t0 = time.perf_counter()
    cert = generate_certificate(spec, spec.certificates[0])
    dt = time.perf_counter() - t0
    return {
        "params": spec.network.n_params,
        "rank": cert["result"]["rank_lower"],
        "generate_s": round(dt, 3),
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024,
    }


def case_sympy(widths: list[int]) -> dict:
    """Baseline: sympy's exact rank (DomainMatrix over QQ) of the exact sample Jacobian."""
    from sympy.polys.domains import QQ
    from sympy.polys.matrices import DomainMatrix

    from certify.families.polynomial.mlp_model import jacobian_rows

    spec = spec_for(widths)
    mlp = spec.network
    th = [int(t) for t in spec.theta]
    acts = [[int(c) for c in a] for a in mlp.activations]
    import random

    rng = random.Random(0)
    rows = []
    for _ in range(mlp.n_params + 3):
        x = [rng.randint(-20, 20) for _ in range(mlp.widths[0])]
        rows.extend(jacobian_rows(mlp, th, acts, x))
    t0 = time.perf_counter()
    dm = DomainMatrix([[QQ(v) for v in r] for r in rows], (len(rows), mlp.n_params), QQ)
    rank = dm.rank()
    return {
        "params": mlp.n_params,
        "sympy_rank": rank,
        "sympy_s": round(time.perf_counter() - t0, 3),
    }


def case_coq(widths: list[int]) -> dict:
    from certify import certificate
    from certify.checker import check_certificate
    from certify.families import generate_certificate
    from certify.families.polynomial.render_rank import render_coq
    from certify.provers import coq as coqp
    from certify.resources import resource_dir

    spec = spec_for(widths)
    cert = generate_certificate(spec, spec.certificates[0])
    t0 = time.perf_counter()
    problems = check_certificate(cert)
    checker_s = time.perf_counter() - t0
    with tempfile.TemporaryDirectory() as td:
        proj = Path(td) / "coq"
        shutil.copytree(resource_dir("coq"), proj, ignore=shutil.ignore_patterns("*.vo*"))
        (proj / "Certificates").mkdir(exist_ok=True)
        lib = coqp.build_library(proj, 600)
        (proj / "Certificates" / "B.v").write_text(render_coq(cert, certificate.sha256(cert)))
        v = coqp.check_file(proj, "Certificates/B.v", 1800)
    return {
        "params": spec.network.n_params,
        "r": cert["result"]["rank_lower"],
        "checker_ok": not problems,
        "checker_s": round(checker_s, 3),
        "coq_library_s": round(lib.seconds or 0, 3),
        "coq": v.status,
        "coqc_s": round(v.seconds or 0, 3),
    }


def run_case(kind: str, key: str, widths: list[int], timeout: float) -> dict:
    cmd = [sys.executable, __file__, "--case", kind, json.dumps(widths)]
    t0 = time.perf_counter()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=ROOT)
    except subprocess.TimeoutExpired:
        return {"case": key, "widths": widths, "error": f"timeout after {timeout:.0f} s"}
    if p.returncode != 0:
        return {"case": key, "widths": widths, "error": p.stderr.strip().splitlines()[-1:]}
    out = json.loads(p.stdout.strip().splitlines()[-1])
    out.update(case=key, widths=widths, wall_s=round(time.perf_counter() - t0, 2))
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--case", nargs=2)
    ap.add_argument("--quick", action="store_true", help="skip the 10^4 and sympy 10^3 cases")
    ap.add_argument("--timeout", type=float, default=900)
    ap.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results.json")
    a = ap.parse_args()
    if a.case:
        kind, widths = a.case[0], json.loads(a.case[1])
        fn = {"generate": case_generate, "sympy": case_sympy, "coq": case_coq}[kind]
        print(json.dumps(fn(widths)))
        return
    results: dict[str, list] = {"generation": [], "sympy": [], "coq": []}
    for key, w in COQ.items():
        results["coq"].append(run_case("coq", key, w, a.timeout))
        print(results["coq"][-1], flush=True)
    for key, w in GENERATION.items():
        if a.quick and key == "1e4":
            continue
        results["generation"].append(run_case("generate", key, w, a.timeout))
        print(results["generation"][-1], flush=True)
        # sympy's exact rank is cubic in pure Python: the 10^4 case is hopeless (10^3 already
        # takes minutes), so the baseline stops at 10^3 with a shorter limit.
        if key == "1e2" or (key == "1e3" and not a.quick):
            results["sympy"].append(run_case("sympy", key, w, min(a.timeout, 1200)))
            print(results["sympy"][-1], flush=True)
        a.out.write_text(json.dumps(results, indent=1) + "\n")
    a.out.write_text(json.dumps(results, indent=1) + "\n")


if __name__ == "__main__":
    main()
