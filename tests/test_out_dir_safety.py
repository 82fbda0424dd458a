"""`--out` never loses a file the user wrote (issue 22 item 4, issue 25 item 9).

A directory is replaced only when it is an unchanged nn-certify bundle (manifest schema,
file inventory, every hash); anything else is refused with exit 2 and the files named,
before any work and again under the lock just before the rename. `--force` moves the old
directory aside, never deletes it. Concurrent runs into one --out are refused; Ctrl-C and
SIGTERM leave no partial bundle and no scratch directory; from-torch's bad input is exit 2."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from certify import bundle
from certify.bundle import Options, build, claim_output, unowned_files
from certify.errors import InputError, OutputError
from certify.spec import load_specs
from tests.conftest import run_cli, small_rank_spec

ROOT = Path(__file__).resolve().parent.parent
QUICK = ("--no-coq", "--no-lean", "--quiet")
SPEC = small_rank_spec("safe")


def cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return run_cli(*args, cwd=ROOT, env=env, timeout=600)


def snapshot(root: Path) -> dict[str, bytes | None]:
    """Every file (bytes) and directory (None) under root."""
    out: dict[str, bytes | None] = {}
    for p in sorted(root.rglob("*")):
        rel = p.relative_to(root).as_posix()
        out[rel] = None if p.is_dir() else p.read_bytes()
    return out


def leftovers(parent: Path) -> list[str]:
    """Partial bundles, hidden move-aside directories and lock files beside --out."""
    return sorted(
        p.name
        for p in parent.iterdir()
        if ".partial-" in p.name or p.name.endswith(".lock") or p.name.startswith(".")
    )


@pytest.fixture
def spec(tmp_path: Path) -> Path:
    p = tmp_path / "s.toml"
    p.write_text(SPEC)
    return p


def user_project(out: Path, manifest: str) -> None:
    """A user's directory: README, docs, coq, specs and a manifest.json that is not ours."""
    out.mkdir()
    (out / "manifest.json").write_text(manifest)
    (out / "README.md").write_text("# my project\n")
    for rel in ("docs/guide.md", "coq/Mine.v", "specs/mine.toml"):
        (out / rel).parent.mkdir()
        (out / rel).write_text(f"user file {rel}\n")


WEB_APP = json.dumps({"name": "My App", "start_url": "/", "icons": [{"src": "i.png"}]})


@pytest.mark.parametrize("manifest", ["{}", WEB_APP], ids=["empty-object", "web-app"])
def test_a_foreign_manifest_json_is_refused_with_exit_2_and_every_file_kept(
    spec, tmp_path, manifest
):
    out = tmp_path / "o"
    user_project(out, manifest)
    before = snapshot(out)
    r = cli("run", str(spec), "--out", str(out), *QUICK)
    assert r.returncode == 2, r.stdout + r.stderr
    assert "Traceback" not in r.stderr
    for rel in ("README.md", "docs/guide.md", "coq/Mine.v", "specs/mine.toml"):
        assert rel in r.stderr
    assert snapshot(out) == before
    assert leftovers(tmp_path) == []


def test_force_moves_a_foreign_directory_aside_and_deletes_nothing(spec, tmp_path):
    out = tmp_path / "o"
    user_project(out, "{}")
    before = snapshot(out)
    r = cli("run", str(spec), "--out", str(out), *QUICK, "--force")
    assert r.returncode == 0, r.stdout + r.stderr
    (kept,) = tmp_path.glob("o.old-*")
    assert str(kept) in r.stderr and "nothing was deleted" in r.stderr
    assert snapshot(kept) == before
    assert (out / "manifest.json").is_file() and not (out / "docs" / "guide.md").exists()
    assert leftovers(tmp_path) == []


def test_a_rerun_replaces_an_unchanged_bundle_which_still_checks(spec, tmp_path):
    out = tmp_path / "o"
    assert cli("run", str(spec), "--out", str(out), *QUICK).returncode == 0
    assert unowned_files(out) == []
    r = cli("run", str(spec), "--out", str(out), *QUICK)
    assert r.returncode == 0, r.stderr
    assert list(tmp_path.glob("o.old-*")) == [] and leftovers(tmp_path) == []
    r = cli("check", str(out), "--no-coq", "--no-lean", "--quiet")
    assert r.returncode == 0, r.stdout + r.stderr


@pytest.mark.parametrize(
    "rel", ["report.md", "coq/Certificates/Rank_safe.v", "logs/timings.json", "manifest.json"]
)
def test_a_user_edit_to_a_bundled_file_is_refused_and_kept(spec, tmp_path, rel):
    out = tmp_path / "o"
    assert cli("run", str(spec), "--out", str(out), *QUICK).returncode == 0
    target = out / rel
    assert target.is_file(), sorted(snapshot(out))
    if rel == "manifest.json":  # still a valid manifest of the right schema, edited
        m = json.loads(target.read_text()) | {"note": "my edit"}
        target.write_text(json.dumps(m, indent=1, sort_keys=True) + "\n")
    else:
        target.write_bytes(target.read_bytes() + b"\n my edit\n")
    before = snapshot(out)
    r = cli("run", str(spec), "--out", str(out), *QUICK)
    assert r.returncode == 2, r.stdout + r.stderr
    assert rel in r.stderr and "edited" in r.stderr
    assert snapshot(out) == before
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("rel", ["notes.txt", "coq/Extra.v", "docs/mine/new.md"])
def test_a_user_file_added_into_the_bundle_is_refused_and_kept(spec, tmp_path, rel):
    out = tmp_path / "o"
    assert cli("run", str(spec), "--out", str(out), *QUICK).returncode == 0
    (out / rel).parent.mkdir(parents=True, exist_ok=True)
    (out / rel).write_text("mine\n")
    before = snapshot(out)
    r = cli("run", str(spec), "--out", str(out), *QUICK)
    assert r.returncode == 2, r.stdout + r.stderr
    assert rel in r.stderr and "--force" in r.stderr
    assert snapshot(out) == before


def test_a_symlink_or_a_new_empty_directory_is_not_taken_for_the_tools(spec, tmp_path):
    out = tmp_path / "o"
    assert cli("run", str(spec), "--out", str(out), *QUICK).returncode == 0
    precious = tmp_path / "precious.txt"
    precious.write_text("keep me")
    (out / "link.txt").symlink_to(precious)
    (out / "emptydir").mkdir()
    problems = " ".join(unowned_files(out))
    assert "link.txt" in problems and "emptydir/" in problems
    assert cli("run", str(spec), "--out", str(out), *QUICK).returncode == 2
    assert precious.read_text() == "keep me" and (out / "link.txt").is_symlink()


def _build_with_hook(spec: Path, out: Path, hook, force: bool = False):
    """bundle.build in this process, with `hook(out)` run while the bundle is being written
    (from inside report_md, after the certificates are computed)."""
    real = bundle.report_md

    def report(*a, **k):
        hook(out)
        return real(*a, **k)

    mp = pytest.MonkeyPatch()
    mp.setattr(bundle, "report_md", report)
    try:
        return build(load_specs(spec), out, Options(run_coq=False, run_lean=False, jobs=1,
                                                    force=force))  # fmt: skip
    finally:
        mp.undo()


def test_a_file_written_into_the_bundle_during_the_run_is_refused_and_kept(spec, tmp_path):
    out = tmp_path / "o"
    assert cli("run", str(spec), "--out", str(out), *QUICK).returncode == 0
    before = snapshot(out)

    def write(o: Path) -> None:
        (o / "during.txt").write_text("written while certify ran\n")

    with pytest.raises(OutputError, match="during.txt") as e:
        _build_with_hook(spec, out, write)
    assert e.value.exit_code == 2 and "changed while this run" in str(e.value)
    assert snapshot(out) == before | {"during.txt": b"written while certify ran\n"}
    assert leftovers(tmp_path) == []


def test_with_force_a_file_written_during_the_run_is_kept_in_the_moved_aside_directory(
    spec, tmp_path, capsys
):
    out = tmp_path / "o"
    assert cli("run", str(spec), "--out", str(out), *QUICK).returncode == 0

    def edit(o: Path) -> None:
        (o / "report.md").write_text("my report\n")

    _build_with_hook(spec, out, edit, force=True)
    (kept,) = tmp_path.glob("o.old-*")
    assert (kept / "report.md").read_text() == "my report\n"
    assert str(kept) in capsys.readouterr().err
    assert unowned_files(out) == [] and leftovers(tmp_path) == []


def test_a_second_run_into_the_same_out_while_one_runs_is_refused(spec, tmp_path):
    out = tmp_path / "o"
    second: list[subprocess.CompletedProcess[str]] = []

    def run_again(o: Path) -> None:
        second.append(cli("run", str(spec), "--out", str(o), *QUICK))

    manifest = _build_with_hook(spec, out, run_again)
    (r,) = second
    assert r.returncode == 2, r.stdout + r.stderr
    assert "another certify run is writing it" in r.stderr
    assert manifest["certificates"][0]["name"] == "safe"
    assert unowned_files(out) == [] and leftovers(tmp_path) == []


def test_the_lock_is_exclusive_and_leaves_no_file(tmp_path):
    out = tmp_path / "o"
    guard = claim_output(out)
    with pytest.raises(OutputError, match="another certify run"):
        claim_output(out)
    guard.release(failed=True)
    assert list(tmp_path.iterdir()) == []
    claim_output(out).release(failed=True)


def _fake_coqc(tmp_path: Path) -> str:
    """A coqc whose library build returns at once and whose certificate compiles hang."""
    fake = tmp_path / "fake-bin"
    fake.mkdir()
    mark = tmp_path / "compiling"
    (fake / "coqc").write_text(
        '#!/bin/sh\nif [ "$1" = "--version" ]; then echo "The Coq Proof Assistant, version '
        f'0.0-fake"; exit 0; fi\ncase "$*" in *Certificates/*) touch {mark}; sleep 60;; esac\n'
        "exit 0\n"
    )
    (fake / "coqc").chmod(0o755)
    return f"{fake}:/usr/bin:/bin"


def _stop_mid_run(tmp_path: Path, specs: list[Path], out: Path, sig: int) -> tuple[int, str]:
    """Run certify (coqc faked, TMPDIR a fresh directory) and send `sig` while the
    certificates compile in a pool of two workers."""
    # A short fresh directory (linked from tmp_path/TMPDIR): under pytest-xdist tmp_path is
    # one level deeper, and the pool's forkserver socket inside TMPDIR would then pass the
    # 108-byte AF_UNIX path limit.
    tmpdir = Path(tempfile.mkdtemp(prefix="T", dir=tmp_path.parents[1]))
    (tmp_path / "TMPDIR").symlink_to(tmpdir, target_is_directory=True)
    env = dict(os.environ, PATH=_fake_coqc(tmp_path), TMPDIR=str(tmpdir))
    env["NN_CERTIFY_CACHE"] = str(tmp_path / "cache")
    cmd = [sys.executable, "-m", "certify.cli", "run", *map(str, specs), "--out", str(out)]
    p = subprocess.Popen(
        [*cmd, "--no-lean", "--jobs", "2"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env=env,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    deadline = time.monotonic() + 300
    while not (tmp_path / "compiling").exists() and time.monotonic() < deadline:
        assert p.poll() is None, p.communicate()
        time.sleep(0.1)
    time.sleep(1.0)
    assert any(tmpdir.iterdir())  # the tasks' scratch directories exist now
    p.send_signal(sig)
    err = p.communicate(timeout=120)[1]
    return p.returncode, err


def _three_specs(tmp_path: Path) -> list[Path]:
    specs = []
    for name in ("p1", "p2", "p3"):
        specs.append(tmp_path / f"{name}.toml")
        specs[-1].write_text(SPEC.replace('"safe"', f'"{name}"'))
    return specs


@pytest.mark.parametrize(
    ("sig", "code", "word"),
    [(signal.SIGINT, 130, "interrupted"), (signal.SIGTERM, 143, "terminated")],
    ids=["ctrl-c", "sigterm"],
)
def test_stopping_a_run_leaves_no_partial_bundle_and_no_scratch_directory(
    tmp_path, sig, code, word
):
    specs = _three_specs(tmp_path)
    out = tmp_path / "o"
    assert cli("run", str(specs[0]), "--out", str(out), *QUICK).returncode == 0
    before = snapshot(out)
    rc, err = _stop_mid_run(tmp_path, specs, out, sig)
    assert rc == code, err
    assert f"certify: {word}; nothing written" in err and "Traceback" not in err
    assert snapshot(out) == before  # the old bundle untouched
    assert leftovers(tmp_path) == []
    time.sleep(0.5)
    assert sorted(x.name for x in (tmp_path / "TMPDIR").iterdir()) == []
    cache = tmp_path / "cache" / "coq"
    assert not cache.exists() or not [x for x in cache.iterdir() if ".tmp-" in x.name]


def _cannot_create_here(tmp_path: Path) -> Path:
    if os.geteuid() == 0:
        return Path("/proc/nn-certify-test/o")  # not even root can create this
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o555)
    return ro / "sub" / "o"


def test_an_unwritable_out_is_refused_with_exit_2_before_any_work(spec, tmp_path):
    target = _cannot_create_here(tmp_path)
    r = cli("run", str(spec), "--out", str(target), "--no-coq", "--no-lean")
    assert r.returncode == 2, r.stdout + r.stderr
    assert "--out" in r.stderr and "not writable" in r.stderr and "Traceback" not in r.stderr
    assert "task(s)" not in r.stderr  # refused before the certificate tasks started
    assert not target.exists()


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write into a read-only directory")
def test_an_existing_read_only_out_is_refused_before_any_work(spec, tmp_path):
    out = tmp_path / "o"
    assert cli("run", str(spec), "--out", str(out), *QUICK).returncode == 0
    out.chmod(0o555)
    try:
        r = cli("run", str(spec), "--out", str(out), "--no-coq", "--no-lean")
    finally:
        out.chmod(0o755)
    assert r.returncode == 2 and "not writable" in r.stderr and "task(s)" not in r.stderr


def test_a_run_refused_at_the_start_removes_the_parents_it_created(spec, tmp_path):
    out = tmp_path / "a" / "b" / "o"
    guard = claim_output(out)
    assert (tmp_path / "a" / "b").is_dir()
    guard.release(failed=True)
    assert not (tmp_path / "a").exists()


def test_from_torch_bad_input_exits_2_before_torch_is_needed(tmp_path):
    spec_out = tmp_path / "s.toml"
    r = cli("from-torch", str(tmp_path / "missing.pt"), "--out", str(spec_out))
    assert r.returncode == 2 and "not a file" in r.stderr, r.stderr
    (tmp_path / "m.pt").write_bytes(b"anything")
    r = cli("from-torch", str(tmp_path / "m.pt"), "--out", str(spec_out), "--precision", "99")
    assert r.returncode == 2 and "--precision" in r.stderr, r.stderr
    r = cli("from-torch", str(tmp_path / "m.pt"), "--out", str(tmp_path))
    assert r.returncode == 2 and "--out" in r.stderr, r.stderr
    assert "Traceback" not in r.stderr and not spec_out.exists()


def test_from_torch_refuses_a_model_of_the_wrong_shape_as_input_error_exit_2():
    from certify.torch_import import spec_text

    with pytest.raises(InputError, match="module 1") as e:
        spec_text([("Linear", [[1.0]], [0.0]), ("Linear", [[1.0]], [0.0])], "t", "m.pt", None)
    assert e.value.exit_code == 2
    with pytest.raises(InputError, match="not a finite number"):
        spec_text(
            [("Linear", [[float("nan")]], [0.0]), ("ReLU",), ("Linear", [[1.0]], [0.0])],
            "t",
            "m.pt",
            None,
        )
