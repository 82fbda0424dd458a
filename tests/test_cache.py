"""The Coq NNCert library is compiled once per (library sources, coqc version) into a cache
and reused; the cache is built atomically; bundles carry sources only and rebuild with coqc
alone; phase timings land in logs/timings.json."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from certify.bundle import BUILD_PRODUCTS
from certify.progress import Progress
from certify.provers import coq as coqp
from certify.resources import resource_dir
from tests.conftest import compiled_files, coqc_reusing
from tests.test_bundle import SPEC

ROOT = Path(__file__).resolve().parent.parent
needs_coqc = pytest.mark.skipif(shutil.which("coqc") is None, reason="coqc not installed")
MODS = ["A", "B"]


def _fake_library(root: Path) -> Path:
    (root / "NNCert").mkdir(parents=True)
    (root / "NNCert" / "A.v").write_text("Definition a := 1.\n")
    (root / "NNCert" / "B.v").write_text("From NNCert Require Import A.\nDefinition b := a + 1.\n")
    return root


def _cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "certify.cli", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=600,
    )


def test_library_list_is_the_coq_project_of_the_checkout():
    lines = (resource_dir("coq") / "_CoqProject").read_text().split()
    assert [x[len("NNCert/") : -2] for x in lines if x.endswith(".v")] == coqp.LIBRARY


def test_cache_base_follows_flag_then_variable_then_xdg_then_home(monkeypatch, tmp_path):
    monkeypatch.delenv("NN_CERTIFY_CACHE", raising=False)
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    assert coqp.default_cache_base() == Path.home() / ".cache" / "nn-certify"
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert coqp.default_cache_base() == tmp_path / "xdg" / "nn-certify"
    monkeypatch.setenv("NN_CERTIFY_CACHE", str(tmp_path / "mine"))
    assert coqp.default_cache_base() == tmp_path / "mine"
    from certify.bundle import Options

    assert Options(cache_dir=tmp_path / "flag").cache_base() == tmp_path / "flag"
    assert Options().cache_base() == tmp_path / "mine"
    assert Options(use_cache=False, cache_dir=tmp_path / "flag").cache_base() is None


def test_key_covers_every_listed_module_its_source_and_the_coqc_version(tmp_path):
    src = _fake_library(tmp_path / "src")
    k = coqp.library_key(src, MODS, "The Coq Proof Assistant, version 8.16.1")
    assert k == coqp.library_key(src, MODS, "The Coq Proof Assistant, version 8.16.1")
    assert k != coqp.library_key(src, MODS, "The Coq Proof Assistant, version 8.17.0")
    assert k != coqp.library_key(src, ["A"], "The Coq Proof Assistant, version 8.16.1")
    (src / "NNCert" / "B.v").write_text("Definition b := 3.\n")
    assert k != coqp.library_key(src, MODS, "The Coq Proof Assistant, version 8.16.1")


@needs_coqc
def test_library_is_built_once_then_reused_and_rebuilt_when_a_source_changes(tmp_path):
    src = _fake_library(tmp_path / "src")
    cache = tmp_path / "cache"
    first = coqp.prepare_library(src, tmp_path / "s1", cache, 60, MODS)
    assert first.verdict.status == "passed" and first.cache == "built"
    assert first.root == cache / "coq" / first.key
    assert (first.root / "NNCert" / "B.vo").is_file()
    again = coqp.prepare_library(src, tmp_path / "s2", cache, 60, MODS)
    assert again.cache == "hit" and again.root == first.root
    assert not (tmp_path / "s2").exists()  # nothing compiled
    (src / "NNCert" / "B.v").write_text("From NNCert Require Import A.\nDefinition b := a.\n")
    changed = coqp.prepare_library(src, tmp_path / "s3", cache, 60, MODS)
    assert changed.cache == "built" and changed.key != first.key
    assert [p.name for p in (cache / "coq").iterdir() if p.name.startswith(".")] == []


@needs_coqc
def test_a_corrupted_cache_entry_is_rebuilt_not_trusted(tmp_path):
    src = _fake_library(tmp_path / "src")
    cache = tmp_path / "cache"
    lib = coqp.prepare_library(src, tmp_path / "s", cache, 60, MODS)
    assert lib.root is not None
    (lib.root / "NNCert" / "A.vo").write_bytes(b"garbage")
    again = coqp.prepare_library(src, tmp_path / "s", cache, 60, MODS)
    assert again.cache == "built" and again.verdict.status == "passed"
    assert (again.root / "NNCert" / "A.vo").read_bytes() != b"garbage"  # type: ignore[union-attr]


@needs_coqc
def test_a_crashed_build_leaves_nothing_that_survives_the_next_build(tmp_path):
    src = _fake_library(tmp_path / "src")
    cache = tmp_path / "cache"
    key = coqp.library_key(src, MODS, coqp.version_text() or "")
    crashed = cache / "coq" / f".{key}.tmp-abc123"
    (crashed / "NNCert").mkdir(parents=True)
    (crashed / "NNCert" / "A.vo").write_bytes(b"half")
    lib = coqp.prepare_library(src, tmp_path / "s", cache, 60, MODS)
    assert lib.cache == "built" and lib.key == key
    assert not crashed.exists()
    assert sorted(p.name for p in (cache / "coq").iterdir()) == [key, f"{key}.lock"]


def test_error_message_without_output_names_the_exit_status():
    assert coqp.error_message("", -9) == "coqc failed without a message (killed by signal 9)"
    assert coqp.error_message("", 1) == "coqc failed without a message (exit status 1)"


@needs_coqc
def test_a_failing_library_is_not_cached(tmp_path):
    src = _fake_library(tmp_path / "src")
    (src / "NNCert" / "B.v").write_text("Definition b := undefined_name.\n")
    cache = tmp_path / "cache"
    lib = coqp.prepare_library(src, tmp_path / "s", cache, 60, MODS)
    assert lib.verdict.status == "failed" and "NNCert/B.v" in lib.verdict.message
    assert [p for p in (cache / "coq").iterdir() if p.is_dir()] == []


@needs_coqc
def test_no_cache_builds_in_scratch_and_an_unwritable_cache_falls_back(tmp_path):
    src = _fake_library(tmp_path / "src")
    lib = coqp.prepare_library(src, tmp_path / "s", None, 60, MODS)
    assert lib.cache == "disabled" and lib.root == tmp_path / "s"
    assert (tmp_path / "s" / "NNCert" / "B.vo").is_file()
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    lib = coqp.prepare_library(src, tmp_path / "s2", blocker, 60, MODS)
    assert lib.verdict.status == "passed" and lib.cache.startswith("unavailable")
    assert lib.root == tmp_path / "s2"


@needs_coqc
def test_two_processes_building_the_same_cache_at_once_both_succeed(tmp_path):
    # A coqc that is slow to start makes the two builds overlap.
    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "coqc").write_text(f'#!/bin/sh\nsleep 1\nexec {shutil.which("coqc")} "$@"\n')
    (fake / "coqc").chmod(0o755)
    src = _fake_library(tmp_path / "src")
    cache = tmp_path / "cache"
    code = (
        "import sys; from pathlib import Path; from certify.provers import coq as C;"
        f"L = C.prepare_library(Path({str(src)!r}), Path(sys.argv[1]), Path({str(cache)!r}),"
        f" 120, {MODS!r}); print(L.verdict.status, L.cache, L.root)"
    )
    env = dict(os.environ, PATH=f"{fake}:{os.environ['PATH']}", PYTHONPATH=str(ROOT))
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", code, str(tmp_path / f"s{i}")],
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )
        for i in range(2)
    ]
    outs = [p.communicate(timeout=300)[0].split() for p in procs]
    assert all(p.returncode == 0 for p in procs)
    assert sorted(o[:2] for o in outs) == [["passed", "built"], ["passed", "hit"]]
    assert outs[0][2] == outs[1][2]
    entries = sorted(p.name for p in (cache / "coq").iterdir())
    assert [e for e in entries if not e.endswith(".lock")] == [Path(outs[0][2]).name]


class _Clock:
    """A monotonic clock that moves only when the test says so."""

    def __init__(self) -> None:
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now


def test_progress_reports_long_phases_only_with_elapsed_time(monkeypatch):
    import types

    from certify import progress

    clock = _Clock()
    monkeypatch.setattr(progress, "time", types.SimpleNamespace(monotonic=clock.monotonic))
    lines: list[str] = []
    prog = Progress(lines.append, threshold=0.3, interval=0.3)
    with prog.phase("quick"):
        pass
    with prog.phase("slow one") as ph:
        clock.now += 0.8
        for _ in range(1200):  # the ticking thread sees the clock within 0.25 s (hang guard)
            if any(line.startswith("[certify] slow one: running, ") for line in lines):
                break
            time.sleep(0.05)
    prog.close()
    assert ph.seconds == pytest.approx(0.8)
    assert not any("quick" in line for line in lines)
    assert any(line.startswith("[certify] slow one: running, ") for line in lines)
    assert lines[-1] == "[certify] slow one: done in 0.8 s"


@pytest.fixture(scope="module")
def cached_runs(tmp_path_factory: pytest.TempPathFactory, coq_project: Path):
    """Two `certify run`s into a fresh cache: the first builds the library's cache entry, the
    second reuses it. The library compiles are those of a coqc wrapper (tests/conftest.py
    coqc_reusing) that copies the .vo files of the session's library (coq_project, compiled
    by certify from the same sources) and logs each: what is under test is the cache, not
    the compile (certify compiling the library: the session fixture and `certify demo`).
    The certificate and the audit run the real coqc."""
    tmp = tmp_path_factory.mktemp("cached")
    spec = tmp / "det.toml"
    spec.write_text(SPEC)
    cache = tmp / "cache"
    log = tmp / "compiled.log"
    env = dict(os.environ, PATH=coqc_reusing(coq_project, tmp / "bin", log))
    runs, compiled = [], []
    for i, extra in enumerate((["--cache-dir", str(cache)], ["--cache-dir", str(cache)])):
        out = tmp / f"o{i}"
        r = _cli("run", str(spec), "--out", str(out), "--no-lean", *extra, env=env)
        assert r.returncode == 0, r.stdout + r.stderr
        # every library file compiled for the first run, in _CoqProject order; none for the second
        assert compiled_files(log) == [f"NNCert/{m}.v" for m in coqp.LIBRARY]
        runs.append((out, r))
        # the cache's compiled files after each run: (path, size, mtime in ns)
        compiled.append(
            sorted((str(p), p.stat().st_size, p.stat().st_mtime_ns)
                   for p in (cache / "coq").rglob("*.vo"))
        )  # fmt: skip
    return tmp, cache, runs, compiled


def test_second_run_reuses_the_cached_library_and_timings_say_so(cached_runs):
    _, cache, ((o0, r0), (o1, r1)), (vo0, vo1) = cached_runs
    t0 = json.loads((o0 / "logs" / "timings.json").read_text())
    t1 = json.loads((o1 / "logs" / "timings.json").read_text())
    assert t0["library"]["coq"]["cache"] == "built" and t1["library"]["coq"]["cache"] == "hit"
    assert t1["library"]["coq"]["path"] == str(cache / "coq" / t1["library"]["coq"]["key"])
    assert vo0 and vo1 == vo0  # the second run compiled nothing: every .vo is untouched
    assert isinstance(t1["library"]["coq"]["seconds"], float)
    for t in (t0, t1):
        (name,) = t["certificates"]
        assert set(t["certificates"][name]) == {"generate", "checker", "render", "coq", "lean"}
        assert all(isinstance(t["certificates"][name][k], float) for k in ("checker", "coq"))
        assert t["total_seconds"] > 0
    # the compile is timed in the build, and nothing is compiled on a hit (announcing a long
    # phase on stderr: tests/test_progress.py)
    assert t0["library"]["coq"]["compile_seconds"] > 0 == t1["library"]["coq"]["compile_seconds"]


def test_bundle_has_no_build_products_and_a_coqproject_that_rebuilds_everything(
    cached_runs, tmp_path
):
    _, cache, ((out, _), _), _ = cached_runs
    products = [p for p in out.rglob("*") if p.name.endswith(BUILD_PRODUCTS)]
    assert products == []
    m = json.loads((out / "manifest.json").read_text())
    assert not any(f.endswith(BUILD_PRODUCTS) for f in m["files"])
    project = (out / "coq" / "_CoqProject").read_text().split("\n")
    (entry,) = m["certificates"]
    assert entry["coq_file"].removeprefix("coq/") in project
    assert project.index("NNCert/meaning/tanh/TanhSym.v") < project.index(entry["coq_file"][4:])
    # make runs build.sh, which compiles the library (a coqc wrapper that copies the .vo
    # files certify compiled from the same sources, logging each call's arguments: certify's
    # own compile is tested by the set-up's `certify demo`), then the certificate and the
    # audit driver with the real coqc, against those .vo files.
    key = json.loads((out / "logs" / "timings.json").read_text())["library"]["coq"]["key"]
    log = tmp_path / "compiled.log"
    path = coqc_reusing(cache / "coq" / key, tmp_path / "bin", log)
    copy = tmp_path / "b"
    shutil.copytree(out, copy)
    r = subprocess.run(["make", "-C", str(copy / "coq")], capture_output=True, text=True,
                       env=dict(os.environ, PATH=path))  # fmt: skip
    assert r.returncode == 0, r.stdout + r.stderr
    flags = [t for line in project if line.startswith("-") for t in line.split()]
    assert flags[:2] == ["-R", "NNCert"]  # each library file compiles as NNCert.<path>
    gc = coqp.gc_env(None) or os.environ
    assert log.read_text().splitlines() == [
        " ".join([gc.get(coqp.GC_ENV, "unset"), "-q", *flags, f"NNCert/{m}.v"])
        for m in coqp.LIBRARY
    ]  # every library file, in order, with the project's flags and certify's GC setting
    assert "coqc Certificates/Rank_det.v" in r.stderr
    assert "audit: the audited theorems assume only primitive integers and their specs" in r.stderr
    assert (copy / "coq" / "Certificates" / "Rank_det.vo").is_file()
    r = subprocess.run(["make", "-C", str(copy / "coq"), "clean"], capture_output=True)
    assert r.returncode == 0
    assert [p for p in copy.rglob("*") if p.name.endswith(BUILD_PRODUCTS)] == []


def test_no_cache_flag_compiles_afresh_and_leaves_the_cache_alone(cached_runs, tmp_path):
    """--no-cache compiles every library file afresh in the run's scratch directory: the
    compiles are those of a coqc wrapper (tests/conftest.py coqc_reusing) that logs them and
    copies the .vo files the cached run compiled from the same sources (compiling the library
    is what cached_runs tests); the certificate and the audit run the real coqc."""
    tmp, cache, ((o0, _), _), _ = cached_runs
    key = json.loads((o0 / "logs" / "timings.json").read_text())["library"]["coq"]["key"]
    log = tmp_path / "compiled.log"
    other = tmp / "other-cache"
    env = dict(os.environ, NN_CERTIFY_CACHE=str(other))
    env["PATH"] = coqc_reusing(cache / "coq" / key, tmp_path / "bin", log)
    out = tmp / "nocache"
    r = _cli("run", str(tmp / "det.toml"), "--out", str(out), "--no-lean", "--no-cache", env=env)
    assert r.returncode == 0, r.stdout + r.stderr
    assert compiled_files(log) == [f"NNCert/{m}.v" for m in coqp.LIBRARY]
    gc = (coqp.gc_env(None) or os.environ).get(coqp.GC_ENV, "unset")  # certify's GC setting
    assert {line.split()[0] for line in log.read_text().splitlines()} == {gc}
    t = json.loads((out / "logs" / "timings.json").read_text())
    assert t["library"]["coq"]["cache"] == "disabled" and t["library"]["coq"]["path"] is None
    assert not other.exists()
    m = json.loads((out / "manifest.json").read_text())
    assert m["certificates"][0]["verdicts"]["coq"] == "passed"
