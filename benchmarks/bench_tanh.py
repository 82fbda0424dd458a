"""Tanh benchmark (issue 6): the layered tanh network 16-32-32-1 (1 633 parameters, group order
2^64 · 32!²): canonicalisation (orbit certificate) and equivalence (an explicit group element,
and different canonical forms), each timed for generation, the Python checker, rendering and
coqc on the certificate file.

    python benchmarks/bench_tanh.py [--widths 16,32,32,1]
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sys
import tempfile
import time
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def params(rng: random.Random, widths: list[int]) -> tuple[list, list]:
    """Random nonzero rational weights with small numerators and denominators."""

    def r() -> str:
        v = Fraction(rng.choice([-1, 1]) * rng.randint(1, 9), rng.randint(1, 4))
        return f"{v.numerator}/{v.denominator}"

    Ws = [[[r() for _ in range(widths[i])] for _ in range(widths[i + 1])]
          for i in range(len(widths) - 1)]  # fmt: skip
    # biases with distinct absolute values per layer (Fefferman-type genericity)
    bs = [[f"{rng.choice([-1, 1]) * k}/7" for k in rng.sample(range(1, 500), widths[i + 1])]
          for i in range(len(widths) - 1)]  # fmt: skip
    return Ws, bs


def main() -> None:
    from certify import certificate
    from certify.bundle import render_certificate
    from certify.checker import check_certificate
    from certify.families import generate_certificate
    from certify.families.tanh import dag as D
    from certify.families.tanh.spec import rho_aff
    from certify.provers import coq as coqp
    from certify.resources import resource_dir
    from certify.spec import parse_spec

    ap = argparse.ArgumentParser()
    ap.add_argument("--widths", default="16,32,32,1")
    args = ap.parse_args()
    widths = [int(w) for w in args.widths.split(",")]
    rng = random.Random(6)
    Ws, bs = params(rng, widths)
    base = parse_spec(
        {"name": "b", "network": {"family": "tanh", "activation": "tanh", "widths": widths},
         "parameters": {"weights": Ws, "biases": bs}, "certificate": [{"kind": "orbit"}]},
        "<bench>",
    )  # fmt: skip
    net = base.network
    g, _ = rho_aff("tanh")
    # a random group element: flips and permutations within every layer
    flips = [False] * net.size
    perm = list(range(net.size))
    for c in D.classes(net):
        for v, w in zip(c, rng.sample(c, len(c)), strict=True):
            perm[v] = w
            flips[v] = rng.random() < 0.5
    img = D.apply(net, g, D.GroupElement(tuple(flips), tuple(perm)))

    def layered(n: D.TanhNet) -> tuple[list, list]:
        offs = [0]
        for w in widths:
            offs.append(offs[-1] + w)
        W2, b2 = [], []
        for ell in range(len(widths) - 1):
            rows = range(offs[ell + 1], offs[ell + 2])
            cols = range(offs[ell], offs[ell + 1])
            W2.append([[str(n.weights[q][p]) for p in cols] for q in rows])
            b2.append([str(n.biases[q]) for q in rows])
        return W2, b2

    W2, b2 = layered(img)
    W3 = [[row[:] for row in W] for W in W2]
    W3[-1][0][0] = str(Fraction(W3[-1][0][0]) + 1)  # one outgoing weight changed
    spec = parse_spec(
        {
            "name": "bench-tanh",
            "network": {"family": "tanh", "activation": "tanh", "widths": widths},
            "parameters": {"weights": Ws, "biases": bs},
            "certificate": [
                {"kind": "orbit", "name": "bench-orbit"},
                {"kind": "equiv", "name": "bench-equivalent", "weights": W2, "biases": b2},
                {"kind": "equiv", "name": "bench-inequivalent", "weights": W3, "biases": b2},
            ],
        },
        "<bench>",
    )
    results = []
    with tempfile.TemporaryDirectory() as td:
        proj = Path(td) / "coq"
        shutil.copytree(resource_dir("coq"), proj, ignore=shutil.ignore_patterns("*.vo*"))
        (proj / "Certificates").mkdir(exist_ok=True)
        lib = coqp.build_library(proj, 600)
        for req in spec.certificates:
            t0 = time.perf_counter()
            cert = generate_certificate(spec, req)
            gen = time.perf_counter() - t0
            t0 = time.perf_counter()
            problems = check_certificate(cert)
            chk = time.perf_counter() - t0
            t0 = time.perf_counter()
            it = render_certificate(cert)
            ren = time.perf_counter() - t0
            (proj / "Certificates" / f"{it.module}.v").write_text(it.coq_text)
            v = coqp.check_file(proj, f"Certificates/{it.module}.v", 3600)
            out = {
                "certificate": req.name,
                "widths": widths,
                "result": cert["result"],
                "sha256": certificate.sha256(cert)[:16],
                "json_bytes": len(certificate.dump(cert)),
                "generate_s": round(gen, 3),
                "checker_ok": not problems,
                "checker_s": round(chk, 3),
                "render_s": round(ren, 3),
                "coq": v.status,
                "coqc_s": round(v.seconds or 0, 3),
                "coq_library_s": round(lib.seconds or 0, 3),
            }
            print(json.dumps(out), flush=True)
            results.append(out)
            (ROOT / "benchmarks" / "results-tanh.json").write_text(
                json.dumps(results, indent=1) + "\n"
            )


if __name__ == "__main__":
    main()
