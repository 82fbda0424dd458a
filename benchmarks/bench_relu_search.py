"""ReLU theta search (issue 13, item 3): how many theta attempts typical architectures need to
reach D - H with the default settings (128 attempts outside the Grillo-Montufar setting, 8
in it), for ten spec seeds each, with the batches the tool designs (cover batches for n0 = 1,
region-aware batches for n0 >= 2) against the baseline measured in the same run: the same theta
sequence with the seeded random batch of the earlier releases (integers, then halves, quarters,
eighths). CPU seconds per certificate and the peak RSS of the process are reported.

    python benchmarks/bench_relu_search.py            # all architectures, seeds 1..10
    python benchmarks/bench_relu_search.py --seeds 3  # seeds 1..3
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

ARCHITECTURES = {
    "one-dimensional input": [[1, 2, 1], [1, 3, 1], [1, 1, 1, 1], [1, 2, 2, 1], [1, 3, 3, 1],
                              [1, 2, 2, 2, 1], [1, 4, 4, 1], [1, 1, 1, 1, 1]],
    "width-one layer": [[2, 1, 1], [2, 1, 2, 1], [2, 1, 1, 1], [2, 2, 1, 1], [3, 2, 1, 1],
                        [2, 3, 1, 2, 1], [3, 1, 3, 1]],
    "generic (Grillo-Montufar)": [[2, 2, 1], [2, 3, 3, 1], [3, 3, 3, 1], [4, 8, 8, 1]],
}  # fmt: skip


def run(widths: list[int], seed: int, baseline: bool) -> dict[str, Any]:
    """One certificate with default settings; with `baseline`, every attempt's batch is the
    seeded random batch instead of the cover or region batch."""
    from certify.families import generate_certificate
    from certify.families.relu import witness as W
    from certify.spec import parse_spec

    saved = W.cover_design, W.region_design
    if baseline:
        W.cover_design = lambda net, theta, p: None  # type: ignore[assignment]
        W.region_design = lambda net, theta, p, tag: W.design_batch(net, theta, p, tag, None)  # type: ignore[assignment]
    try:
        spec = parse_spec(
            {"name": "bench", "network": {"family": "relu", "widths": widths},
             "parameters": {"seed": seed}},
            "<bench>",
        )  # fmt: skip
        t0 = time.process_time()
        cert = generate_certificate(spec, spec.certificates[0])
        cpu = time.process_time() - t0
    finally:
        W.cover_design, W.region_design = saved
    r, g = cert["result"], cert["generator"]
    first = next((a["attempt"] + 1 for a in g["attempts"] if a["rank"] == r["expected_dim"]), None)
    return {"attempts": len(g["attempts"]), "reached": first, "max_rank": g["search"]["max_rank"],
            "target": r["expected_dim"], "batch_size": r["batch_size"], "cpu_s": cpu}  # fmt: skip


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    reached = [x["reached"] for x in rows if x["reached"] is not None]
    return {
        "reached_d_minus_h": f"{len(reached)}/{len(rows)}",
        "attempts_to_reach_median": statistics.median(reached) if reached else None,
        "attempts_to_reach_max": max(reached) if reached else None,
        "max_rank_found": max(x["max_rank"] for x in rows),
        "mean_batch_size": round(statistics.mean(x["batch_size"] for x in rows), 1),
        "cpu_s_mean": round(statistics.mean(x["cpu_s"] for x in rows), 3),
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=10)
    args = ap.parse_args()
    seeds = range(1, args.seeds + 1)
    out: dict[str, Any] = {"seeds": list(seeds), "architectures": []}
    for group, archs in ARCHITECTURES.items():
        for widths in archs:
            new = [run(widths, s, False) for s in seeds]
            old = [run(widths, s, True) for s in seeds]
            a, b = summary(new), summary(old)
            ratio = round(a["cpu_s_mean"] / b["cpu_s_mean"], 2) if b["cpu_s_mean"] else None
            row = {"group": group, "widths": widths, "target": new[0]["target"],
                   "designed_batches": a, "random_batch_baseline": b,
                   "cpu_ratio_designed_over_baseline": ratio}  # fmt: skip
            out["architectures"].append(row)
            print(json.dumps(row), flush=True)
    out["peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
    (ROOT / "benchmarks" / "results-relu-search.json").write_text(json.dumps(out, indent=1) + "\n")
    print(f"peak RSS {out['peak_rss_mb']} MB")


if __name__ == "__main__":
    main()
