"""Rank certificates at scale against the uncertified answer, measured in one run.

    python benchmarks/bench_scale.py                 # ~10^2 and ~10^3 parameters
    python benchmarks/bench_scale.py --sizes 1e2,1e3,3e3,8e3 --coq-max-rank 1200

For each case (sigma = t^2 without bias, sigma = t^3 + t with bias) and each size, in fresh
subprocesses (so CPU seconds and peak RSS are the case's own):
- baseline: the Kileel-Trager-Bruna recipe, written here: random weights mod p, reverse-mode
  gradients at sample points (numpy int64, exact below 2^31), FLINT nmod_mat.rank;
- certify: generation, the Python checker (vectorised path; skipped above --checker-max-rank),
  rendering, coqc on the .v file (skipped above --coq-max-rank: the elimination costs r^3/3
  and the rows r * n).
Ratios are against the baseline of the same run (the machines are shared and noisy).
Not part of the test suite.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CASES = {  # size -> widths
    "1e2": [4, 10, 5, 1],
    "1e3": [20, 30, 12, 1],
    "3e3": [30, 60, 20, 1],
    "8e3": [60, 80, 40, 1],
}
ACTS = {"t2-nobias": ("t^2", False), "t3+t-bias": ("t^3 + t", True)}
COEFFS = {"t^2": [0, 0, 1], "t^3 + t": [0, 1, 0, 1]}  # constant term first
P = 2147483647


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    c = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime + c.ru_utime + c.ru_stime


def _rss_mb() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024


def baseline(widths: list[int], act: str, bias: bool) -> dict:
    """Uncertified rank: random weights mod p, backpropagated gradients, FLINT rank."""
    import numpy as np
    from flint import nmod_mat

    cs = COEFFS[act]
    rng = np.random.default_rng(0)
    b = 1 if bias else 0
    Ws = [
        rng.integers(0, P, size=(d, prev + b), dtype=np.int64)
        for prev, d in zip(widths, widths[1:])
    ]
    n = sum(W.size for W in Ws)
    m = -(-n // widths[-1]) + 3
    t0 = time.perf_counter()
    c0 = _cpu()

    def mm(A, B):  # exact A @ B mod P (16-bit split)
        return (((A >> 16) @ B % P) * 65536 % P + (A & 0xFFFF) @ B % P) % P

    H = rng.integers(-20, 21, size=(m, widths[0]), dtype=np.int64) % P
    HBs, DVs = [], []
    for ell, W in enumerate(Ws):
        HB = np.hstack([H, np.ones((m, 1), dtype=np.int64)]) if bias else H
        HBs.append(HB)
        if ell == len(Ws) - 1:
            break
        pre = mm(HB, W.T.copy())
        s = np.zeros_like(pre)
        ds = np.zeros_like(pre)
        for c in reversed(cs):
            s, ds = (c % P + pre * s) % P, (pre * ds + s) % P
        H = s
        DVs.append(ds)
    G = np.ones((m, 1), dtype=np.int64)
    blocks = []
    for ell in range(len(Ws) - 1, -1, -1):
        blocks.append(((G[:, :, None] * HBs[ell][:, None, :]) % P).reshape(m, -1))
        if ell:
            G = mm(G, Ws[ell][:, : widths[ell]].copy()) * DVs[ell - 1] % P
    J = np.hstack(blocks[::-1])
    rank = nmod_mat(J.tolist(), P).rank()
    return {"params": n, "rank": rank, "wall_s": time.perf_counter() - t0, "cpu_s": _cpu() - c0,
            "peak_rss_mb": _rss_mb()}  # fmt: skip


def certified(
    widths: list[int], act: str, bias: bool, coq_max_rank: int, checker_max_rank: int
) -> dict:
    from certify import certificate
    from certify.checker import check_certificate
    from certify.families import generate_certificate
    from certify.families.mlp.render_rank import render_coq
    from certify.spec import parse_spec

    spec = parse_spec(
        {"name": "scale", "network": {"family": "mlp", "widths": widths, "activation": act,
                                      "bias": bias},
         "parameters": {"seed": 1}, "certificate": [{"kind": "rank"}]}, "<bench>",
    )  # fmt: skip
    out: dict = {"params": spec.network.n_params}
    c0, t0 = _cpu(), time.perf_counter()
    cert = generate_certificate(spec, spec.certificates[0])
    out["generate_s"], out["generate_cpu_s"] = time.perf_counter() - t0, _cpu() - c0
    out["rank_lower"] = cert["result"]["rank_lower"]
    out["rank_upper"] = cert["result"]["rank_upper_at_point"]
    if out["rank_lower"] <= checker_max_rank:
        t0 = time.perf_counter()
        problems = check_certificate(cert)
        out["checker_s"] = time.perf_counter() - t0
        out["checker"] = "passed" if not problems else problems
    else:
        out["checker"] = f"skipped (r > --checker-max-rank {checker_max_rank})"
    t0 = time.perf_counter()
    text = render_coq(cert, certificate.sha256(cert))
    out["render_s"], out["coq_file_mb"] = time.perf_counter() - t0, len(text) / 1e6
    if out["rank_lower"] <= coq_max_rank:
        with tempfile.TemporaryDirectory() as d:
            Path(d, "C.v").write_text(text)
            lib = ROOT / "coq"
            for mod in ("Lists", "Arith", "Net", "RankCore", "Rank"):
                subprocess.run(["coqc", "-q", "-R", "NNCert", "NNCert", f"NNCert/{mod}.v"],
                               cwd=lib, capture_output=True)  # fmt: skip
            t0 = time.perf_counter()
            r = subprocess.run(["coqc", "-q", "-R", str(lib / "NNCert"), "NNCert", "C.v"], cwd=d,
                               capture_output=True, text=True)  # fmt: skip
            out["coqc_s"] = time.perf_counter() - t0
            out["coq"] = "passed" if r.returncode == 0 else r.stdout[-500:]
    else:
        out["coq"] = f"skipped (r > --coq-max-rank {coq_max_rank})"
    out["cpu_s"], out["peak_rss_mb"] = _cpu() - c0, _rss_mb()
    return out


def _child(kind: str, size: str, case: str, coq_max_rank: int, checker_max_rank: int) -> dict:
    code = (f"import json,sys; sys.path.insert(0,{str(ROOT)!r}); "
            "import benchmarks.bench_scale as B; "
            f"print(json.dumps(B.{kind}(B.CASES[{size!r}], *B.ACTS[{case!r}]"
            + (f", {coq_max_rank}, {checker_max_rank}" if kind == "certified" else "")
            + ")))")  # fmt: skip
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    if r.returncode:
        return {"error": r.stderr[-1000:]}
    return json.loads(r.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="1e2,1e3")
    ap.add_argument("--coq-max-rank", type=int, default=1200)
    ap.add_argument("--checker-max-rank", type=int, default=9000)
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "results-scale.json"))
    a = ap.parse_args()
    rows = []
    for size in a.sizes.split(","):
        for case in ACTS:
            base = _child("baseline", size, case, a.coq_max_rank, a.checker_max_rank)
            cert = _child("certified", size, case, a.coq_max_rank, a.checker_max_rank)
            row = {"size": size, "case": case, "widths": CASES[size], "baseline": base,
                   "certify": cert}  # fmt: skip
            if "cpu_s" in base and "cpu_s" in cert:
                row["ratio_cpu"] = round(cert["cpu_s"] / max(base["cpu_s"], 1e-3), 1)
                row["ratio_generate"] = round(cert["generate_cpu_s"] / max(base["cpu_s"], 1e-3), 1)
            rows.append(row)
            print(json.dumps(row), flush=True)
    Path(a.out).write_text(json.dumps(rows, indent=1) + "\n")


if __name__ == "__main__":
    main()
