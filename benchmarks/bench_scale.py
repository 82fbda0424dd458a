"""Rank certificates at scale against the uncertified answer, measured in one run.

    python benchmarks/bench_scale.py                 # ~10^2 and ~10^3 parameters
    python benchmarks/bench_scale.py --sizes 1e2,1e3,3e3,8e3 --coq-max-rank 1200
    python benchmarks/bench_scale.py --cases mlp-972,mlp-2520,relu-850 --timeout 1800
    python benchmarks/bench_scale.py --cases mlp-8e3,mlp-1e4 --no-coq

--cases (names in NAMED, or all) prints each phase's CPU seconds (generate, checker, render,
coqc, total) and peak RSS next to the baseline's, with the ratio; --sizes is the older table.

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


def baseline(widths: list[int], act: str, bias: bool, with_checker_rank: bool = False) -> dict:
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
    out = {"params": n, "rank": rank, "wall_s": time.perf_counter() - t0, "cpu_s": _cpu() - c0,
           "peak_rss_mb": _rss_mb()}  # fmt: skip
    if with_checker_rank:  # the checker's elimination of the same matrix (after the timing)
        from certify.checker.fast.rank import rank_blocked

        c1 = _cpu()
        out["checker_rank"] = rank_blocked(J, P)
        out["checker_rank_cpu_s"] = _cpu() - c1
    return out


def certified(
    widths: list[int], act: str, bias: bool, coq_max_rank: int, checker_max_rank: int
) -> dict:
    from certify import certificate
    from certify.checker import check_certificate
    from certify.families import generate_certificate
    from certify.families.polynomial.render_rank import render_coq
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
            from certify.provers.coq_library import LIBRARY

            for mod in LIBRARY:  # the whole library: the file ends in the meaning theorems
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


# ---------------------------------------------------------------- named cases (issue 23 item 5)
NAMED = {  # name -> (family, widths, activation, bias)
    "mlp-972": ("mlp", [20, 30, 12, 1], "t^2", False),
    "mlp-2520": ("mlp", [30, 50, 20, 1], "t^2", False),
    "relu-850": ("relu", [10, 20, 20, 10], "relu", True),
    "mlp-8e3": ("mlp", [60, 80, 40, 1], "t^2", False),
    "mlp-1e4": ("mlp", [60, 105, 40, 1], "t^2", False),
}


def baseline_relu(widths: list[int]) -> dict:
    """The float recipe: Gaussian weights and inputs, the batch Jacobian by reverse mode in
    float64, numpy SVD rank (uncertified; the rank tolerance is numpy's default)."""
    import numpy as np

    rng = np.random.default_rng(0)
    Ws = [rng.standard_normal((d, prev + 1)) for prev, d in zip(widths, widths[1:])]
    n = sum(W.size for W in Ws)
    dout = widths[-1]
    m = -(-n // dout) + 3
    c0 = _cpu()
    H = rng.standard_normal((m, widths[0]))
    HBs, DVs = [], []
    for ell, W in enumerate(Ws):
        HB = np.hstack([H, np.ones((m, 1))])
        HBs.append(HB)
        if ell == len(Ws) - 1:
            break
        pre = HB @ W.T
        H, dv = np.maximum(pre, 0), (pre > 0).astype(np.float64)
        DVs.append(dv)
    rows = []
    for k in range(dout):
        G = np.zeros((m, dout))
        G[:, k] = 1
        blocks = []
        for ell in range(len(Ws) - 1, -1, -1):
            blocks.append((G[:, :, None] * HBs[ell][:, None, :]).reshape(m, -1))
            if ell:
                G = (G @ Ws[ell][:, : widths[ell]]) * DVs[ell - 1]
        rows.append(np.hstack(blocks[::-1]))
    rank = int(np.linalg.matrix_rank(np.vstack(rows)))
    return {"params": n, "rank": rank, "cpu_s": _cpu() - c0, "peak_rss_mb": _rss_mb()}


def baseline_named(name: str) -> dict:
    """The baseline of a named case; for the MLP cases also the checker's elimination
    (fast.rank_blocked) of the same Jacobian, for the elimination ratio."""
    family, widths, act, bias = NAMED[name]
    if family == "relu":
        return baseline_relu(widths)
    return baseline(widths, act, bias, with_checker_rank=True)


def certified_named(name: str, coq: bool, timeout: float) -> dict:
    """Every phase of the certified path in this process: generate, checker, render (CPU
    seconds each, measured here), then, unless coq is off, the pipeline (certify.api.run,
    Lean off) on the same spec for coqc: its seconds are logs/timings.json's (wall; coqc is
    one single-threaded process), its verdict the manifest's (timeout included)."""
    from certify import api, certificate
    from certify.checker import check_certificate
    from certify.families import generate_certificate
    from certify.spec import parse_spec

    family, widths, act, bias = NAMED[name]
    net = {"family": family, "widths": widths, "activation": act, "bias": bias}
    if family == "relu":
        net = {"family": "relu", "widths": widths}
    raw = {"name": "scale", "network": net, "parameters": {"seed": 1},
           "certificate": [{"kind": "rank"}]}  # fmt: skip
    spec = parse_spec(raw, "<bench>")
    out: dict = {"params": spec.network.n_params}
    c0 = _cpu()
    cert = generate_certificate(spec, spec.certificates[0])
    c1 = _cpu()
    problems = check_certificate(cert)
    c2 = _cpu()
    if family == "relu":
        from certify.families.relu.render import render_files

        render_files(cert, certificate.sha256(cert))
    else:
        from certify.families.polynomial.render_rank import render_coq

        render_coq(cert, certificate.sha256(cert))
    c3 = _cpu()
    out.update(generate=c1 - c0, checker=c2 - c1, render=c3 - c2,
               rank_lower=cert["result"]["rank_lower"],
               checker_verdict="passed" if not problems else problems)  # fmt: skip
    if coq:
        with tempfile.TemporaryDirectory() as d:
            man = api.run(raw, d, coq=True, lean=False, timeout=timeout)
            t = json.loads(Path(d, "logs", "timings.json").read_text())
            out["coqc"] = t["certificates"]["scale"]["coq"]
            out["coq_verdict"] = man["certificates"][0]["verdicts"]["coq"]
            out["coq_message"] = man["certificates"][0].get("messages", {}).get("coq")
    else:
        out["coq_verdict"] = "skipped (--no-coq)"
    out["total"] = sum(out.get(k, 0.0) for k in ("generate", "checker", "render", "coqc"))
    out["peak_rss_mb"] = _rss_mb()
    return out


def _child_named(fn: str, *args: object) -> dict:
    code = (f"import json,sys; sys.path.insert(0,{str(ROOT)!r}); "
            "import benchmarks.bench_scale as B; "
            f"print(json.dumps(B.{fn}(*{args!r})))")  # fmt: skip
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    if r.returncode:
        return {"error": r.stderr[-1000:]}
    return json.loads(r.stdout.strip().splitlines()[-1])


def run_named(names: list[str], coq: bool, timeout: float) -> list[dict]:
    """Each case's baseline and certified path, each in a fresh subprocess; prints the
    table side by side (CPU seconds, peak RSS MB, ratio to the baseline's total)."""
    rows = []
    for name in names:
        base = _child_named("baseline_named", name)
        cert = _child_named("certified_named", name, coq, timeout)
        row = {"case": name, "baseline": base, "certify": cert}
        rows.append(row)
        b = base.get("cpu_s")
        print(f"\n{name}  ({cert.get('params', base.get('params'))} params, rank: baseline "
              f"{base.get('rank')}, certified {cert.get('rank_lower')}; checker "
              f"{cert.get('checker_verdict')}, coq {cert.get('coq_verdict')})")  # fmt: skip
        if "error" in base or "error" in cert:
            print("  error:", base.get("error") or cert.get("error"))
            continue
        print(f"  {'phase':<22}{'CPU s':>10}{'baseline s':>12}{'ratio':>8}")
        for ph in ("generate", "checker", "render", "coqc", "total"):
            v = cert.get(ph)
            vs = "-" if v is None else f"{v:10.2f}"
            ratio = "-" if v is None or not b else f"{v / b:8.2f}"
            print(f"  {ph:<22}{vs:>10}{b:12.2f}{ratio:>8}")
        if "checker_rank_cpu_s" in base:
            e = base["checker_rank_cpu_s"]
            print(f"  {'elimination (same J)':<22}{e:10.2f}{b:12.2f}{e / b:8.2f}"
                  "   fast.rank_blocked vs FLINT nmod_mat.rank")  # fmt: skip
        print(f"  {'peak RSS MB':<22}{cert['peak_rss_mb']:10d}{base['peak_rss_mb']:12d}"
              f"{cert['peak_rss_mb'] / max(base['peak_rss_mb'], 1):8.2f}")  # fmt: skip
    return rows


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="1e2,1e3")
    ap.add_argument("--coq-max-rank", type=int, default=1200)
    ap.add_argument("--checker-max-rank", type=int, default=9000)
    ap.add_argument("--out", default=None,
                    help="results file (default: results-scale.json for --sizes, "
                    "results-scale-cases.json for --cases)")  # fmt: skip
    ap.add_argument("--cases", default=None,
                    help=f"named cases, comma-separated, or 'all': {', '.join(NAMED)}")  # fmt: skip
    ap.add_argument("--no-coq", action="store_true", help="named cases: skip the coqc phase")
    ap.add_argument("--timeout", type=float, default=1800.0, help="named cases: coqc seconds")
    a = ap.parse_args()
    if a.cases:
        names = list(NAMED) if a.cases == "all" else a.cases.split(",")
        rows = run_named(names, not a.no_coq, a.timeout)
        out = a.out or str(ROOT / "benchmarks" / "results-scale-cases.json")
        Path(out).write_text(json.dumps(rows, indent=1) + "\n")
        return
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
    Path(a.out or str(ROOT / "benchmarks" / "results-scale.json")).write_text(
        json.dumps(rows, indent=1) + "\n"
    )


if __name__ == "__main__":
    main()
