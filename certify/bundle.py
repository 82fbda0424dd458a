"""Artifact bundle: certificates, checker verdicts, Coq and Lean projects, prover verdicts,
manifest and report. Written to a temporary sibling directory and moved into place only
when complete, so a crash never leaves a bundle that looks finished."""

from __future__ import annotations

import dataclasses
import fcntl
import hashlib
import json
import os
import shutil
import stat
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as dist_version
from pathlib import Path
from typing import Any

from certify import __version__, certificate, progress, table
from certify.checker import check_certificate, cross_check, registry
from certify.errors import CertifyError, OutputError, SpecError
from certify.executor import ExecutorError, run_tasks
from certify.families import generate_certificates
from certify.figures import Figure, draw_figure
from certify.lean_cost import (
    DEFAULT_LEAN_MAX_GIB,
    DEFAULT_LEAN_MAX_SECONDS,
    lean_rank_cost,
    lean_rank_memory_gib,
)
from certify.progress import Progress
from certify.provers import coq as coqp
from certify.provers import coq_audit
from certify.provers import lean as leanp
from certify.provers.common import FAILED, NOT_RUN, PASSED, TIMEOUT, Verdict, kill_all, resume
from certify.referee import architecture, referee_files, tool_sources
from certify.render.env import render
from certify.report import (  # noqa: F401  (re-exported)
    DIMENSIONS_PNG,
    common_prover_notes,
    quoted,
    report_md,
)
from certify.resources import resource_dir
from certify.scratch import scratch_dir
from certify.spec import Spec
from certify.tool_sdist import NO_SOURCE_TREE, build_sdist

MANIFEST_SCHEMA = "nn-certify-manifest/1"
COQ_LIBRARY_FILES = [f"NNCert/{m}.v" for m in coqp.LIBRARY]
LEAN_PROJECT_FILES = ["lakefile.toml", "lean-toolchain", "lake-manifest.json", "NNCert.lean"]
BUILD_PRODUCTS = (".vo", ".vok", ".vos", ".glob", ".aux")


@dataclass
class Options:
    run_coq: bool = True
    run_lean: bool = True
    timeout: float = 900.0
    jobs: int = 2
    use_cache: bool = True  # --no-cache: compile NNCert from scratch for this run
    cache_dir: Path | None = None  # --cache-dir (else $NN_CERTIFY_CACHE, $XDG_CACHE_HOME, ~)
    force: bool = False  # --force: replace an output directory holding foreign files
    require: frozenset[str] = frozenset()  # --require coq,lean (checked by the CLI)
    lean_max_seconds: float = DEFAULT_LEAN_MAX_SECONDS  # --lean-max-seconds (lean_cost.py)
    lean_max_gib: float = DEFAULT_LEAN_MAX_GIB  # --lean-max-gib (lean_cost.py)
    lean_dojo: bool = False  # certify check --lean-dojo: statement pinning (certify/dojo.py)
    executor: str = "local"  # --executor local (process pool of --jobs) or dask
    scheduler: str | None = None  # --scheduler ADDRESS of a Dask distributed cluster
    workers: int | None = None  # --workers: dask without a scheduler, local workers (or jobs)

    def cache_base(self) -> Path | None:
        if not self.use_cache:
            return None
        return Path(self.cache_dir) if self.cache_dir is not None else coqp.default_cache_base()


def _library_timing(seconds: float | None, lib: Any) -> dict[str, Any]:
    """logs/timings.json's entry for the NNCert Coq library (compiled or taken from the cache)."""
    return {
        "seconds": seconds,
        "compile_seconds": lib.verdict.seconds,
        "cache": lib.cache,
        "key": lib.key,
        "path": str(lib.root) if lib.cache in ("hit", "built") else None,
    }


def _dist(name: str) -> str | None:
    try:
        return dist_version(name)
    except PackageNotFoundError:
        return None


def tool_versions() -> dict[str, str | None]:
    return {
        "nn-certify": __version__,
        "python-flint": _dist("python-flint"),
        "sympy": _dist("sympy"),
        "coqc": coqp.version(),
        "lean": leanp.version(),
    }


def lean_library_files() -> list[str]:
    root = resource_dir("lean")
    files = list(LEAN_PROJECT_FILES)
    files += sorted(str(p.relative_to(root)) for p in (root / "NNCert").glob("*.lean"))
    return files


COQ_BUILD_SH = r"""#!/bin/sh
# Rebuild and audit everything with coqc alone (certify/provers/coq_audit.py):
# 1. every source (the NNCert library, the certificates, the audit driver Audit.v and its
#    checker audit.awk, _CoqProject) must match SHA256SUMS;
# 2. no source may turn a kernel check off (Unset Guard/Positivity/Universe Checking,
#    bypass_check), no certificate may declare an assumption (Axiom, Admitted, ...);
# 3. coqc compiles the library, then every certificate, in the order of _CoqProject;
# 4. coqc compiles Audit.v: it states the meaning theorems itself in absolute names (a
#    certificate that redefines mlp_jacobian, \rank or <= does not typecheck there), collects
#    every theorem the certificates mark "audited" by full name in one tuple and prints its
#    assumptions (those of all the theorems together, in one walk of their dependencies);
#    audit.awk accepts only Coq's primitive integers (PrimInt63) and their specification
#    axioms (Uint63), by name and printed type.
#    Anything else (another axiom, "assumed to be guarded/positive", an unsafe universe
#    hierarchy, a missing theorem) fails with a message and a non-zero exit status.
# Every coqc runs under an address-space limit, as in certify (certify/provers/coq.py):
# $NN_CERTIFY_COQC_MEMORY_GIB GiB, 8 by default, 0 for none. Unless OCAMLRUNPARAM is set,
# the library, certificates of at most __SMALL_BYTES__ bytes and Audit.v run with
# OCAMLRUNPARAM=__SMALL_GC__ (OCaml's garbage collector tuned for a run without a long kernel
# computation, as certify does: gc_env in certify/provers/coq.py).
set -eu
cd "$(dirname "$0")"
fail() { echo "build.sh: $*" >&2; exit 1; }
gib="${NN_CERTIFY_COQC_MEMORY_GIB:-8}"
kib=$(echo "$gib" | awk '/^[0-9]+([.][0-9]+)?$/ { printf "%d", $1 * 1048576; ok = 1 }
  END { exit !ok }') ||
  fail "NN_CERTIFY_COQC_MEMORY_GIB=$gib: expected a number of GiB (0: no limit)"
if [ "$kib" -gt 0 ]; then
  ulimit -v "$kib" || fail "could not set the coqc memory limit (ulimit -v $kib KiB)"
fi
if command -v sha256sum >/dev/null 2>&1; then sum="sha256sum"
elif command -v shasum >/dev/null 2>&1; then sum="shasum -a 256"
else fail "neither sha256sum nor shasum found (needed to check SHA256SUMS)"; fi
if ! $sum -c SHA256SUMS >/dev/null 2>&1; then
  $sum -c SHA256SUMS 2>&1 | grep -v ': OK$' >&2 || true
  fail "the files above differ from SHA256SUMS: not the sources this bundle was made from"
fi
if grep -n -E '__UNSAFE__' $(find NNCert -name '*.v' | sort) Certificates/*.v >&2; then
  fail "the lines above turn a kernel check off"
fi
if grep -n -E '__ASSUME__' Certificates/*.v >&2; then
  fail "the lines above declare an assumption in a certificate"
fi
flags="-R NNCert NNCert -R Certificates Certificates"
gc() {  # coqc's environment for file $1 (gc_env in certify/provers/coq.py)
  case "${OCAMLRUNPARAM+set}:$1" in
    set:*) ;;  # the user's own setting, inherited
    :Audit.v | :NNCert/*) echo "OCAMLRUNPARAM=__SMALL_GC__" ;;
    :Certificates/*)
      [ "$(wc -c <"$1" | tr -d ' ')" -gt __SMALL_BYTES__ ] || echo "OCAMLRUNPARAM=__SMALL_GC__" ;;
  esac
}
for f in $(grep '[.]v$' _CoqProject); do
  echo "coqc $f" >&2
  # shellcheck disable=SC2046,SC2086
  env $(gc "$f") coqc -q $flags "$f" >/dev/null || fail "coqc $f failed (above)"
done
out="${TMPDIR:-/tmp}/nncert-audit.$$"
trap 'rm -f "$out" "$out.awk"' EXIT
echo "coqc Audit.v" >&2
# shellcheck disable=SC2046,SC2086
env $(gc Audit.v) coqc -q $flags Audit.v >"$out" ||
  fail "Audit.v failed (above): a theorem is missing or proves another statement"
if awk -f audit.awk Audit.v "$out" >"$out.awk"; then ok=1; else ok=0; fi
grep -v '^axiom ' "$out.awk" >&2 || true
[ "$ok" = 1 ] || fail "the Print Assumptions audit failed (above)"
"""
COQ_BUILD_SH = (
    COQ_BUILD_SH.replace("__UNSAFE__", coq_audit.UNSAFE_GREP)
    .replace("__ASSUME__", coq_audit.ASSUMPTION_GREP)
    .replace("__SMALL_GC__", coqp.SMALL_FILE_GC)
    .replace("__SMALL_BYTES__", str(coqp.SMALL_FILE_BYTES))
)
COQ_MAKEFILE = """# Rebuild the NNCert library and every certificate with coqc alone (see build.sh).
all:
\tsh build.sh
clean:
\tfind . \\( -name '*.vo' -o -name '*.vok' -o -name '*.vos' -o -name '*.glob' \\
\t  -o -name '.*.aux' -o -name '.lia.cache' -o -name '.nia.cache' \\) -delete
.PHONY: all clean
"""


def coq_project_text(modules: list[str]) -> str:
    """_CoqProject of a bundle: the library, then every certificate (dependency order)."""
    lines = ["-R NNCert NNCert", "-R Certificates Certificates"]
    lines += [f"NNCert/{m}.v" for m in coqp.LIBRARY]
    lines += [f"Certificates/{m}.v" for m in modules]
    return "\n".join(lines) + "\n"


def copy_libraries(dest: Path) -> None:
    """Self-contained Coq and Lean projects: the library sources next to the certificates."""
    for rel in COQ_LIBRARY_FILES:
        target = dest / "coq" / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(resource_dir("coq") / rel, target)
    for rel in lean_library_files():
        target = dest / "lean" / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(resource_dir("lean") / rel, target)
    (dest / "coq" / "Certificates").mkdir(parents=True, exist_ok=True)
    (dest / "lean" / "Certificates").mkdir(parents=True, exist_ok=True)


@dataclass
class Rendered:
    cert: dict[str, Any]
    sha: str
    module: str
    coq_text: str
    lean_text: str
    lean_theorems: list[str]


def render_certificate(cert: dict[str, Any]) -> Rendered:
    """The Coq and Lean files of a certificate (literals read back), by its registry line."""
    sha = certificate.sha256(cert)
    entry = registry.lookup(cert.get("family"), cert.get("kind"))
    if entry is None:
        raise CertifyError(
            f"no renderer for family {cert.get('family')!r}, kind {cert.get('kind')!r}"
        )
    module, theorems, coq_text, lean_text = registry.resolve(entry.render_path)(cert, sha)
    return Rendered(
        cert, sha, module, coq_text, lean_text, [f"Certificates.{module}.{t}" for t in theorems]
    )


def write_sources(dest: Path, items: list[Rendered]) -> None:
    (dest / "certificates").mkdir(parents=True, exist_ok=True)
    for it in items:
        (dest / "certificates" / f"{it.cert['name']}.json").write_bytes(certificate.dump(it.cert))
        (dest / "coq" / "Certificates" / f"{it.module}.v").write_text(it.coq_text)
        (dest / "lean" / "Certificates" / f"{it.module}.lean").write_text(it.lean_text)
    coq = dest / "coq"
    (coq / "_CoqProject").write_text(coq_project_text([it.module for it in items]))
    (coq / "build.sh").write_text(COQ_BUILD_SH)
    (coq / "Makefile").write_text(COQ_MAKEFILE)
    theorems = [t for it in items for t in coq_audit.theorems_of(it.cert, it.module, it.coq_text)]
    (coq / coq_audit.DRIVER).write_text(coq_audit.driver_text(theorems))
    (coq / coq_audit.AWK_FILE).write_text(coq_audit.AUDIT_AWK)
    (coq / "SHA256SUMS").write_text(coq_sha256sums(coq, [it.module for it in items]))
    _write_lean_roots(dest / "lean", items)


def coq_sha256sums(coq: Path, modules: list[str]) -> str:
    """coq/SHA256SUMS (`sha256sum -c` format): every file build.sh reads, the library, the
    certificates, the audit driver and its awk program."""
    rels = ["_CoqProject", *COQ_LIBRARY_FILES, *(f"Certificates/{m}.v" for m in modules)]
    rels += [coq_audit.DRIVER, coq_audit.AWK_FILE]
    return "".join(f"{_sha_file(coq / rel)}  {rel}\n" for rel in rels)


def _write_lean_roots(lean: Path, items: list[Rendered]) -> None:
    """Certificates.lean (imports every certificate module) and Audit.lean (#print axioms)."""
    modules = [f"Certificates.{it.module}" for it in items]
    (lean / "Certificates.lean").write_text(render("lean/aggregator.lean.j2", modules=modules))
    (lean / "Audit.lean").write_text(
        render(
            "lean/audit.lean.j2",
            modules=modules,
            theorems=[t for it in items for t in it.lean_theorems],
        )
    )


def lean_cost_estimate(cert: dict[str, Any]) -> float | None:
    """Estimated seconds for the Lean kernel to check a rank certificate (lean_cost.py's
    model), None for other kinds (their kernel checks are small)."""
    args = _lean_shape(cert)
    return None if args is None else lean_rank_cost(*args)


def lean_memory_estimate(cert: dict[str, Any]) -> float | None:
    """Estimated GiB the Lean kernel retains checking a rank certificate (lean_cost.py's
    model), None for other kinds."""
    args = _lean_shape(cert)
    return None if args is None else lean_rank_memory_gib(*args)


def _lean_shape(cert: dict[str, Any]) -> tuple[int, int, int, int, int, int] | None:
    """(r, n, lattice, dout, tangents, moduli) of a certificate whose kind has a Lean cost
    model (registry: Kind.lean_shape, the rank kinds), None for other kinds."""
    line = registry.lookup(cert.get("family"), cert.get("kind"))
    if line is None or not line.lean_shape:
        return None
    return registry.resolve(line.lean_shape_path)(cert)


@contextmanager
def _kill_on_error() -> Iterator[None]:
    """On any exception (Ctrl-C, SIGTERM) kill the running provers before the enclosing
    scratch directory is removed, so that none writes into it while it goes."""
    try:
        yield
    except BaseException:
        kill_all()
        raise


def run_provers(
    dest: Path, items: list[Rendered], opts: Options, prog: Progress | None = None
) -> tuple[dict[str, Verdict], dict[str, Verdict], dict[str, str]]:
    """Coq and Lean verdicts per certificate name, plus the raw logs.

    The provers work in a scratch copy of `dest`'s Coq and Lean projects, so no build
    product ever lands in the bundle; the NNCert library comes from the cache
    (`opts.cache_base()`) or is compiled in the scratch directory. Phase seconds and the
    library's cache status go to `prog.timings`."""
    prog = prog or Progress()
    logs: dict[str, str] = {}
    coq: dict[str, Verdict] = {}
    lean: dict[str, Verdict] = {}
    with scratch_dir("nn-certify-provers-") as scratch, _kill_on_error():
        if not opts.run_coq:
            coq = {it.cert["name"]: Verdict(NOT_RUN, "disabled (--no-coq)") for it in items}
        else:
            coq = _run_coq(dest / "coq", scratch, items, opts, prog, logs)
        if not opts.run_lean:
            lean = {it.cert["name"]: Verdict(NOT_RUN, "disabled (--no-lean)") for it in items}
        else:
            # Above the estimated Lean kernel cost limit a certificate keeps its Lean file but
            # is left out of this build (aggregator and audit in the scratch copy): not-run.
            over: dict[str, Verdict] = {}
            for it in items:
                cost = lean_cost_estimate(it.cert)
                if cost is not None and cost > opts.lean_max_seconds:
                    over[it.cert["name"]] = Verdict(
                        NOT_RUN,
                        f"estimated Lean kernel cost {cost:.0f} s exceeds the limit "
                        f"{opts.lean_max_seconds:.0f} s (--lean-max-seconds; model in "
                        "certify/lean_cost.py)",
                    )
                gib = lean_memory_estimate(it.cert)
                if gib is not None and gib > opts.lean_max_gib and it.cert["name"] not in over:
                    over[it.cert["name"]] = Verdict(
                        NOT_RUN,
                        f"estimated Lean kernel memory {gib:.1f} GiB exceeds the limit "
                        f"{opts.lean_max_gib:.1f} GiB (--lean-max-gib; model in "
                        "certify/lean_cost.py)",
                    )
            run_items = [it for it in items if it.cert["name"] not in over]
            mods = {f"Certificates.{it.module}": it.lean_theorems for it in run_items}
            if leanp.lake_path() is None:
                by_mod = leanp.build_and_audit(dest / "lean", mods, opts.timeout)
            else:
                shutil.copytree(dest / "lean", scratch / "lean")
                if over:
                    _write_lean_roots(scratch / "lean", run_items)
                by_mod = leanp.build_and_audit(
                    scratch / "lean", mods, opts.timeout, prog.timings["library"], prog.phase
                )
            lean = {
                it.cert["name"]: over.get(it.cert["name"]) or by_mod[f"Certificates.{it.module}"]
                for it in items
            }
    return coq, lean, logs


def _run_coq(
    src: Path,
    scratch: Path,
    items: list[Rendered],
    opts: Options,
    prog: Progress,
    logs: dict[str, str],
) -> dict[str, Verdict]:
    if coqp.coqc_path() is None:
        return {it.cert["name"]: Verdict(NOT_RUN, "coqc not found on PATH") for it in items}
    work = scratch / "coq"
    (work / "Certificates").mkdir(parents=True)
    for it in items:
        rel = f"Certificates/{it.module}.v"
        shutil.copyfile(src / rel, work / rel)
    with prog.phase("coq library NNCert") as ph:
        lib = coqp.prepare_library(src, scratch / "coq-lib", opts.cache_base(), opts.timeout)
    prog.timings["library"]["coq"] = _library_timing(ph.seconds, lib)
    if lib.verdict.status != PASSED:
        msg = f"NNCert library: {lib.verdict.message}"
        return {it.cert["name"]: Verdict(lib.verdict.status, msg) for it in items}
    where = f"from the cache {lib.root}" if lib.cache == "hit" else f"({lib.cache})"
    logs["coq-library"] = f"NNCert {where}: {lib.verdict.seconds or 0:.2f} s of coqc"
    assert lib.root is not None

    def one(it: Rendered) -> Verdict:
        with prog.phase(f"coq {it.cert['name']}"):
            return coqp.compile_file(work, f"Certificates/{it.module}.v", opts.timeout, lib.root)

    pool = ThreadPoolExecutor(max_workers=max(1, opts.jobs))
    try:
        verdicts = list(pool.map(one, items))
    except BaseException:
        prog.mute()
        kill_all()  # Ctrl-C: stop the running coqc processes, start no new one
        pool.shutdown(wait=True, cancel_futures=True)
        raise
    pool.shutdown()
    compiled = {
        it.cert["name"]: (v, coq_audit.theorems_of(it.cert, it.module, it.coq_text))
        for it, v in zip(items, verdicts, strict=True)
    }
    with prog.phase("coq audit"), _kill_on_error():
        return coqp.audit_all(work, compiled, opts.timeout, lib.root)


def _sha_file(path: Path) -> str:
    """sha256 of a file, read in 1 MiB chunks (a huge log is never held in memory)."""
    h = hashlib.sha256()
    with path.open("rb") as f:
        while chunk := f.read(2**20):
            h.update(chunk)
    return h.hexdigest()


def manifest_entry(it: Rendered, checker: list[str], coq: Verdict, lean: Verdict) -> dict[str, Any]:
    name = it.cert["name"]
    return {
        "name": name,
        "family": it.cert["family"],
        "kind": it.cert["kind"],
        "sha256": it.sha,
        "file": f"certificates/{name}.json",
        "coq_file": f"coq/Certificates/{it.module}.v",
        "lean_file": f"lean/Certificates/{it.module}.lean",
        "architecture": architecture(it.cert),
        "claim": it.cert["claim"],
        "result": it.cert["result"],
        "verdicts": {
            "checker": PASSED if not checker else FAILED,
            "coq": coq.status,
            "lean": lean.status,
        },
        "messages": {"checker": checker, "coq": coq.message, "lean": lean.message},
        "coq_assumptions": coq.assumptions,
        "lean_axioms": lean.assumptions,
    }


def walk_files(root: Path) -> list[str]:
    """Every file (and symlink) under `root`, as sorted relative POSIX paths; symlinked
    directories are listed, not followed."""
    found: list[str] = []
    for d, dirs, files in os.walk(root, followlinks=False):
        base = Path(d)
        links = [x for x in dirs if (base / x).is_symlink()]
        for name in files + links:
            found.append((base / name).relative_to(root).as_posix())
    return sorted(found)


WRITTEN = "logs/written.json"  # sha256 of manifest.json and of the logs (written_record)
WRITTEN_SCHEMA = "nn-certify-written/1"


def _tree(root: Path) -> tuple[list[str], list[str]]:
    """The files (anything but a directory, symlinks included) and the directories under
    `root`, as sorted relative POSIX paths; symlinks are never followed."""
    files: list[str] = []
    dirs: list[str] = []
    for d, subdirs, names in os.walk(root, followlinks=False):
        base = Path(d)
        for x in subdirs:
            rel = (base / x).relative_to(root).as_posix()
            (files if (base / x).is_symlink() else dirs).append(rel)
        files += [(base / x).relative_to(root).as_posix() for x in names]
    return sorted(files), sorted(dirs)


def _regular(path: Path) -> bool:
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False


def _table_checksum(table: dict[str, str]) -> str:
    return hashlib.sha256(json.dumps(table, sort_keys=True).encode()).hexdigest()


def written_record(root: Path, inventory: dict[str, str | None]) -> bytes:
    """logs/written.json: the sha256 of manifest.json and of every file the inventory lists
    without one (the logs, which hold timings and so stay out of the deterministic
    manifest), and a checksum of that table. With the inventory's hashes it lets a re-run
    tell an unchanged bundle from one a user edited (`unowned_files`)."""
    rels = ["manifest.json"] + [r for r, h in inventory.items() if h is None and r != WRITTEN]
    table = {rel: _sha_file(root / rel) for rel in rels}
    record = {"schema": WRITTEN_SCHEMA, "sha256": table, "checksum": _table_checksum(table)}
    return (json.dumps(record, indent=1, sort_keys=True) + "\n").encode()


def _manifest_inventory(out: Path) -> tuple[dict[str, str | None] | None, str]:
    """The `files` inventory of out/manifest.json, or None and why it is not a bundle's."""
    mf = out / "manifest.json"
    if not mf.exists() and not mf.is_symlink():
        return None, "no manifest.json"
    if not _regular(mf):
        return None, "manifest.json is not a regular file"
    try:
        manifest = json.loads(mf.read_bytes())
    except (OSError, ValueError, RecursionError):
        return None, "manifest.json is not valid JSON"
    if not isinstance(manifest, dict) or manifest.get("schema") != MANIFEST_SCHEMA:
        return None, f"manifest.json has not the schema {MANIFEST_SCHEMA}"
    files = manifest.get("files")
    if not isinstance(files, dict) or not all(
        isinstance(h, str | None) and isinstance(r, str) for r, h in files.items()
    ):
        return None, "manifest.json has no file inventory ('files')"
    return files, ""


def _written_table(out: Path, files: dict[str, str | None]) -> tuple[dict[str, str], str]:
    """logs/written.json's table (file -> sha256), or {} and why it cannot be used."""
    expected = {"manifest.json"} | {r for r, h in files.items() if h is None and r != WRITTEN}
    p = out / WRITTEN
    if WRITTEN not in files or not _regular(p):
        return {}, f"cannot be verified: no {WRITTEN} (not written by this nn-certify)"
    try:
        rec = json.loads(p.read_bytes())
        table = rec["sha256"]
        ok = rec["schema"] == WRITTEN_SCHEMA and rec["checksum"] == _table_checksum(table)
    except (OSError, ValueError, RecursionError, KeyError, TypeError):
        ok = False
    if not ok or set(table) != expected or not all(isinstance(h, str) for h in table.values()):
        return {}, f"cannot be verified: {WRITTEN} was edited"
    return table, ""


def unowned_files(out: Path) -> list[str]:
    """Why the directory `out` is not a bundle that nn-certify wrote and nobody changed
    since: one line per file or directory (its path relative to `out`, then the reason);
    empty when it is one, or when `out` holds nothing at all.

    It is one exactly when out/manifest.json has the schema MANIFEST_SCHEMA and a `files`
    inventory, every file under `out` but manifest.json is listed there, every listed file
    exists and is a regular file with its listed sha256 (for the files listed without one,
    the logs, and for manifest.json itself: the sha256 logs/written.json records), and
    every directory holds a listed file. Anything else — a foreign manifest.json (a web-app
    manifest, `{}`), a file added or edited since, a symlink — is named here, and a re-run
    refuses to replace the directory."""
    files, dirs = _tree(out)
    if not files and not dirs:
        return []
    listed, why = _manifest_inventory(out)
    if listed is None:
        return [f"{rel} (not an nn-certify bundle: {why})" for rel in files + dirs]
    table, twhy = _written_table(out, listed)
    out_lines: list[str] = []
    for rel in files:
        if rel != "manifest.json" and rel not in listed:
            out_lines.append(f"{rel} (not written by nn-certify)")
            continue
        if not _regular(out / rel):
            out_lines.append(f"{rel} (not a regular file; nn-certify writes regular files)")
            continue
        if rel == WRITTEN:  # checked by _written_table: its schema and checksum
            if twhy:
                out_lines.append(f"{rel} ({twhy})")
            continue
        want = listed.get(rel) if rel != "manifest.json" else None
        want = want if want is not None else table.get(rel)
        if want is None:
            out_lines.append(f"{rel} ({twhy})")
        elif _sha_file(out / rel) != want:
            out_lines.append(f"{rel} (edited since nn-certify wrote it)")
    on_disk = set(files)
    out_lines += [
        f"{rel} (listed in manifest.json, missing)" for rel in listed if rel not in on_disk
    ]
    holding = {p.as_posix() for rel in listed for p in Path(rel).parents}
    out_lines += [f"{rel}/ (a directory nn-certify did not write)" for rel in dirs
                  if rel not in holding]  # fmt: skip
    return out_lines


def _refusal(shown: str, problems: list[str], during: bool = False) -> str:
    listed = "; ".join(problems[:10]) + (
        f"; and {len(problems) - 10} more" if len(problems) > 10 else ""
    )
    if during:
        return (
            f"--out {shown}: changed while this run was writing its bundle ({listed}); the new "
            f"bundle was not installed and nothing in {shown} was changed"
        )
    return (
        f"--out {shown}: not an unchanged nn-certify bundle ({listed}); refusing to replace "
        f"it, nothing was changed (move those files away, or use --force to move the whole "
        f"directory aside to {shown}.old-<UTC time>/: nothing is deleted)"
    )


def _lock(path: Path) -> int:
    """An exclusive flock on `path` (created), taken without waiting (BlockingIOError when
    another run holds it). The lock file is removed on release while still held, so a run
    that opened the old file retries on the new one (the inode check)."""
    while True:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            st, mine = os.stat(path), os.fstat(fd)
            if (st.st_dev, st.st_ino) == (mine.st_dev, mine.st_ino):
                return fd
        except FileNotFoundError:
            pass  # removed by the run that held it: retry on a fresh file
        except BaseException:
            os.close(fd)
            raise
        os.close(fd)


@dataclass
class OutputGuard:
    """An --out claimed by this run: the lock (held until `release`), the scratch sibling
    the bundle is written to (`.<name>.partial-*`), and the parent directories it created."""

    out: Path  # absolute
    shown: str  # as the user gave it
    lock: Path
    fd: int
    made: list[Path]
    tmp: Path | None = None

    def release(self, failed: bool) -> None:
        """Remove the scratch sibling and the lock file, then unlock; after a failure also
        the (empty) parent directories this run created."""
        if self.tmp is not None:
            shutil.rmtree(self.tmp, ignore_errors=True)
            self.tmp = None
        try:
            os.unlink(self.lock)
        except OSError:
            pass
        os.close(self.fd)
        if failed:
            _rmdirs(self.made)


def claim_output(out: Path, force: bool = False) -> OutputGuard:
    """Before any work: refuse an --out that cannot become a bundle (OutputError, exit 2),
    lock it against a concurrent run into the same --out (`.<name>.lock` beside it, an
    exclusive fcntl.flock held for the whole run: a second run is refused), and create the
    scratch sibling that the bundle is written to (an actual write: an unwritable place is
    refused here, not after the computation). Refused: a path that exists and is not a
    directory, a parent that is not a directory or not writable, an existing directory that
    is not writable, and, unless `force`, a directory holding anything `unowned_files`
    names."""
    shown = str(out)
    out = Path(os.path.abspath(out))
    if out.parent == out:
        raise OutputError(f"--out {shown}: a filesystem root cannot be a bundle")
    if out.is_symlink() or (out.exists() and not out.is_dir()):
        raise OutputError(f"--out {shown}: exists and is not a directory")
    anc = out.parent
    while not anc.exists() and anc != anc.parent:
        anc = anc.parent
    if not anc.is_dir():
        raise OutputError(f"--out {shown}: {anc} is not a directory")
    made: list[Path] = []
    try:
        for d in reversed([p for p in out.parents if p not in anc.parents and p != anc]):
            d.mkdir()
            made.append(d)
        fd = _lock(out.parent / f".{out.name}.lock")
    except BlockingIOError:
        _rmdirs(made)
        raise OutputError(
            f"--out {shown}: another certify run is writing it (it holds "
            f"{out.parent / f'.{out.name}.lock'}); refusing to run concurrently"
        ) from None
    except OSError as e:
        _rmdirs(made)
        raise OutputError(f"--out {shown}: {anc} is not writable ({e.strerror or e})") from None
    guard = OutputGuard(out, shown, out.parent / f".{out.name}.lock", fd, made)
    try:
        if out.is_dir():
            if not os.access(out, os.W_OK | os.X_OK):
                raise OutputError(
                    f"--out {shown}: not writable (an existing bundle is moved aside when replaced)"
                )
            problems = unowned_files(out)
            if problems and not force:
                raise OutputError(_refusal(shown, problems))
        guard.tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.partial-", dir=out.parent))
    except BaseException as e:
        guard.release(failed=True)
        if isinstance(e, OSError):
            raise OutputError(f"--out {shown}: cannot write in {out.parent}: {e}") from None
        raise
    return guard


def _rmdirs(made: list[Path]) -> None:
    for d in reversed(made):
        try:
            d.rmdir()
        except OSError:
            break


def file_inventory(root: Path) -> dict[str, str | None]:
    """Every file of a bundle but manifest.json, with its sha256 (logs/: None, they hold
    timings and are not reproducible)."""
    return {
        rel: None if rel.startswith("logs/") else _sha_file(root / rel)
        for rel in walk_files(root)
        if rel != "manifest.json"
    }


def build(
    specs: list[Spec],
    out: Path,
    opts: Options,
    progress: Callable[[str], None] = lambda s: None,
    prog: Progress | None = None,
) -> dict[str, Any]:
    """Generate, check, render and prove every certificate of `specs`; write the bundle.
    Progress goes to `prog` (certify.progress; default: lines to `progress`)."""
    spec_entries(specs)  # every spec can be bundled in specs/ (a SpecError, exit 2, if not)
    guard = claim_output(Path(out), opts.force)  # before any work: refused here, exit 2
    resume()
    prog = prog if prog is not None else Progress(progress)
    t0 = time.monotonic()
    ok = False
    try:
        manifest = _build(specs, guard, opts, prog, t0)
        ok = True
        return manifest
    except KeyboardInterrupt:
        prog.mute()
        raise
    finally:
        guard.release(failed=not ok)
        prog.close()


@dataclass
class TaskOutcome:
    """What one task (one [[certificate]] request) produced: its certificates, the checker's
    problems, the rendered files, the coqc verdicts, and seconds per phase (logs only)."""

    request: str
    certs: list[dict[str, Any]]
    checker: dict[str, list[str]]
    rendered: list[Rendered]
    # coqc's compile verdicts (`passed`: compiled; the audit of what the theorems assume runs
    # once for the whole run, in _build: `audit_tasks`)
    coq: dict[str, Verdict]
    seconds: dict[str, dict[str, float | None]]
    sources: str  # sha256 of the sources of the nn-certify that ran it (referee.tool_sources)
    vo: dict[str, bytes] = dataclasses.field(default_factory=dict)  # module -> compiled .vo
    library_key: str | None = None  # the NNCert library those .vo files were compiled against


def certify_task(
    spec: Spec, req: Any, run_coq: bool, timeout: float, cache_base: str | None
) -> TaskOutcome:
    """One task: generate the request's certificates, check each with the independent
    checker, render it, and (with `run_coq`) compile its Coq file with coqc against the
    NNCert library (from the cache `cache_base`, else compiled in scratch), returning the
    compiled .vo files for the run's one audit (`audit_tasks`). A pure function of its
    arguments and the tool's sources, whichever process or machine runs it."""
    resume()
    seconds: dict[str, dict[str, float | None]] = {}
    t = time.monotonic()
    with progress.step(req.name, "generate"):
        certs = generate_certificates(spec, req)
    gen = time.monotonic() - t
    checker: dict[str, list[str]] = {}
    rendered: list[Rendered] = []
    with progress.step(req.name, "checker, render"):
        for c in certs:
            t = time.monotonic()
            checker[c["name"]] = check_certificate(c)
            t2 = time.monotonic()
            rendered.append(render_certificate(c))
            seconds[c["name"]] = {"generate": gen, "checker": t2 - t,
                                  "render": time.monotonic() - t2}  # fmt: skip
    coq: dict[str, Verdict]
    vo: dict[str, bytes] = {}
    key: str | None = None
    if not run_coq:
        coq = {c["name"]: Verdict(NOT_RUN, "disabled (--no-coq)") for c in certs}
    elif coqp.coqc_path() is None:
        coq = {c["name"]: Verdict(NOT_RUN, "coqc not found on PATH") for c in certs}
    else:
        with (
            scratch_dir("nn-certify-task-") as work,
            _kill_on_error(),
            progress.step(req.name, "coqc"),
        ):
            base = None if cache_base is None else Path(cache_base)
            lib = coqp.prepare_library(resource_dir("coq"), work / "lib", base, timeout)
            if lib.verdict.status != PASSED or lib.root is None:
                msg = f"NNCert library: {lib.verdict.message}"
                coq = {c["name"]: Verdict(lib.verdict.status, msg) for c in certs}
            else:
                (work / "Certificates").mkdir()
                coq = {}
                key = lib.key
                for it in rendered:
                    rel = f"Certificates/{it.module}.v"
                    (work / rel).write_text(it.coq_text)
                    v = coqp.compile_file(work, rel, timeout, lib.root)
                    coq[it.cert["name"]] = v
                    if v.status == PASSED:
                        vo[it.module] = (work / rel).with_suffix(".vo").read_bytes()
    for c in certs:
        seconds[c["name"]]["coq"] = coq[c["name"]].seconds
    sources = tool_sources()["sha256"]
    return TaskOutcome(req.name, certs, checker, rendered, coq, seconds, sources, vo, key)


def audit_tasks(
    outcomes: list[TaskOutcome], opts: Options, prog: Progress, cache: Path | None
) -> dict[str, Verdict]:
    """The coqc verdict of every certificate of the run: the tasks compiled the files; here
    one audit driver checks what all their theorems assume (coqp.audit_all). The .vo files
    come from the tasks when they were compiled against this library (same key), else the
    file is compiled here. If the joint audit fails, each certificate is compiled and
    audited again on its own, from its rendered text, so that the verdict names the one at
    fault."""
    verdicts = {n: v for o in outcomes for n, v in o.coq.items()}
    todo = [
        (o, it) for o in outcomes for it in o.rendered if o.coq[it.cert["name"]].status == PASSED
    ]
    if not todo:
        return verdicts
    with scratch_dir("nn-certify-audit-") as work, _kill_on_error():
        with prog.phase("coq audit") as ph:
            lib = coqp.prepare_library(resource_dir("coq"), work / "lib", cache, opts.timeout)
            if lib.verdict.status != PASSED or lib.root is None:
                msg = f"NNCert library (audit): {lib.verdict.message}"
                verdicts.update(
                    {it.cert["name"]: Verdict(lib.verdict.status, msg) for _, it in todo}
                )
                return verdicts
            (work / "Certificates").mkdir()
            compiled: dict[str, tuple[Verdict, list[coq_audit.Theorem]]] = {}
            rels: dict[str, tuple[str, list[coq_audit.Theorem]]] = {}
            for o, it in todo:
                name, rel = it.cert["name"], f"Certificates/{it.module}.v"
                (work / rel).write_text(it.coq_text)
                v = verdicts[name]
                if o.library_key == lib.key and it.module in o.vo:
                    (work / rel).with_suffix(".vo").write_bytes(o.vo[it.module])
                else:
                    v = coqp.compile_file(work, rel, opts.timeout, lib.root)
                thms = coq_audit.theorems_of(it.cert, it.module, it.coq_text)
                compiled[name] = (v, thms)
                rels[name] = (rel, thms)

            def alone(name: str) -> Verdict:
                rel, thms = rels[name]
                return coqp.check_file(work, rel, opts.timeout, lib.root, thms)

            verdicts.update(coqp.audit_all(work, compiled, opts.timeout, lib.root, alone))
    prog.timings["coq_audit"] = ph.seconds
    return verdicts


def _build(
    specs: list[Spec], guard: OutputGuard, opts: Options, prog: Progress, t0: float
) -> dict[str, Any]:
    """The bundle in `guard.tmp`; the manifest. `private` (removed when the run ends) holds
    the NNCert library compiled for this run when there is no usable cache (--no-cache, an
    unwritable cache): the tasks and the audit take it from there, so the library is
    compiled once per run, not once per task and once more for the audit."""
    with scratch_dir("nn-certify-runlib-") as private:
        return _build_in(specs, guard, opts, prog, t0, private)


def _build_in(
    specs: list[Spec],
    guard: OutputGuard,
    opts: Options,
    prog: Progress,
    t0: float,
    private: Path,
) -> dict[str, Any]:
    out, tmp = Path(guard.shown), guard.tmp
    assert tmp is not None
    srcs = ", ".join(sorted({s.source for s in specs}))
    requests = [(spec, req) for spec in specs for req in spec.certificates]
    req_names = [req.name for _, req in requests]
    if len(set(req_names)) != len(req_names):
        dup = sorted({n for n in req_names if req_names.count(n) > 1})
        raise SpecError(srcs, "name", "certificate names unique across specs", dup)
    cache = opts.cache_base()
    if opts.run_coq and coqp.coqc_path() is not None:
        # Once here, so that the tasks find it in the cache (a remote worker without this
        # cache prepares its own).
        remote = opts.executor == "dask" and bool(opts.scheduler)
        with prog.phase("coq library NNCert") as ph:
            with scratch_dir("nn-certify-lib-") as td, _kill_on_error():
                if cache is None and not remote:  # --no-cache: compiled afresh, for this run
                    lib = coqp.prepare_library(resource_dir("coq"), td, private, opts.timeout)
                    shown = coqp.Library(lib.verdict, None, "disabled")
                    cache = private if lib.cache == "built" else None
                else:
                    lib = shown = coqp.prepare_library(resource_dir("coq"), td, cache, opts.timeout)
                    if lib.cache not in ("hit", "built") and not remote:
                        # the cache is unusable: the run's own copy (compiled once more)
                        again = coqp.prepare_library(
                            resource_dir("coq"), td / "private", private, opts.timeout
                        )
                        cache = private if again.cache == "built" else None
                    elif lib.cache not in ("hit", "built"):
                        cache = None  # each remote task compiles in its own scratch
        prog.timings["library"]["coq"] = _library_timing(ph.seconds, shown)
    tasks = [(spec, req, opts.run_coq, opts.timeout, None if cache is None else str(cache))
             for spec, req in requests]  # fmt: skip
    outcomes: list[TaskOutcome | None] = [None] * len(tasks)
    where = "dask " + (opts.scheduler or f"local cluster of {opts.workers or opts.jobs} workers")
    where = where if opts.executor == "dask" else f"{opts.jobs} job(s)"
    prog.say(f"[certify] {len(tasks)} task(s) (generate, check, render, coq) on {where}")
    prog.start(len(tasks))
    mine = tool_sources()["sha256"]
    here = opts.executor == "local" and (opts.jobs <= 1 or len(tasks) <= 1)  # as run_tasks
    with progress.live(prog if here else None):  # in this process: each phase as it ends
        for i, res in run_tasks(
            certify_task, tasks, opts.jobs, opts.executor, opts.scheduler, opts.workers
        ):
            if res.sources != mine:
                raise ExecutorError(
                    f"task {res.request} ran on nn-certify sources {res.sources[:16]}…, not "
                    f"these ({mine[:16]}…): install the same version on every worker; no "
                    "bundle written"
                )
            outcomes[i] = res
            if not here:  # elsewhere: its phases when it is done
                prog.phases_done(res.request, res.seconds)
            verdicts = ", ".join(
                "coq compiled" if v.status == PASSED else f"coq {v.status}"
                for v in res.coq.values()
            )
            prog.done(res.request, verdicts)
    prog.finish()
    done = [o for o in outcomes if o is not None]
    certs = [c for o in done for c in o.certs]
    items = [it for o in done for it in o.rendered]
    checker = {n: p for o in done for n, p in o.checker.items()}
    coq_verdicts = {n: v for o in done for n, v in o.coq.items()}
    if opts.run_coq and coqp.coqc_path() is not None:
        coq_verdicts = audit_tasks(done, opts, prog, cache)
    for o in done:
        for n, secs in o.seconds.items():
            for phase, sec in secs.items():
                prog.record(n, phase, sec)
            if n != o.request:
                prog.record(n, "generated_with", o.request)  # type: ignore[arg-type]
    names = [c["name"] for c in certs]
    if len(set(names)) != len(names):
        dup = sorted({n for n in names if names.count(n) > 1})
        raise SpecError(srcs, "name", "certificate names unique across specs", dup)
    with prog.phase("cross-check") as ph:
        for n, probs in cross_check(certs).items():
            checker[n] = checker[n] + probs
    prog.timings["cross_check"] = ph.seconds
    modules = [it.module for it in items]
    if len(set(modules)) != len(modules):
        dup = sorted({m for m in modules if modules.count(m) > 1})
        raise SpecError(
            srcs, "name", "names that map to distinct prover modules (rename one of them)",
            f"two map to the same prover module {dup}",
        )  # fmt: skip
    try:
        copy_libraries(tmp)
        write_sources(tmp, items)
        lean_opts = dataclasses.replace(opts, run_coq=False)
        if opts.run_lean:
            prog.say("[certify] run lean")
        _, lean, logs = run_provers(tmp, items, lean_opts, prog)
        coq = coq_verdicts
        lib_t = prog.timings["library"].get("coq")
        if lib_t is not None:
            src = (
                f"from the cache {lib_t['path']}"
                if lib_t["cache"] == "hit"
                else (f"({lib_t['cache']})")
            )
            logs["coq-library"] = f"NNCert {src}: {lib_t['compile_seconds'] or 0:.2f} s of coqc"
        for n in names:
            prog.record(n, "coq", coq[n].seconds)
            prog.record(n, "lean", lean[n].seconds)
        sdist = build_sdist()  # the exact tool, for `certify ci-template` (tool_sdist.py)
        if sdist is None:
            prog.say(f"[certify] note: {NO_SOURCE_TREE}")
        else:
            (tmp / "tool").mkdir()
            (tmp / sdist.rel).write_bytes(sdist.data)
        manifest = {
            "schema": MANIFEST_SCHEMA,
            "tool": tool_versions(),
            "tool_sources": tool_sources(),
            "tool_sdist": None if sdist is None else sdist.entry(),
            "specs": spec_entries(specs),
            "certificates": [
                manifest_entry(it, checker[n], coq[n], lean[n])
                for it, n in ((it, it.cert["name"]) for it in items)
            ],
        }
        (tmp / "logs").mkdir(exist_ok=True)
        for k, v in logs.items():
            (tmp / "logs" / f"{k}.log").write_text(v + "\n")
        results = table.rows(manifest, {it.cert["name"]: it.cert for it in items})
        write_results(tmp, results, prog.timings)
        figs = figures_for(items, results)
        if figs:
            (tmp / "figures").mkdir()
        for fname, fig in figs.items():
            with prog.phase(f"figure {fname}"):
                draw_figure(fname, fig, tmp / "figures" / fname, opts.cache_base())
        manifest["figures"] = {
            f: hashlib.sha256((tmp / "figures" / f).read_bytes()).hexdigest() for f in figs
        }
        (tmp / "report.md").write_text(report_md(manifest, results))
        write_specs(tmp, specs, manifest["specs"])
        for rel, text in referee_files(manifest).items():
            (tmp / rel).parent.mkdir(parents=True, exist_ok=True)
            (tmp / rel).write_text(text)
        prog.timings["total_seconds"] = time.monotonic() - t0
        (tmp / "logs" / "timings.json").write_text(
            json.dumps(prog.timings, indent=1, sort_keys=True) + "\n"
        )
        manifest["files"] = file_inventory(tmp) | {WRITTEN: None}
        (tmp / "manifest.json").write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")
        (tmp / WRITTEN).write_bytes(written_record(tmp, manifest["files"]))
        kept = install(guard, opts.force)
        if kept is not None:
            print(
                f"certify: the previous contents of {out} (not an unchanged nn-certify "
                f"bundle) were moved to {kept}; nothing was deleted",
                file=sys.stderr,
            )
    except BaseException as e:
        kill_all()
        if isinstance(e, OSError):
            raise OutputError(f"--out {out}: cannot write the bundle: {e}") from None
        raise
    return manifest


def spec_file(s: Spec) -> tuple[str, bytes]:
    """The file name and bytes under which the bundle's specs/ keeps `s`: a spec read from a
    file keeps that file's name and bytes; any other (a dict or TOML text given to the API,
    a Spec parsed in code) is written as canonical JSON of its decoded data (keys in their
    order, indent 1, ASCII) under `<name>.json`, so that `certify check` can re-run every
    bundle's specs. A SpecError if the data is not JSON or does not read back to the same
    spec (e.g. a Fraction, a tuple of pairs)."""
    if s.raw is not None:
        return Path(s.source).name, s.raw
    name = s.sweep or s.name
    if s.data is None:
        raise SpecError(s.source, "<top>", "a spec parsed by certify.spec (its data is bundled)")
    try:
        text = json.dumps(s.data, indent=1, ensure_ascii=True) + "\n"
        back = json.loads(text)
    except (TypeError, ValueError, RecursionError) as e:
        raise SpecError(
            s.source, "<top>", "values that JSON represents (the spec is bundled in specs/)",
            str(e),
        ) from None  # fmt: skip
    if back != s.data:
        from certify.spec import parse_specs

        again = parse_specs(back, s.source)
        if not any(a == s for a in again):
            raise SpecError(
                s.source, "<top>", "values that read back from JSON to the same spec "
                "(the spec is bundled in specs/)", "a value JSON changes",
            )  # fmt: skip
    return f"{name}.json", text.encode()


def _spec_groups(specs: list[Spec]) -> list[list[Spec]]:
    """Specs grouped by file: a spec alone, or the consecutive instances of one sweep."""
    groups: list[list[Spec]] = []
    for s in specs:
        prev = groups[-1][0] if groups else None
        if (
            s.sweep is not None
            and prev is not None
            and prev.sweep == s.sweep
            and prev.source == s.source
            and spec_file(prev) == spec_file(s)
        ):
            groups[-1].append(s)
        else:
            groups.append([s])
    return groups


def unique_spec_name(fname: str, taken: set[str]) -> str:
    """fname, or fname with "-2", "-3", ... before its suffix: the first not in `taken`
    (added to it). The one rule for bundled spec file names, shared by run and check."""
    stem, suffix = Path(fname).stem, Path(fname).suffix
    cand, n = fname, 1
    while cand in taken:
        n += 1
        cand = f"{stem}-{n}{suffix}"
    taken.add(cand)
    return cand


def spec_entries(specs: list[Spec]) -> list[dict[str, Any]]:
    """Manifest entries of the spec files: name, file name, and where the bundle keeps a copy
    (`specs/<file name>`, a numbered name when two specs share one; spec_file says what a
    spec not read from a file is kept as). The instances of one sweep share one entry,
    named after the sweep, listing its `instances` (certify/sweep.py)."""
    out: list[dict[str, Any]] = []
    taken: set[str] = set()
    for group in _spec_groups(specs):
        s = group[0]
        fname, _ = spec_file(s)
        cand = unique_spec_name(fname, taken)
        entry: dict[str, Any] = {
            "name": s.sweep or s.name,
            "file": fname,
            "bundled": f"specs/{cand}",
        }
        if s.sweep is not None:
            entry["instances"] = [g.name for g in group]
        out.append(entry)
    return out


def write_specs(dest: Path, specs: list[Spec], entries: list[dict[str, Any]]) -> None:
    """Every spec into specs/ (spec_entries names the file)."""
    (dest / "specs").mkdir(exist_ok=True)
    for group, e in zip(_spec_groups(specs), entries, strict=True):
        (dest / e["bundled"]).write_bytes(spec_file(group[0])[1])


def install(guard: OutputGuard, force: bool = False) -> Path | None:
    """Move the finished bundle (guard.tmp) into place at guard.out, under the lock held
    since the start. Just before the rename `unowned_files` runs again: anything added or
    edited in --out during the run makes it refuse (OutputError, exit 2; --out untouched)
    unless `force`. An existing directory is renamed aside first and checked once more
    there (where nothing writes into it any more): an unchanged bundle is then removed,
    anything else is kept, renamed to `<out>.old-<UTC time>`, and that path returned."""
    out, tmp, shown = guard.out, guard.tmp, guard.shown
    assert tmp is not None
    if out.is_symlink() or (out.exists() and not out.is_dir()):
        raise OutputError(f"--out {shown}: became something other than a directory during the run")
    if not out.exists():
        tmp.rename(out)
        guard.tmp = None
        return None
    problems = unowned_files(out)
    if problems and not force:
        raise OutputError(_refusal(shown, problems, during=True))
    aside = Path(tempfile.mkdtemp(prefix=f".{out.name}.old-", dir=out.parent))
    old = aside / "old"
    try:
        out.rename(old)
        try:
            tmp.rename(out)
        except BaseException:
            old.rename(out)  # put the old directory back
            raise
    except BaseException:
        shutil.rmtree(aside) if not old.exists() else None
        raise
    guard.tmp = None
    try:
        if not unowned_files(old):
            shutil.rmtree(aside, ignore_errors=True)
            return None
    except BaseException:
        pass  # interrupted while checking: keep it, visibly
    keep = out.parent / f"{out.name}.old-{time.strftime('%Y%m%dT%H%M%SZ', time.gmtime())}"
    n = 1
    while keep.exists() or keep.is_symlink():
        n += 1
        keep = keep.with_name(
            f"{out.name}.old-{time.strftime('%Y%m%dT%H%M%SZ', time.gmtime())}-{n}"
        )
    old.rename(keep)
    aside.rmdir()
    return keep


def figures_for(
    items: list[Rendered], results: list[dict[str, Any]] | None = None
) -> dict[str, Figure]:
    """The pictures that help read these certificates (file name -> Figure, its input and
    drawing function): those of each certificate's kind (registry: Kind.figures, e.g.
    Figure 1 for its implicit certificate; input: the certificate); dimensions.png
    (table.draw_dimensions; input: the results table) for a bundle with rank certificates."""
    from certify.dimension_figure import is_rank_row

    out: dict[str, Figure] = {}
    for it in items:
        line = registry.lookup(it.cert.get("family"), it.cert.get("kind"))
        if line is not None and line.figures:
            cert_text = json.dumps(it.cert, sort_keys=True)
            for name, draw in registry.resolve(line.figures_path)(it.cert).items():
                out[name] = Figure(cert_text, draw)
    if results is not None and any(is_rank_row(r) for r in results):
        rows = list(results)
        draw = lambda p: table.draw_dimensions(rows, p)  # noqa: E731
        out[DIMENSIONS_PNG] = Figure(table.json_text(rows), draw)
    return out


def write_results(dest: Path, results: list[dict[str, Any]], timings: dict[str, Any]) -> None:
    """results.csv and results.json (deterministic, hashed in the manifest), and
    logs/results-seconds.csv (seconds per phase; logs/ is not hashed)."""
    (dest / "results.csv").write_text(table.csv_text(results))
    (dest / "results.json").write_text(table.json_text(results))
    (dest / "logs").mkdir(exist_ok=True)
    secs = table.seconds_rows(results, timings)
    (dest / "logs" / "results-seconds.csv").write_text(
        table.csv_text(secs, ("name",) + table.SECONDS_COLUMNS)
    )


def all_passed(manifest: dict[str, Any]) -> bool:
    """No verdict failed or timed out (not-run is reported, not a failure)."""
    return all(
        v not in (FAILED, TIMEOUT) for e in manifest["certificates"] for v in e["verdicts"].values()
    )


def unmet_requirements(entries: list[dict[str, Any]], require: frozenset[str]) -> list[str]:
    """One line per required prover that did not pass every certificate (`--require`)."""
    out: list[str] = []
    for prover in sorted(require):
        bad = [e for e in entries if e["verdicts"].get(prover) != PASSED]
        if bad:
            kinds = sorted({str(e["verdicts"].get(prover)) for e in bad})
            names = ", ".join(e["name"] for e in bad[:5]) + (" …" if len(bad) > 5 else "")
            out.append(
                f"required prover {prover}: {len(bad)} of {len(entries)} certificate(s) "
                f"{'/'.join(kinds)} ({names})"
            )
    return out
