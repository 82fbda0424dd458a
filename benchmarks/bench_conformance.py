"""Conformance-harness budget (moved out of tests/test_conformance.py: timings never belong in
tests): compiles every batch of the Python-twin/Coq-kernel harness (tests/conformance/) once
against a freshly compiled NNCert library, two coqc at a time, and reports each batch's coqc
seconds and their sum against the 90 s budget the harness is meant to stay within.

    python benchmarks/bench_conformance.py [--budget 90]

Exit status 1 when a batch fails to compile or the sum is over the budget.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> int:
    from certify.provers import coq as coqp
    from certify.resources import resource_dir
    from tests.conformance import cases as C
    from tests.conformance import structured
    from tests.test_conformance import coqc

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--budget", type=float, default=90.0, help="seconds of coqc, all batches")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        proj = Path(tmp) / "proj"
        shutil.copytree(resource_dir("coq"), proj, ignore=shutil.ignore_patterns("*.vo*"))
        (proj / "Certificates").mkdir(exist_ok=True)
        v = coqp.build_library(proj, 900)
        if v.status != "passed":
            print(v.message, file=sys.stderr)
            return 1
        texts = {label: C.render(cs) for label, cs in C.build(C.capture()).items()}
        texts["structured"] = C.HEAD + "".join(
            f"{lem}\nProof. vm_compute. reflexivity. Qed.\n"
            for lem in structured.conformance_cases(240)
        )
        with ThreadPoolExecutor(2) as pool:
            futures = {
                label: pool.submit(coqc, proj, f"Conformance_{label}", text)
                for label, text in texts.items()
            }
            runs = {label: f.result() for label, f in futures.items()}
    seconds = {label: round(run[2], 2) for label, run in runs.items()}
    failed = sorted(label for label, run in runs.items() if run[0] != 0)
    total = sum(seconds.values())
    print(json.dumps({"seconds": seconds, "total": round(total, 2), "budget": a.budget,
                      "failed": failed}, indent=1))  # fmt: skip
    return 1 if failed or total >= a.budget else 0


if __name__ == "__main__":
    raise SystemExit(main())
