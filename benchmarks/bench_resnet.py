"""ResNet benchmark (issue 4: n = 4, L = 4): orbit (real and complex) and rank certificate
generation, Python checker and coqc times.

    python benchmarks/bench_resnet.py
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CASES = [
    ("orbit-real", "t^4 + t^2", {"kind": "orbit"}),
    ("orbit-complex", "t^3", {"kind": "orbit", "field": "complex"}),
    ("rank", "t^4 + t^2", {"kind": "rank"}),
]


def main() -> None:
    from certify.bundle import render_certificate
    from certify.checker import check_certificate
    from certify.families import generate_certificate
    from certify.provers import coq as coqp
    from certify.resources import resource_dir
    from certify.spec import parse_spec

    tmp = Path(tempfile.mkdtemp())
    shutil.copytree(resource_dir("coq"), tmp / "proj", ignore=shutil.ignore_patterns("*.vo*"))
    proj = tmp / "proj"
    (proj / "Certificates").mkdir(exist_ok=True)
    assert coqp.build_library(proj, 900).status == "passed"
    rows = []
    for label, act, req in CASES:
        data = {
            "name": f"bench-resnet-{label}",
            "network": {"family": "resnet", "width": 4, "depth": 4, "activation": act},
            "parameters": {"seed": 1},
            "certificate": [req],
        }
        spec = parse_spec(data, "<bench>")
        t0 = time.perf_counter()
        cert = generate_certificate(spec, spec.certificates[0])
        gen = time.perf_counter() - t0
        t0 = time.perf_counter()
        problems = check_certificate(cert)
        chk = time.perf_counter() - t0
        it = render_certificate(cert)
        (proj / "Certificates" / f"{it.module}.v").write_text(it.coq_text)
        v = coqp.check_file(proj, f"Certificates/{it.module}.v", 3600)
        r = cert["result"]
        size = r.get("orbit_size", r.get("rank_lower"))
        rows.append(
            {"case": label, "activation": act, "params": 80, "result": size,
             "generate_s": round(gen, 2), "checker_s": round(chk, 2),
             "coqc_s": round(v.seconds, 2), "checker": problems == [], "coq": v.status}
        )  # fmt: skip
        print(json.dumps(rows[-1]), flush=True)
    (ROOT / "benchmarks" / "results-resnet.json").write_text(json.dumps(rows, indent=1) + "\n")
    shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
