"""coqc: discovery, compiling the NNCert library (once per library hash and coqc version,
into a cache) and certificates, Print Assumptions audit."""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import re
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from certify import scratch as scratch_dirs
from certify.errors import CertifyError
from certify.provers import coq_audit
from certify.provers.common import FAILED, NOT_RUN, PASSED, TIMEOUT, Run, Verdict, run
from certify.provers.coq_library import LIBRARY as LIBRARY

# Print Assumptions lists Coq's primitive 63-bit integer type and operations as axioms: they are
# kernel primitives (docs/architecture.md, kernel library conventions). The theorems of RankSound.v
# and UpperSound*.v use the specification axioms of those primitives from Coq's standard library
# (Uint63.v in Coq 8.16: each says what one native operation computes, e.g. add_spec: phi (x + y) =
# (phi x + phi y) mod 2^63). The audit (coq_audit.py: a driver file and an awk program, the same as
# the bundle's build.sh runs) compares every assumption by name and printed type with exactly these;
# anything else fails.
UINT63_SPECS = frozenset(f"Uint63.{n}" for n in coq_audit.UINT63_SPECS)
_ERR = re.compile(
    r'File "(?P<file>[^"]+)", line (?P<line>\d+), characters [^\n]*\n(?P<msg>Error:.*)', re.S
)
CACHE_FORMAT = "nn-certify-coq-cache/1"
STAMP = "nn-certify-cache.json"
# Every coqc runs under an address-space limit (RLIMIT_AS) of this many GiB, so that a runaway
# computation (a huge unary nat, say) fails with a named verdict instead of taking the machine.
MEMORY_ENV = "NN_CERTIFY_COQC_MEMORY_GIB"
DEFAULT_MEMORY_GIB = 8.0
_OOM = re.compile(r"\bout of memory\b|Out_of_memory|Cannot allocate memory", re.I)


def memory_limit_gib() -> float | None:
    """The coqc memory limit in GiB: $NN_CERTIFY_COQC_MEMORY_GIB (a positive number; 0 for
    no limit), else DEFAULT_MEMORY_GIB."""
    raw = os.environ.get(MEMORY_ENV, "").strip()
    if not raw:
        return DEFAULT_MEMORY_GIB
    try:
        gib = float(raw)
    except ValueError:
        gib = -1.0
    if not gib >= 0 or gib == float("inf"):
        raise CertifyError(f"{MEMORY_ENV}={raw[:40]!r}: expected a number of GiB (0: no limit)")
    return gib or None


def _gib_text(gib: float) -> str:
    return f"{gib:g}"


# coqc's OCaml garbage collector. Left alone (OCAMLRUNPARAM unset), Coq 8.16 gives itself a
# 256 MB minor heap and best-fit allocation with space_overhead 200 (coqinit.ml `init_gc`):
# right for a long kernel computation, but a certificate that mostly loads the library, and
# the audit driver, pay for the large heap in page faults and collections. For those the
# OCaml defaults (a 2 MB minor heap) with a lazier major collector (space_overhead 1000) take
# 10-20 % less CPU and less memory; for a large elimination they take more of both.
# `python benchmarks/bench_coq_gc.py --big` (results-coq-gc.json): the quick demo's 18
# certificates and its audit 14.45 -> 12.48 s CPU, the 128 KB (20,30,12,1) certificate
# 9.3 -> 11.8 s and 624 -> 1480 MB; a 28 KB rank certificate 3.49 -> 3.15 s (docs/
# performance.md). Hence by file size. The library's files (proof scripts, no long kernel
# computation) compile in 0.68-0.90x the CPU under the small-file setting, every one of them
# (the whole library 25.0 -> 19.9 s, peak 524 -> 341 MB), whatever their size.
# The collector changes when memory is reclaimed, never what the kernel computes or accepts.
GC_ENV = "OCAMLRUNPARAM"
SMALL_FILE_GC = "o=1000"
SMALL_FILE_BYTES = 32 * 1024


def gc_env(path: Path | None) -> dict[str, str] | None:
    """The environment for coqc of `path`: the small-file collector setting when the user has
    not set OCAMLRUNPARAM and `path` is a certificate of at most SMALL_FILE_BYTES, or None for
    a file that runs no long kernel computation at any size (a library file: proof scripts;
    an audit driver: loading and one walk of the dependencies); else None (this process's
    environment: Coq's own policy, or the user's)."""
    if GC_ENV in os.environ:
        return None
    try:
        small = path is None or path.stat().st_size <= SMALL_FILE_BYTES
    except OSError:
        return None
    return {**os.environ, GC_ENV: SMALL_FILE_GC} if small else None


def _coqc(
    cmd: list[str], cwd: Path, timeout: float, env: dict[str, str] | None = None
) -> tuple[Run, str | None]:
    """Run coqc under the memory limit (in `env`, default this process's environment); (the
    run, the named failure when it ran out of memory under the limit, else None)."""
    gib = memory_limit_gib()
    r = run(cmd, cwd, timeout, None if gib is None else int(gib * 2**30), env)
    if gib is not None and r.returncode not in (0, None) and _OOM.search(r.output):
        return r, f"coqc exceeded the memory limit of {_gib_text(gib)} GiB ({MEMORY_ENV})"
    return r, None


def coqc_path() -> str | None:
    return shutil.which("coqc")


def version_text() -> str | None:
    """The whole `coqc --version` output (Coq and OCaml versions): part of the cache key."""
    exe = coqc_path()
    if exe is None:
        return None
    r = run([exe, "--version"], Path.cwd(), 30)
    return r.output.strip() if r.returncode == 0 else None


def version() -> str | None:
    text = version_text()
    m = re.search(r"version (\S+)", text or "")
    return m.group(1) if m else None


def _flags(lib: Path | None = None) -> list[str]:
    nncert = "NNCert" if lib is None else str(lib / "NNCert")
    return ["-q", "-R", nncert, "NNCert", "-R", "Certificates", "Certificates"]


def build_library(coq_dir: Path, timeout: float, modules: list[str] | None = None) -> Verdict:
    """Compile NNCert/*.v in `coq_dir`, in dependency order (each compile checks the
    soundness proofs)."""
    exe = coqc_path()
    if exe is None:
        return Verdict(NOT_RUN, "coqc not found on PATH")
    total = 0.0
    for mod in LIBRARY if modules is None else modules:
        cmd = [exe, "-q", "-R", "NNCert", "NNCert", f"NNCert/{mod}.v"]
        r, oom = _coqc(cmd, coq_dir, timeout, gc_env(None))
        total += r.seconds
        if r.timed_out:
            return Verdict(TIMEOUT, f"NNCert/{mod}.v: timed out after {timeout:.0f} s", total)
        if oom:
            return Verdict(FAILED, f"NNCert/{mod}.v: {oom}", total)
        if r.returncode != 0:
            msg = error_message(r.output, r.returncode)
            return Verdict(FAILED, f"NNCert/{mod}.v: {msg}", total)
    return Verdict(PASSED, "", total)


def default_cache_base() -> Path:
    """$NN_CERTIFY_CACHE, else $XDG_CACHE_HOME/nn-certify, else ~/.cache/nn-certify."""
    env = os.environ.get("NN_CERTIFY_CACHE")
    if env:
        return Path(env)
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg) if xdg and os.path.isabs(xdg) else Path.home() / ".cache"
    return base / "nn-certify"


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def library_key(src: Path, modules: list[str], coqc_version: str) -> str:
    """Hash of the library sources (in order), the coqc version and the compile flags."""
    h = hashlib.sha256()
    h.update(f"{CACHE_FORMAT}\n{coqc_version}\n-q -R NNCert NNCert\n".encode())
    for mod in modules:
        h.update(f"{mod}\0{_sha(src / 'NNCert' / f'{mod}.v')}\n".encode())
    return h.hexdigest()[:32]


@dataclass
class Library:
    """A compiled NNCert library: `root / "NNCert"` holds the .vo files."""

    verdict: Verdict
    root: Path | None
    cache: str  # "hit", "built", "disabled", or "unavailable: <why>" (built in scratch)
    key: str | None = None


def _valid(final: Path, key: str, modules: list[str]) -> bool:
    try:
        stamp = json.loads((final / STAMP).read_text())
        if stamp.get("key") != key or stamp.get("modules") != modules:
            return False
        vo = stamp["vo_sha256"]
        return all(_sha(final / "NNCert" / f"{m}.vo") == vo[m] for m in modules)
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return False


def _scratch_build(src: Path, scratch: Path, timeout: float, modules: list[str]) -> Verdict:
    for mod in modules:  # a module is a path under NNCert/ (coq_library.LIBRARY)
        (scratch / "NNCert" / mod).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src / "NNCert" / f"{mod}.v", scratch / "NNCert" / f"{mod}.v")
    return build_library(scratch, timeout, modules)


def prepare_library(
    src: Path,
    scratch: Path,
    cache_base: Path | None,
    timeout: float,
    modules: list[str] | None = None,
) -> Library:
    """The compiled library for the sources in `src` (a Coq project holding NNCert/*.v).

    With a cache base, reuse `<base>/coq/<key>` or build it there atomically (a temporary
    sibling renamed into place under an exclusive lock, so two processes never see half a
    library); a cache that cannot be written falls back to building in `scratch`. Without
    one (`--no-cache`), build in `scratch`."""
    modules = list(LIBRARY if modules is None else modules)
    if coqc_path() is None:
        return Library(Verdict(NOT_RUN, "coqc not found on PATH"), None, "disabled")
    if cache_base is None:
        return Library(_scratch_build(src, scratch, timeout, modules), scratch, "disabled")
    ver = version_text()
    if ver is None:  # no key without a version: compile in scratch
        v = _scratch_build(src, scratch, timeout, modules)
        return Library(v, scratch, "unavailable: coqc --version failed")
    key = library_key(src, modules, ver)
    parent = Path(cache_base) / "coq"
    final = parent / key
    try:
        parent.mkdir(parents=True, exist_ok=True)
        with open(parent / f"{key}.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if _valid(final, key, modules):
                return Library(Verdict(PASSED, "", 0.0), final, "hit", key)
            for stale in parent.glob(f".{key}.*-*"):  # a crashed build's (we hold the lock)
                shutil.rmtree(stale, ignore_errors=True)
            tmp = scratch_dirs.register(Path(tempfile.mkdtemp(prefix=f".{key}.tmp-", dir=parent)))
            try:
                v = _scratch_build(src, tmp, timeout, modules)
                if v.status != PASSED:
                    shutil.rmtree(tmp, ignore_errors=True)
                    return Library(v, None, "built", key)
                vo = {m: _sha(tmp / "NNCert" / f"{m}.vo") for m in modules}
                stamp = {"key": key, "format": CACHE_FORMAT, "coqc": ver, "modules": modules}
                stamp["vo_sha256"] = vo
                (tmp / STAMP).write_text(json.dumps(stamp, indent=1, sort_keys=True) + "\n")
                if final.exists():  # stale or corrupt: move aside, then replace
                    stale = Path(tempfile.mkdtemp(prefix=f".{key}.stale-", dir=parent))
                    final.rename(stale / "old")
                    shutil.rmtree(stale, ignore_errors=True)
                tmp.rename(final)
            except BaseException:
                shutil.rmtree(tmp, ignore_errors=True)
                raise
            finally:
                scratch_dirs.release(tmp)
            return Library(v, final, "built", key)
    except OSError as e:
        why = f"unavailable: {parent}: {e.strerror or e}"
        return Library(_scratch_build(src, scratch, timeout, modules), scratch, why, key)


def parse_assumptions(output: str) -> list[str]:
    """Names listed by one or more Print Assumptions answers (empty for 'Closed under the
    global context'). For reading answers in tests and benchmarks only: verdicts come from
    `audit` (names and types against the allowed list, in the driver's context)."""
    names: list[str] = []
    in_axioms = False
    for line in output.splitlines():
        if line.startswith("Axioms:"):
            in_axioms = True
            continue
        if in_axioms:
            m = re.match(r"^(\S+)(?: :|$)", line)
            if m:
                names.append(m.group(1))
            elif line and not line[0].isspace():
                in_axioms = False
    return sorted(set(names))


def error_message(output: str, returncode: int | None = None) -> str:
    m = _ERR.search(output)
    if m:
        msg = " ".join(m.group("msg").split())
        return f"{m.group('file')}:{m.group('line')}: {msg}"[:2000]
    status = ""
    if returncode is not None and returncode < 0:
        status = f" (killed by signal {-returncode})"
    elif returncode is not None:
        status = f" (exit status {returncode})"
    return " ".join(output.split())[-2000:] or f"coqc failed without a message{status}"


def allowed_assumption(name: str, reals: bool = False) -> bool:
    """A kernel primitive of Coq's PrimInt63, or one of their Uint63 specification axioms
    (names as the audit driver prints them, e.g. PrimInt63.add, Uint63.add_spec); with
    `reals`, also an axiom of Coq's real numbers (coq_audit.REALS_NAMES)."""
    return name in coq_audit.ALLOWED_NAMES or (reals and name in coq_audit.REALS_NAMES)


def audit(
    coq_dir: Path, theorems: list[coq_audit.Theorem], timeout: float, lib: Path | None = None
) -> tuple[Verdict, list[str]]:
    """Compile the audit driver for `theorems` (their modules compiled in `coq_dir`) and check
    its Print Assumptions answer with the awk program (coq_audit.py). Passed iff every theorem
    exists, proves the statement the driver states, and assumes only Coq's primitive integers
    and their specification axioms. Also returns the allowed assumptions found (those of all
    of `theorems` together: one Print Assumptions walks their tuple)."""
    exe, awk = coqc_path(), shutil.which("awk")
    if exe is None:
        return Verdict(NOT_RUN, "coqc not found on PATH"), []
    if awk is None:
        return Verdict(FAILED, "audit: awk not found on PATH (the audit is an awk program)"), []
    if not theorems:
        return Verdict(FAILED, "audit: no theorem to audit"), []
    tag = hashlib.sha256("\n".join(t.full for t in theorems).encode()).hexdigest()[:12]
    drv = coq_dir / f"NNCertAudit_{tag}.v"
    prog = coq_dir / f"nncert_audit_{tag}.awk"
    drv.write_text(coq_audit.driver_text(theorems))
    prog.write_text(coq_audit.AUDIT_AWK)
    r, oom = _coqc([exe, *_flags(lib), drv.name], coq_dir, timeout, gc_env(None))
    if r.timed_out:
        return Verdict(TIMEOUT, f"audit driver: timed out after {timeout:.0f} s", r.seconds), []
    if oom:
        return Verdict(FAILED, f"audit driver: {oom}", r.seconds), []
    if r.returncode != 0:
        msg = error_message(r.output, r.returncode)
        return Verdict(FAILED, f"audit driver (a theorem missing or not the expected "
                       f"statement): {msg}", r.seconds), []  # fmt: skip
    out = coq_dir / f"nncert_audit_{tag}.out"
    out.write_text(r.stdout)
    a = run([awk, "-f", prog.name, drv.name, out.name], coq_dir, 60)
    res = coq_audit.parse_awk(a.output)
    if a.returncode != 0 and not res.failures:
        res.failures.append(f"awk exited with status {a.returncode}: {a.output.strip()[:500]}")
    names = sorted({n for ns in res.axioms.values() for n in ns})
    if res.failures:
        return Verdict(FAILED, "; ".join(res.failures)[:4000], r.seconds), names
    return Verdict(PASSED, "", r.seconds), names


def compile_file(coq_dir: Path, rel: str, timeout: float, lib: Path | None = None) -> Verdict:
    """coqc one certificate file (relative path `rel` under `coq_dir`, against the NNCert
    library at `lib`, default `coq_dir` itself). `passed` here means only that it compiled
    and turns no kernel check off: what its theorems assume is for `audit`."""
    exe = coqc_path()
    if exe is None:
        return Verdict(NOT_RUN, "coqc not found on PATH")
    text = (coq_dir / rel).read_text(errors="replace")
    unsafe = coq_audit.unsafe_lines(text)
    if unsafe:
        msg = f"{rel}: turns a kernel check off or declares an assumption: {'; '.join(unsafe)}"
        return Verdict(FAILED, msg[:1000])
    r, oom = _coqc([exe, *_flags(lib), rel], coq_dir, timeout, gc_env(coq_dir / rel))
    if r.timed_out:
        return Verdict(TIMEOUT, f"timed out after {timeout:.0f} s", r.seconds)
    if oom:
        return Verdict(FAILED, oom, r.seconds)
    if r.returncode != 0:
        return Verdict(FAILED, error_message(r.output, r.returncode), r.seconds)
    return Verdict(PASSED, "", r.seconds)


def _audited(compiled: Verdict, audited: Verdict, share: float, names: list[str]) -> Verdict:
    """A certificate's verdict from its compile and the audit of its theorems (`share`: its
    part of the audit's seconds)."""
    seconds = (compiled.seconds or 0.0) + share
    if audited.status != PASSED:
        return Verdict(audited.status, audited.message, seconds)
    return Verdict(PASSED, "", seconds, names)


def _names_of(theorems: list[coq_audit.Theorem], names: list[str]) -> list[str]:
    """The audit's allowed assumptions a certificate may be said to rest on: the axioms of the
    reals only if one of its theorems is over the reals (the others are audited in a group
    that does not allow them, coq_audit.driver_text)."""
    if any(t.reals for t in theorems):
        return names
    return [n for n in names if n not in coq_audit.REALS_NAMES]


def audit_all(
    coq_dir: Path,
    compiled: dict[str, tuple[Verdict, list[coq_audit.Theorem]]],
    timeout: float,
    lib: Path | None = None,
    fallback: Callable[[str], Verdict] | None = None,
) -> dict[str, Verdict]:
    """Final verdicts for certificates compiled in `coq_dir`: key -> (compile verdict, the
    theorems to audit). One audit driver covers every compiled certificate (one Print
    Assumptions over the tuple of all their theorems: the MathComp walk is paid once, not per
    certificate); each gets an equal share of its seconds and the assumptions of the whole
    tuple. If that audit does not pass, every certificate is judged on its own, so that the
    verdict names the one at fault: by `fallback(key)` if given (e.g. compile and audit again
    from the rendered text, when the compiled files came from elsewhere), else by an audit of
    its theorems alone. A certificate that did not compile keeps its compile verdict."""
    out = {k: v for k, (v, _) in compiled.items() if v.status != PASSED}
    ok = [k for k, (v, _) in compiled.items() if v.status == PASSED]
    if not ok:
        return out
    theorems = [t for k in ok for t in compiled[k][1]]
    if any(not compiled[k][1] for k in ok):
        together = Verdict(FAILED, "audit: a certificate has no theorem to audit")
        names: list[str] = []
    else:
        together, names = audit(coq_dir, theorems, timeout, lib)
    if together.status == PASSED or (len(ok) == 1 and fallback is None):
        share = (together.seconds or 0.0) / len(ok)
        out.update(
            {k: _audited(compiled[k][0], together, share, _names_of(compiled[k][1], names))
             for k in ok}
        )  # fmt: skip
        return out
    for k in ok:
        if fallback is not None:
            v = fallback(k)
            extra = together.seconds or 0.0
            out[k] = Verdict(v.status, v.message, (v.seconds or 0.0) + extra / len(ok),
                             v.assumptions)  # fmt: skip
            continue
        if not compiled[k][1]:
            out[k] = Verdict(FAILED, "audit: no theorem to audit", compiled[k][0].seconds)
            continue
        alone, names = audit(coq_dir, compiled[k][1], timeout, lib)
        out[k] = _audited(compiled[k][0], alone, alone.seconds or 0.0, names)
    return out


def _theorems_from_file(module: str, text: str) -> list[coq_audit.Theorem]:
    """Fallback when the caller names no theorems: those the file itself marks audited
    (weaker: a file that marks nothing names nothing, and fails)."""
    return coq_audit.theorems_of({}, module, text)


def check_file(
    coq_dir: Path,
    rel: str,
    timeout: float,
    lib: Path | None = None,
    theorems: list[coq_audit.Theorem] | None = None,
) -> Verdict:
    """coqc one certificate file, then audit its theorems (`audit`); passed iff it compiles,
    turns no kernel check off, and its theorems prove the driver's statements assuming only
    primitives (and their Uint63 specification axioms). For many files, `compile_file` each
    and `audit_all` once is much cheaper.

    `lib`: the root of a compiled NNCert library (default: `coq_dir` itself). `theorems`:
    what to audit, from the faithful rendered file (coq_audit.theorems_of); by default the
    theorems the file itself marks audited."""
    compiled = compile_file(coq_dir, rel, timeout, lib)
    if compiled.status != PASSED:
        return compiled
    if theorems is None:
        module = Path(rel).with_suffix("").as_posix().replace("/", ".")
        text = (coq_dir / rel).read_text(errors="replace")
        theorems = _theorems_from_file(module.split(".", 1)[-1], text)
    return audit_all(coq_dir, {rel: (compiled, theorems)}, timeout, lib)[rel]
