"""coqc CPU seconds of an MLP rank certificate, per phase (issue 23 item 1).

    python benchmarks/bench_coq_rank_phases.py CERT.json COQDIR
    python benchmarks/bench_coq_rank_phases.py CERT.json COQDIR --old   # gap-free kernel

CERT.json: a rank certificate (e.g. from `certify run SPEC --no-coq --no-lean --out DIR`,
DIR/certificates/NAME.json). COQDIR: a directory holding a compiled NNCert/ (the .vo files of
coq/NNCert). The certificate is rendered by certify's Coq renderer and compiled twice:
the certificate itself with `coqc -time` (imports, `Definition inst`, `Definition lower`, the
Qed of rank_lower_check, the rest), and a profile file in which `Time Eval vm_compute` runs the
kernel's phases one after the other on the same literals: the Jacobian rows (mlp_rows_mod),
rows + minor (select_minor, or minor_rows with --old), rows + minor + elimination
(nonsingular2_mod, or nonsingular_mod with --old). Each phase's own cost is the difference of
consecutive lines. CPU (user) seconds, as coqc reports them; the machine may be shared, so
compare runs made side by side. Not part of the test suite.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
from pathlib import Path

from certify.families.polynomial.render_rank import render_coq

PHASES = """
Definition P := Uint63.of_Z (lw_p lower).
Definition rowsm := mlp_rows_mod (lw_p lower) (widths inst)
  (acts_mod (lw_p lower) (acts inst) (lw_acts_inv lower)) (bias inst)
  (rats_mod (lw_p lower) (theta inst) (lw_theta_inv lower)) (lw_samples lower) (lw_rows lower).
Time Eval vm_compute in Nat.eqb (length rowsm) 0.
Time Eval vm_compute in Nat.eqb (length ({minor} (reduce_int_rows P rowsm) (lw_cols lower))) 0.
Time Eval vm_compute in {elim} P {r} ({minor} (reduce_int_rows P rowsm) (lw_cols lower)).
"""


def _user_seconds(out: str) -> list[tuple[str, float]]:
    rows = []
    for m in re.finditer(r"Chars \d+ - \d+ \[([^\]]*)\] [\d.]+ secs \(([\d.]+)u", out):
        rows.append((m.group(1).replace("~", " ")[:40], float(m.group(2))))
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("cert", type=Path)
    ap.add_argument("coqdir", type=Path)
    ap.add_argument("--old", action="store_true", help="profile minor_rows + nonsingular_mod")
    args = ap.parse_args()
    cert = json.loads(args.cert.read_text())
    text = render_coq(cert, "benchmark")
    r = cert["witness"]["lower"]["rank"]
    out_dir = args.coqdir / "Certificates"
    out_dir.mkdir(exist_ok=True)
    (out_dir / "BenchCert.v").write_text(text)
    cut = text.index("Lemma rank_lower_check")
    minor, elim = (
        ("minor_rows", "nonsingular_mod") if args.old else ("select_minor", "nonsingular2_mod")
    )
    prof = text[:cut] + PHASES.format(minor=minor, elim=elim, r=r)
    (out_dir / "BenchPhases.v").write_text(prof)
    flags = ["-R", "NNCert", "NNCert"]
    full = subprocess.run(
        ["coqc", *flags, "-time", "Certificates/BenchCert.v"],
        cwd=args.coqdir, capture_output=True, text=True, check=True,
    )  # fmt: skip
    steps = [(name, u) for name, u in _user_seconds(full.stdout) if u >= 0.05]
    print("certificate (coqc -time, user seconds >= 0.05):")
    for name, u in steps:
        print(f"  {u:8.2f}  {name}")
    print(f"  {sum(u for _, u in _user_seconds(full.stdout)):8.2f}  total")
    phases = subprocess.run(
        ["coqc", *flags, "Certificates/BenchPhases.v"],
        cwd=args.coqdir, capture_output=True, text=True, check=True,
    )  # fmt: skip
    times = [
        float(x)
        for x in re.findall(r"Finished transaction in [\d.]+ secs \(([\d.]+)u", phases.stdout)
    ]
    names = ["rows", f"rows + {minor}", f"rows + {minor} + {elim}"]
    print("kernel phases (Time Eval vm_compute, cumulative user seconds):")
    for name, u in zip(names, times, strict=True):
        print(f"  {u:8.2f}  {name}")


if __name__ == "__main__":
    main()
