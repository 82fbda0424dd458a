"""Composition-independence benchmark (issue: k = 10 polynomials of degree 5 in 3 variables,
sigma of degree 12): generation, checker and coqc times.

    python benchmarks/bench_compind.py
"""

from __future__ import annotations

import json
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def random_poly(rng: random.Random, deg: int) -> str:
    terms = []
    for a in range(deg + 1):
        for b in range(deg + 1 - a):
            for c in range(deg + 1 - a - b):
                if a + b + c == deg or rng.random() < 0.3:
                    terms.append(f"({rng.randint(-5, 5) or 1})*x^{a}*y^{b}*w^{c}")
    return " + ".join(terms)


def main() -> None:
    from certify import certificate
    from certify.bundle import render_certificate
    from certify.checker import check_certificate
    from certify.families import generate_certificate
    from certify.provers import coq as coqp
    from certify.resources import resource_dir
    from certify.spec import parse_spec

    rng = random.Random(12)
    polys = [random_poly(rng, 5) for _ in range(10)]
    spec = parse_spec(
        {
            "name": "bench-compind",
            "certificate": [
                {"kind": "compind", "variables": ["x", "y", "w"], "polynomials": polys,
                 "generic_degree": 12}
            ],
        },
        "<bench>",
    )  # fmt: skip
    t0 = time.perf_counter()
    cert = generate_certificate(spec, spec.certificates[0])
    gen = time.perf_counter() - t0
    t0 = time.perf_counter()
    problems = check_certificate(cert)
    chk = time.perf_counter() - t0
    t0 = time.perf_counter()
    it = render_certificate(cert)
    ren = time.perf_counter() - t0
    with tempfile.TemporaryDirectory() as td:
        proj = Path(td) / "coq"
        shutil.copytree(resource_dir("coq"), proj, ignore=shutil.ignore_patterns("*.vo*"))
        (proj / "Certificates").mkdir(exist_ok=True)
        coqp.build_library(proj, 600)
        (proj / "Certificates" / f"{it.module}.v").write_text(it.coq_text)
        v = coqp.check_file(proj, f"Certificates/{it.module}.v", 1800)
    out = {
        "k": 10,
        "degree": 5,
        "variables": 3,
        "sigma_degree": 12,
        "status": cert["result"]["status"],
        "sha256": certificate.sha256(cert)[:16],
        "generate_s": round(gen, 3),
        "checker_ok": not problems,
        "checker_s": round(chk, 3),
        "render_s": round(ren, 3),
        "coq": v.status,
        "coqc_s": round(v.seconds or 0, 3),
    }
    print(json.dumps(out))
    (ROOT / "benchmarks" / "results-compind.json").write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
