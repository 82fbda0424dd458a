"""Command line: certify run | demo | check | bounds | figure | from-torch | ci-template | cite |
table | init."""

from __future__ import annotations

import argparse
import os
import signal
import sys
from importlib.resources import files
from pathlib import Path
from typing import Any

from certify import __version__
from certify.bundle import Options, build, unmet_requirements
from certify.errors import CertifyError, InputError, OutputError
from certify.lean_cost import DEFAULT_LEAN_MAX_GIB, DEFAULT_LEAN_MAX_SECONDS
from certify.provers.common import PROVERS, kill_all
from certify.spec import Spec, load_specs

EXIT_CODES = """exit codes:
  0    every certificate passed (a prover that is not installed gives not-run, not a failure)
  1    a certificate failed: the checker, coqc or lake rejected it or timed out, or
       `certify check` found a mismatch in the bundle
  2    bad input or arguments: a spec error, a bad model file (from-torch), an unusable
       --out: not a writable directory, another run is writing it, or it is not an
       unchanged nn-certify bundle (the files are named; nothing is changed)
  3    a prover named by --require is not installed, did not run or did not pass
  130  interrupted (Ctrl-C); no bundle is written, no scratch directory is left
  143  terminated (SIGTERM): cleaned up like Ctrl-C
"""


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised in the main thread like Ctrl-C's KeyboardInterrupt, so the same
    clean-up runs: provers killed, scratch directories and the partial bundle removed."""


def _on_sigterm(signum: int, frame: Any) -> None:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)  # a second SIGTERM does not cut clean-up
    raise Terminated()


def example_specs() -> list[Path]:
    """The embedded example suite (package data)."""
    root = files("certify") / "examples"
    return sorted(Path(str(p)) for p in root.iterdir() if p.name.endswith(".toml"))


def _opts(a: argparse.Namespace) -> Options:
    return Options(
        run_coq=not a.no_coq,
        run_lean=not a.no_lean,
        timeout=a.timeout,
        jobs=a.jobs,
        use_cache=not a.no_cache,
        cache_dir=a.cache_dir,
        force=getattr(a, "force", False),
        require=a.require,
        lean_max_seconds=a.lean_max_seconds,
        lean_max_gib=a.lean_max_gib,
        lean_dojo=getattr(a, "lean_dojo", False),
        executor=getattr(a, "executor", "local"),
        scheduler=getattr(a, "scheduler", None),
        workers=getattr(a, "workers", None),
    )


def _require(text: str) -> frozenset[str]:
    names = frozenset(t.strip() for t in text.split(",") if t.strip())
    bad = sorted(names - set(PROVERS))
    if not names or bad:
        raise argparse.ArgumentTypeError(f"expected coq, lean or coq,lean, got {text!r}")
    return names


def _positive(kind: type) -> object:
    def parse(text: str) -> object:
        try:
            v = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a positive number, got {text!r}") from None
        if not v > 0:
            raise argparse.ArgumentTypeError(f"expected a positive number, got {text!r}")
        return v

    return parse


def _add_prover_flags(p: argparse.ArgumentParser) -> None:
    p.add_argument("--no-coq", action="store_true", help="do not run coqc (verdict not-run)")
    p.add_argument("--no-lean", action="store_true", help="do not run lake (verdict not-run)")
    p.add_argument(
        "--require",
        type=_require,
        default=frozenset(),
        metavar="coq|lean|coq,lean",
        help="exit 3 unless these provers ran and passed every certificate",
    )
    p.add_argument(
        "--timeout", type=_positive(float), default=900.0, help="seconds per prover call"
    )
    p.add_argument(
        "--jobs",
        type=_positive(int),
        default=2,
        help="certificate tasks (generate, check, render, coqc) in parallel processes "
        "(default %(default)s; 1: in this process)",
    )
    p.add_argument(
        "--quiet", action="store_true", help="no progress bar or progress lines (CI logs)"
    )
    p.add_argument(
        "--lean-max-seconds",
        type=_positive(float),
        default=DEFAULT_LEAN_MAX_SECONDS,
        help="rank certificates whose estimated Lean kernel cost (certify/lean_cost.py) is "
        "above this get their Lean file but verdict not-run (default %(default)s)",
    )
    p.add_argument(
        "--lean-max-gib",
        type=_positive(float),
        default=DEFAULT_LEAN_MAX_GIB,
        help="rank certificates whose estimated Lean kernel memory (certify/lean_cost.py) is "
        "above this many GiB get their Lean file but verdict not-run (default %(default)s)",
    )
    p.add_argument(
        "--cache-dir",
        type=Path,
        help="where the compiled Coq library and the drawn figures are kept (default: "
        "$NN_CERTIFY_CACHE, else $XDG_CACHE_HOME/nn-certify, else ~/.cache/nn-certify)",
    )
    p.add_argument(
        "--no-cache",
        action="store_true",
        help="compile the Coq library and draw the figures afresh for this run",
    )


def _add_out_flags(p: argparse.ArgumentParser) -> None:
    p.add_argument("--out", type=Path, required=True, help="the bundle directory to write")
    p.add_argument(
        "--executor",
        choices=("local", "dask"),
        default="local",
        help="local: a process pool of --jobs; dask: the tasks run on the Dask distributed "
        "cluster at --scheduler, else on a local Dask cluster of --workers processes started "
        "and stopped by this run (extra nn-certify[dask]); the bundle is the same either way",
    )
    p.add_argument("--scheduler", help="a Dask scheduler address, e.g. tcp://10.0.0.5:8786")
    p.add_argument(
        "--workers",
        type=_positive(int),
        help="--executor dask without --scheduler: worker processes of the local cluster, one "
        "thread each (default: --jobs)",
    )
    p.add_argument(
        "--force",
        action="store_true",
        help="replace --out even when it is not an unchanged nn-certify bundle: the old "
        "directory is moved aside to OUT.old-<UTC time>/, never deleted",
    )


def _say(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def _gate(entries: list[dict], require: frozenset[str], other_failure: bool) -> int:
    """Exit code: 1 for a checker failure or a bundle mismatch, then 3 for an unmet
    --require, then 1 for a prover that failed or timed out, else 0."""
    checker_failed = any(e["verdicts"].get("checker") != "passed" for e in entries)
    if checker_failed or other_failure:
        return 1
    unmet = unmet_requirements(entries, require)
    for line in unmet:
        print(f"certify: {line}", file=sys.stderr)
    if unmet:
        return 3
    bad = {"failed", "timeout"}
    return 1 if any(e["verdicts"].get(p) in bad for e in entries for p in PROVERS) else 0


def _run(specs: list[Spec], out: Path, a: argparse.Namespace) -> int:
    from certify.progress import for_stream

    if a.workers is not None and (a.executor != "dask" or a.scheduler):
        print("certify: error: --workers: only for --executor dask without --scheduler (the "
              "local executor runs --jobs processes)", file=sys.stderr)  # fmt: skip
        return 2
    if a.cache_dir is not None and not a.no_cache:  # named by the user: usable, or exit 2
        try:
            a.cache_dir.mkdir(parents=True, exist_ok=True)
            if not os.access(a.cache_dir, os.W_OK | os.X_OK):
                raise PermissionError("not writable")
        except OSError as e:
            print(f"certify: error: --cache-dir {a.cache_dir}: not a writable directory "
                  f"({e.strerror or e})", file=sys.stderr)  # fmt: skip
            return 2
    manifest = build(specs, out, _opts(a), prog=for_stream(a.quiet))
    from certify.bundle import common_prover_notes
    from certify.summary import summary_line

    common = common_prover_notes(manifest["certificates"])
    for e in manifest["certificates"]:
        v = e["verdicts"]
        print(
            f"{e['name']}: {summary_line(e)} checker={v['checker']} coq={v['coq']} lean={v['lean']}"
        )
        for k, m in e["messages"].items():
            if m and k not in common:
                print(f"  {k}: {m}")
    for k, m in common.items():
        print(f"{k}: {m}")
    print(f"bundle written to {out} (manifest.json, report.md)")
    return _gate(manifest["certificates"], a.require, False)


BOUNDS_EXIT_CODES = """exit codes of certify bounds:
  0    the bounds are printed; with --widths, every hidden layer l meets Thm 3.5's bound for
       k = 2 d_l, m = m_l (the bound the layer recursion checks)
  1    with --widths: some hidden layer's degree r_l is below that bound (the layers are named)
  2    bad input or arguments (--k, --m, --widths, --r)
"""


def _bounds(a: argparse.Namespace) -> int:
    """`certify bounds`: exit 0 printed (every layer meets its bound), 1 some hidden layer's
    degree is below Thm 3.5's bound for k = 2 d_l, 2 bad input (see BOUNDS_EXIT_CODES)."""
    import re

    from certify import bounds as B

    def err(msg: str) -> int:
        print(f"certify: error: {msg}", file=sys.stderr)
        return 2

    if a.k < 1 or a.m < 1:
        return err("--k and --m must be positive integers")
    rs: list[int] | None = None
    if a.r is not None:
        parts = [t.strip() for t in a.r.split(",")]
        if not all(re.fullmatch("[0-9]+", t) and int(t) > 0 for t in parts):
            return err(
                f"--r expects one positive integer degree per hidden layer, separated by commas "
                f"(e.g. 32 or 32,714), got {a.r!r}"
            )
        rs = [int(t) for t in parts]
    widths: list[int] | None = None
    if a.widths is not None:
        try:
            widths = [int(w) for w in a.widths.split(",")]
        except ValueError:
            return err(f"--widths expects integers like 2,3,3,1, got {a.widths!r}")
        if len(widths) < 3 or min(widths) < 1:
            return err(
                f"--widths needs >= 3 positive widths (d_0, hidden..., d_L), got {a.widths!r}"
            )
        if rs is None:
            return err("--widths needs --r (activation degree, or one per hidden layer)")
        hidden = len(widths) - 2
        if len(rs) == 1:
            rs = rs * hidden
        elif len(rs) != hidden:
            return err(
                f"--r has {len(rs)} degrees but --widths {a.widths} has {hidden} hidden "
                f"layer{'s' if hidden != 1 else ''}: give one degree per hidden layer or a "
                "single degree for every layer"
            )
    elif rs is not None and len(rs) > 1:
        return err(f"--r {a.r} gives per-layer degrees: it needs --widths (one degree per hidden "
                   "layer)")  # fmt: skip
    print(f"Degree bounds for k = {a.k} polynomials of degree m = {a.m} (sigma degree r >= ...):")
    for thm, case, val in B.bounds_table(a.k, a.m):
        mark = (
            "" if rs is None or widths else f": r = {rs[0]} {'met' if rs[0] >= val else 'NOT met'}"
        )
        print(f"  {thm:8} {case:32} r >= {val}{mark}")
    if widths is None or rs is None:
        return 0
    print(
        f"Per hidden layer l of widths {widths}, degrees r_l = {rs}: the d_l polynomials entering "
        "layer l have degree <= m_l = r_1 ... r_(l-1) (m_1 = 1), each theorem applied with "
        "(k, m_l):"
    )
    rows = B.layer_table(widths, rs)
    for row in rows:
        print(f"  layer {row['layer']}: width d = {row['width']}, m = {row['m']}, r = {row['r']}")
        for name, cond in row["conditions"].items():
            what = "outputs independent" if name == "independence" else "Cor. 4.1 identifiability"
            print(f"    k = {cond['k']} ({what}):")
            for thm, case, val, ok in cond["bounds"]:
                print(f"      {thm:8} {case:32} r >= {val}: {'met' if ok else 'NOT met'}")
        print(
            f"    -> layer {row['layer']}: Thm 3.5, k = {row['k']}, m = {row['m']}: r >= "
            f"{row['thm35']} {'met' if row['ok'] else 'NOT met'}"
        )
    bad = [str(row["layer"]) for row in rows if not row["ok"]]
    if bad:
        print(f"NOT met at layer {', '.join(bad)} (Thm 3.5 with k = 2 d_l): exit 1")
        return 1
    print("met at every hidden layer (Thm 3.5 with k = 2 d_l)")
    return 0


def _figure(a: argparse.Namespace) -> int:
    from certify.families.resnet.figure import FIGURES, draw

    if a.figure not in FIGURES:
        print(f"certify: error: figure: expected one of {list(FIGURES)}, got {a.figure!r}",
              file=sys.stderr)  # fmt: skip
        return 2
    draw(a.figure, a.out)
    print(f"figure {a.figure} written to {a.out}")
    return 0


def _from_torch(a: argparse.Namespace) -> int:
    import re

    from certify import torch_import as T

    # Everything that can be checked without torch, before loading the model.
    if not a.model.is_file():
        raise InputError(f"{a.model}: not a file (expected a model saved with torch.save)")
    T.check_precision(a.precision)
    out = a.out
    if out.is_dir() or out.is_symlink() and not out.exists():
        raise OutputError(f"--out {out}: expected a spec file path, got a directory")
    parent = out.parent if str(out.parent) else Path(".")
    if not parent.is_dir() or not os.access(parent, os.W_OK | os.X_OK):
        raise OutputError(f"--out {out}: {parent} is not a writable directory")
    name = a.name or "torch-" + re.sub(r"[^A-Za-z0-9_.-]", "-", a.model.stem)[:58]
    text = T.spec_text(T.load_modules(a.model), name, a.model.name, a.precision)
    load_spec_text(text, a.out)
    try:
        a.out.write_text(text)
    except OSError as e:
        raise OutputError(f"--out {a.out}: cannot write: {e.strerror or e}") from None
    print(f"spec written to {a.out}; certify it with: certify run {a.out} --out <dir>")
    return 0


def load_spec_text(text: str, where: Path) -> None:
    """Validate a generated spec before writing it (a SpecError names `where`)."""
    import tomllib

    from certify.spec import parse_spec

    parse_spec(tomllib.loads(text), str(where))


def main(argv: list[str] | None = None) -> int:
    """Run the command line (exit code returned); SIGTERM is handled like Ctrl-C."""
    try:
        previous = signal.signal(signal.SIGTERM, _on_sigterm)
    except ValueError:  # not the main thread: leave signals alone
        return _main(argv)
    try:
        return _main(argv)
    finally:
        signal.signal(signal.SIGTERM, previous if previous is not None else signal.SIG_DFL)


def _main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="certify",
        description=__doc__,
        epilog=EXIT_CODES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    ap.add_argument("--version", action="version", version=f"nn-certify {__version__}")
    sub = ap.add_subparsers(dest="cmd", required=True)
    fmt: dict[str, Any] = {
        "epilog": EXIT_CODES,
        "formatter_class": argparse.RawDescriptionHelpFormatter,
    }
    p_run = sub.add_parser("run", help="certify the instances of spec files into a bundle", **fmt)
    p_run.add_argument("specs", nargs="+", type=Path)
    _add_out_flags(p_run)
    _add_prover_flags(p_run)
    p_demo = sub.add_parser("demo", help="run the embedded example suite", **fmt)
    _add_out_flags(p_demo)
    _add_prover_flags(p_demo)
    p_demo.add_argument(
        "--quick", action="store_true",
        help="one certificate of every kind (about 30 s with coqc) instead of the whole suite",
    )  # fmt: skip
    p_bounds = sub.add_parser(
        "bounds",
        help="degree bounds of the composition-independence theorems",
        epilog=BOUNDS_EXIT_CODES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p_bounds.add_argument("--k", type=int, required=True, help="number of polynomials")
    p_bounds.add_argument("--m", type=int, required=True, help="their (maximal) degree")
    p_bounds.add_argument("--widths", type=str, help="MLP widths d_0,...,d_L, e.g. 2,3,3,1")
    p_bounds.add_argument(
        "--r",
        type=str,
        help="activation degree: one for every hidden layer (32) or one per hidden layer "
        "(32,714 for widths 2,3,3,1); a list needs --widths",
    )
    p_fig = sub.add_parser("figure", help="draw a figure of math.md (resnet-quadratic)")
    p_fig.add_argument("figure", help="the figure's name: resnet-quadratic")
    p_fig.add_argument("--out", type=Path, required=True, help="the PNG file to write")
    p_torch = sub.add_parser(
        "from-torch",
        help="a spec for a torch nn.Sequential of Linear and Tanh/Sigmoid or ReLU layers (the "
        "model file is unpickled by torch.load, which can run arbitrary code: trusted files only)",
        description="A spec for a torch nn.Sequential of Linear and Tanh/Sigmoid layers (family "
        "tanh) or Linear and ReLU layers (family relu, certificate kind rank). "
        "Security: the model file is unpickled by torch.load(weights_only=False), which can run "
        "arbitrary code; use it only on files you trust.",
    )
    p_torch.add_argument(
        "model",
        type=Path,
        help="a file written by torch.save(model); loading it runs pickle code (trusted only)",
    )
    p_torch.add_argument("--out", type=Path, required=True, help="the spec file to write")
    p_torch.add_argument("--name", type=str, help="spec name (default: from the file name)")
    p_torch.add_argument(
        "--precision", type=int, help="round weights to this many decimal places (default: exact)"
    )
    p_ci = sub.add_parser(
        "ci-template",
        help="write a GitHub Actions workflow and a shell script that re-verify a bundle with "
        "the nn-certify it carries (tool/), Coq, and Lean when the bundle ran it",
        description="Write .github/workflows/nn-certify.yml and ci/verify.sh: they install the "
        "sdist the bundle carries (tool/nn_certify-V.tar.gz; --pip SPEC instead), coqc from "
        "apt and, when the bundle was written with Lean or --require lean is given, elan with "
        "the bundle's pinned toolchain (each skipped when already installed), then run "
        "`certify check BUNDLE --require ...`. The bundle is read at --out/--bundle.",
        **fmt,
    )
    p_ci.add_argument("--out", type=Path, default=Path("."), help="where to write (default .)")
    p_ci.add_argument(
        "--bundle", default="bundle", help="the bundle's path in the repository (default bundle)"
    )
    p_ci.add_argument(
        "--pip", help="what CI pip-installs (default: the bundle's tool/nn_certify-V.tar.gz)"
    )
    p_ci.add_argument(
        "--require",
        type=_require,
        default=frozenset(),
        metavar="coq|lean|coq,lean",
        help="provers the check requires besides coq (always) and those the bundle ran",
    )
    p_ci.add_argument("--force", action="store_true", help="overwrite existing files")
    p_cite = sub.add_parser(
        "cite",
        help="fill in a bundle's CITATION.cff (authors, date, title, DOI)",
        description="Write BUNDLE/CITATION.cff (Citation File Format 1.2.0), the one file of "
        "a bundle `certify check` does not compare. An edited CITATION.cff is replaced only "
        "with --force, and kept next to the bundle first.",
        **fmt,
    )
    p_cite.add_argument("bundle", type=Path)
    p_cite.add_argument(
        "--author",
        action="append",
        required=True,
        help="'Family, Given' or 'Given Family' (repeat for each author, in order)",
    )
    p_cite.add_argument("--date", required=True, help="date released, YYYY-MM-DD")
    p_cite.add_argument("--title", help="default: Machine-checked certificates: <specs>")
    p_cite.add_argument("--doi", help="the DOI of the published bundle, e.g. 10.5281/zenodo.1")
    p_cite.add_argument("--force", action="store_true", help="replace an edited CITATION.cff")
    p_table = sub.add_parser(
        "table",
        help="print the results table of one or more bundles (Markdown or CSV)",
        description="Print the results table (results.json) of one or more bundles, one row "
        "per certificate; several bundles are merged, with a first column naming the bundle. "
        "Columns: certify/table.py (expected_dim, dim_after_symmetries, generic_rank_mod_p and "
        "defect are explained below the Markdown table). --seconds adds the seconds per "
        "phase from logs/ (not part of the deterministic, hashed files).",
        **fmt,
    )
    p_table.add_argument("bundles", nargs="+", type=Path)
    p_table.add_argument("--format", choices=("md", "csv"), default="md")
    p_table.add_argument(
        "--seconds", action="store_true", help="add seconds per phase (logs/timings.json)"
    )
    p_check = sub.add_parser("check", help="re-verify a bundle (hashes, checker, provers)", **fmt)
    p_check.add_argument("bundle", type=Path)
    p_check.add_argument(
        "--lean-dojo",
        action="store_true",
        help="also pin every theorem statement with LeanDojo (extra nn-certify[dojo]; verdict "
        "not-run with the reason where Lean or lean_dojo is absent)",
    )
    _add_prover_flags(p_check)
    p_init = sub.add_parser(
        "init",
        help="print a starter spec for a certificate kind (docs/spec-reference.md)",
        description="Print a starter spec (TOML) for one certificate kind, ready for\n"
        "`certify run`; its optional fields are comments with their defaults.\n"
        "Every field: docs/spec-reference.md.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p_init.add_argument("kind", help="a certificate kind, e.g. rank, orbit, equiv, compind")
    p_init.add_argument("--family", help="the family, for a kind several families have")
    a = ap.parse_args(argv)
    try:
        if a.cmd == "run":
            return _run([s for p in a.specs for s in load_specs(p)], a.out, a)
        if a.cmd == "bounds":
            return _bounds(a)
        if a.cmd == "figure":
            return _figure(a)
        if a.cmd == "demo":
            from certify.api import demo_specs

            return _run(demo_specs(a.quick), a.out, a)
        if a.cmd == "from-torch":
            return _from_torch(a)
        if a.cmd == "table":
            return _table(a)
        if a.cmd == "init":
            from certify.init_spec import starter

            sys.stdout.write(starter(a.kind, a.family))
            return 0
        if a.cmd == "ci-template":
            from certify.ci_template import write_templates

            files, plan = write_templates(a.out, a.bundle, a.pip, a.force, a.require)
            for p in files:
                print(f"wrote {p}")
            print(f"CI installs {plan.pip_spec} and requires {','.join(sorted(plan.require))}")
            for n in plan.notes:
                print(f"note: {n}")
            return 0
        if a.cmd == "cite":
            from certify.cite import write_citation

            cff, kept = write_citation(a.bundle, a.author, a.date, a.title, a.doi, a.force)
            if kept is not None:
                print(f"kept the previous {cff.name} at {kept}")
            print(f"wrote {cff}")
            return 0
        return _check(a)
    except CertifyError as e:
        print(f"certify: error: {e}", file=sys.stderr)
        return e.exit_code
    except KeyboardInterrupt as e:
        kill_all()
        if isinstance(e, Terminated):
            print("certify: terminated; nothing written", file=sys.stderr)
            return 143
        print("certify: interrupted; nothing written", file=sys.stderr)
        return 130


def _table(a: argparse.Namespace) -> int:
    """`certify table`: the rows of every bundle, merged (exit 1: not a readable bundle)."""
    from certify import table as T

    merged: list[dict] = []
    for b in a.bundles:
        for r in T.load_rows(b, a.seconds):
            merged.append(({"bundle": str(b)} if len(a.bundles) > 1 else {}) | r)
    cols = tuple(merged[0]) if merged else T.COLUMNS
    sys.stdout.write(T.csv_text(merged, cols) if a.format == "csv" else T.markdown(merged, cols))
    if a.format == "md":
        sys.stdout.write("\nColumns:\n\n" + T.notes_md())
    return 0


def _check(a: argparse.Namespace) -> int:
    from certify.progress import for_stream
    from certify.verify import check_bundle_result

    prog = for_stream(a.quiet)
    try:
        res = check_bundle_result(a.bundle, _opts(a), prog)
    finally:
        prog.close()
    for n in res.notes:
        print(f"note: {n}")
    if res.lean_dojo is not None:
        v = res.lean_dojo
        print(f"lean-dojo: {v.status}" + (f" ({v.message})" if v.message else ""))
    problems = res.problems + res.prover_problems
    for p in problems:
        print(f"FAIL: {p}")
    dojo_bad = res.lean_dojo is not None and res.lean_dojo.status in ("failed", "timeout")
    code = _gate(res.entries, a.require, bool(res.problems) or not res.entries or dojo_bad)
    if code == 0:
        print("bundle verified")
    elif problems:
        print(f"{len(problems)} problem(s)")
    else:
        print("bundle not verified: a required prover did not pass")
    return code


if __name__ == "__main__":
    sys.exit(main())
