"""coqc per certificate file of two demo bundles, side by side (issues 23 and 24).

Compiles every certificate file of bundle A and the same certificate's file of bundle B one
coqc after another, alternating (A B A B ...), each against its own bundle's compiled
library (the path in logs/timings.json), and reports the user + system CPU seconds of each
coqc (`os.wait4`) averaged per (family, kind) and over the whole demo. Use it to measure what
new meaning theorems cost: bundle A from the commit before them, bundle B from the commit
after (`certify demo --out ...` in each checkout).

    python benchmarks/bench_coq_meaning.py OLD_BUNDLE NEW_BUNDLE

Files of at most 32 KB run with OCAMLRUNPARAM=o=1000, as certify runs them
(provers/coq.py `gc_env`). The audit driver is not included (timings.json has its figure).
Results: benchmarks/results-coq-meaning.json.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

SMALL = 32 * 1024  # certify's rule for the GC setting (provers/coq.py)


def library(bundle: Path) -> Path:
    """The compiled NNCert library a bundle's certificates were checked against."""
    timings = json.loads((bundle / "logs" / "timings.json").read_text())
    return Path(timings["library"]["coq"]["path"])


def coqc_cpu(lib: Path, vfile: Path) -> float:
    """User + system CPU seconds of one coqc of `vfile` (copied to a scratch Certificates/)."""
    work = Path(tempfile.mkdtemp(prefix="bench-coq-meaning-"))
    try:
        (work / "Certificates").mkdir()
        target = work / "Certificates" / vfile.name
        shutil.copyfile(vfile, target)
        env = dict(os.environ)
        if vfile.stat().st_size <= SMALL and "OCAMLRUNPARAM" not in env:
            env["OCAMLRUNPARAM"] = "o=1000"
        cmd = ["coqc", "-q", "-R", str(lib / "NNCert"), "NNCert",
               "-R", str(work / "Certificates"), "Certificates", str(target)]  # fmt: skip
        proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        _, status, usage = os.wait4(proc.pid, 0)
        if status != 0:
            raise SystemExit(f"coqc failed on {vfile}")
        return usage.ru_utime + usage.ru_stime
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("old", type=Path)
    ap.add_argument("new", type=Path)
    ap.add_argument(
        "--out", type=Path, default=Path(__file__).with_name("results-coq-meaning.json")
    )
    args = ap.parse_args()
    lib_old, lib_new = library(args.old), library(args.new)
    manifest = json.loads((args.new / "manifest.json").read_text())
    rows = []
    for e in manifest["certificates"]:
        a = coqc_cpu(lib_old, args.old / e["coq_file"])
        b = coqc_cpu(lib_new, args.new / e["coq_file"])
        rows.append(
            {"name": e["name"], "family": e["family"], "kind": e["kind"], "old": a, "new": b}
        )
    by: dict[tuple[str, str], list[dict]] = {}
    for r in rows:
        by.setdefault((r["family"], r["kind"]), []).append(r)
    print(f"{'family kind':30} files  old (s)  new (s)")
    for (fam, kind), rs in sorted(by.items()):
        old = sum(r["old"] for r in rs) / len(rs)
        new = sum(r["new"] for r in rs) / len(rs)
        print(f"{fam + ' ' + kind:30} {len(rs):5}  {old:7.3f}  {new:7.3f}")
    old = sum(r["old"] for r in rows) / len(rows)
    new = sum(r["new"] for r in rows) / len(rows)
    print(f"{'all':30} {len(rows):5}  {old:7.3f}  {new:7.3f}")
    args.out.write_text(json.dumps({"rows": rows, "old": old, "new": new}, indent=1) + "\n")


if __name__ == "__main__":
    main()
