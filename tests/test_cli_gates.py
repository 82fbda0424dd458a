"""Exit codes and gates: --require, timeout verdicts, unusable --out, foreign files in the
output directory, Ctrl-C, spec paths that are not regular files, duplicate JSON keys, and
one report line for a prover that is not installed."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import fake_coqc
from tests.test_bundle import SPEC

ROOT = Path(__file__).resolve().parent.parent
needs_coqc = pytest.mark.skipif(shutil.which("coqc") is None, reason="coqc not installed")


def cli(*args: str, path: str | None = None, cache: Path | None = None, timeout: float = 600):
    env = dict(os.environ)
    if path is not None:
        env["PATH"] = path
    if cache is not None:
        env["NN_CERTIFY_CACHE"] = str(cache)
    return subprocess.run(
        [sys.executable, "-m", "certify.cli", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=timeout,
    )


@pytest.fixture
def spec(tmp_path: Path) -> Path:
    p = tmp_path / "s.toml"
    p.write_text(SPEC)
    return p


@pytest.fixture
def no_provers(tmp_path: Path) -> str:
    """A PATH without coqc and lake."""
    empty = tmp_path / "empty-bin"
    empty.mkdir()
    return str(empty)


def _leftovers(parent: Path) -> list[str]:
    return [p.name for p in parent.iterdir() if ".partial-" in p.name or p.name.startswith(".")]


def test_help_documents_the_exit_codes():
    for args in ([], ["run"], ["check"], ["demo"]):
        r = cli(*args, "--help")
        assert r.returncode == 0
        text = " ".join(r.stdout.split())
        for code in ("0 every certificate passed", "1 a certificate failed", "2 bad input",
                     "3 a prover named by --require", "130 interrupted"):  # fmt: skip
            assert code in text, (args, code)


@pytest.mark.parametrize("req", ["coq", "lean", "coq,lean"])
def test_require_a_prover_hidden_from_path_exits_3(spec, tmp_path, no_provers, req):
    out = tmp_path / "o"
    r = cli("run", str(spec), "--out", str(out), "--require", req, path=no_provers)
    assert r.returncode == 3, r.stdout + r.stderr
    for prover in req.split(","):
        assert f"required prover {prover}: 1 of 1 certificate(s) not-run (det)" in r.stderr
    m = json.loads((out / "manifest.json").read_text())  # the bundle is still written
    assert m["certificates"][0]["verdicts"]["checker"] == "passed"
    r = cli("check", str(out), "--require", req, path=no_provers)
    assert r.returncode == 3, r.stdout + r.stderr
    assert "bundle verified" not in r.stdout and f"required prover {req[:3]}" in r.stderr


def test_require_with_no_coq_is_unmet_and_without_require_not_run_is_fine(spec, tmp_path):
    r = cli("run", str(spec), "--out", str(tmp_path / "a"), "--no-coq", "--no-lean")
    assert r.returncode == 0, r.stderr
    r = cli("run", str(spec), "--out", str(tmp_path / "b"), "--no-coq", "--require", "coq")
    assert r.returncode == 3 and "required prover coq" in r.stderr


@needs_coqc
def test_require_coq_passes_when_coq_passes(spec, tmp_path):
    out = tmp_path / "o"
    r = cli("run", str(spec), "--out", str(out), "--no-lean", "--require", "coq")
    assert r.returncode == 0, r.stdout + r.stderr
    r = cli("check", str(out), "--no-lean", "--require", "coq")
    assert r.returncode == 0 and "bundle verified" in r.stdout, r.stdout + r.stderr


@pytest.mark.parametrize("bad", ["isabelle", "", "coq,", "coq,agda"])
def test_require_rejects_unknown_provers_with_exit_2(spec, tmp_path, bad):
    r = cli("run", str(spec), "--out", str(tmp_path / "o"), "--require", bad)
    if bad == "coq,":  # a trailing comma is just coq
        return
    assert r.returncode == 2 and "--require" in r.stderr
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize("flag, value", [("--timeout", "0"), ("--timeout", "x"), ("--jobs", "0")])
def test_nonpositive_timeout_or_jobs_is_exit_2(spec, tmp_path, flag, value):
    r = cli("run", str(spec), "--out", str(tmp_path / "o"), flag, value)
    assert r.returncode == 2 and flag in r.stderr
    assert not (tmp_path / "o").exists()


def test_a_prover_timeout_is_verdict_timeout_not_failed(spec, tmp_path):
    path = fake_coqc(tmp_path, "sleep 30")
    out = tmp_path / "o"
    args = ("run", str(spec), "--out", str(out), "--no-lean", "--timeout", "1")
    r = cli(*args, path=path, cache=tmp_path / "cache")
    assert r.returncode == 1, r.stdout + r.stderr
    (e,) = json.loads((out / "manifest.json").read_text())["certificates"]
    assert e["verdicts"]["coq"] == "timeout"
    assert "timed out after 1 s" in e["messages"]["coq"]
    assert "coq=timeout" in r.stdout
    r = cli(*args, "--require", "coq", path=path, cache=tmp_path / "cache")
    assert r.returncode == 3 and "timeout" in r.stderr


def test_out_that_is_a_file_is_exit_2_and_untouched(spec, tmp_path):
    f = tmp_path / "file"
    f.write_text("mine")
    for out in (f, f / "sub"):
        r = cli("run", str(spec), "--out", str(out), "--no-coq", "--no-lean")
        assert r.returncode == 2, r.stdout + r.stderr
        assert "--out" in r.stderr and "not a directory" in r.stderr
        assert "Traceback" not in r.stderr
    assert f.read_text() == "mine"
    assert _leftovers(tmp_path) == []


def test_out_in_an_unwritable_place_is_exit_2(spec, tmp_path):
    if os.geteuid() == 0:
        target = Path("/proc/nn-certify-test/o")  # not even root can create this
    else:
        ro = tmp_path / "ro"
        ro.mkdir()
        ro.chmod(0o555)
        target = ro / "o"
    r = cli("run", str(spec), "--out", str(target), "--no-coq", "--no-lean")
    assert r.returncode == 2, r.stdout + r.stderr
    assert "--out" in r.stderr and "Traceback" not in r.stderr
    assert not target.exists()


def test_rerun_refuses_files_the_tool_did_not_write_unless_force(spec, tmp_path):
    out = tmp_path / "o"
    flags = ("--no-coq", "--no-lean")
    assert cli("run", str(spec), "--out", str(out), *flags).returncode == 0
    assert cli("run", str(spec), "--out", str(out), *flags).returncode == 0  # own files: fine
    (out / "notes.txt").write_text("my notes")
    (out / "coq" / "Extra.v").write_text("Axiom cheat : False.")
    r = cli("run", str(spec), "--out", str(out), *flags)
    assert r.returncode == 2, r.stdout + r.stderr
    assert "coq/Extra.v" in r.stderr and "notes.txt" in r.stderr and "--force" in r.stderr
    assert (out / "notes.txt").read_text() == "my notes"
    r = cli("run", str(spec), "--out", str(out), *flags, "--force")
    assert r.returncode == 0, r.stderr
    assert not (out / "notes.txt").exists() and not (out / "coq" / "Extra.v").exists()
    assert (out / "manifest.json").is_file()
    (kept,) = tmp_path.glob("o.old-*")  # --force moves the old directory aside, deletes nothing
    assert (kept / "notes.txt").read_text() == "my notes"
    assert _leftovers(tmp_path) == []


def test_check_reports_files_the_manifest_does_not_account_for(spec, tmp_path):
    out = tmp_path / "o"
    assert cli("run", str(spec), "--out", str(out), "--no-coq", "--no-lean").returncode == 0
    (out / "coq" / "Certificates" / "Cheat.v").write_text("Axiom cheat : False.\n")
    (out / "coq" / "NNCert" / "kernel" / "Lists.vo").write_bytes(b"x")
    r = cli("check", str(out), "--no-coq", "--no-lean")
    assert r.returncode == 1
    assert "coq/Certificates/Cheat.v: file not accounted for by the manifest" in r.stdout
    assert "coq/NNCert/kernel/Lists.vo: a build product inside the bundle" in r.stdout


def _sleeper(tmp_path: Path) -> tuple[Path, Path]:
    """A `sleep` whose command line names tmp_path (a symbolic link to sleep in it), so
    _running_under finds it, and the file a fake prover touches once its sleep has ended:
    present only if the prover was waited for instead of killed."""
    link = tmp_path / "sleeper"
    link.symlink_to(shutil.which("sleep") or "/bin/sleep")
    return link, tmp_path / "slept-to-the-end"


def _running_under(tmp_path: Path) -> list[str]:
    """Command lines of live processes that mention tmp_path (the fake coqc and its sleep)."""
    found = []
    for d in Path("/proc").iterdir():
        try:
            cmd = (d / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if str(tmp_path) in cmd and "certify.cli" not in cmd:
            found.append(cmd)
    return found


def _interrupt(
    tmp_path: Path, specs: list[Path], coqc_body: str, wait_for: str, marker: Path | None = None
) -> tuple:
    path = fake_coqc(tmp_path, coqc_body)
    out = tmp_path / "o"
    env = dict(os.environ, PATH=path, NN_CERTIFY_CACHE=str(tmp_path / "cache"))
    args = [sys.executable, "-m", "certify.cli", "run", *map(str, specs), "--out", str(out)]
    p = subprocess.Popen(
        [*args, "--no-lean"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env=env,
        # SIGINT with its default disposition, as at a terminal: a process started with it
        # ignored (an xdist worker, nohup) passes SIG_IGN on, and Ctrl-C would be ignored
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert p.stderr is not None
    seen = []
    for line in p.stderr:  # wait until coqc runs
        seen.append(line)
        if wait_for in line:
            break
    deadline = time.monotonic() + 120
    while marker is not None and not marker.exists() and time.monotonic() < deadline:
        time.sleep(0.1)  # until a certificate compile runs (in a pool worker)
    time.sleep(1.0)
    p.send_signal(signal.SIGINT)
    try:  # a hang guard: the fake coqc sleeps 300 s, so waiting for it would end here
        rest = p.communicate(timeout=60)[1]
    except subprocess.TimeoutExpired:
        p.kill()
        raise
    return p.returncode, "".join(seen), rest, out


def test_ctrl_c_prints_one_line_exits_130_and_writes_no_bundle(spec, tmp_path):
    sleeper, slept = _sleeper(tmp_path)
    rc, seen, rest, out = _interrupt(
        tmp_path, [spec], f"{sleeper} 300; touch {slept}", "coq library NNCert: running"
    )
    assert rc == 130, seen + rest
    assert rest.strip() == "certify: interrupted; nothing written"
    time.sleep(1.0)
    assert _running_under(tmp_path) == [] and not slept.exists()  # killed, not waited for
    assert not out.exists() and _leftovers(tmp_path) == []
    cache = tmp_path / "cache" / "coq"
    assert not cache.exists() or not [x for x in cache.iterdir() if x.is_dir()]


def test_ctrl_c_while_certificates_compile_in_parallel_stops_every_coqc(tmp_path):
    specs = []
    for name in ("p1", "p2", "p3"):
        specs.append(tmp_path / f"{name}.toml")
        specs[-1].write_text(SPEC.replace('"det"', f'"{name}"'))
    # The library "compiles" at once; every certificate compile hangs. The tasks run in a
    # pool of two worker processes: SIGINT reaches the certify process only.
    mark = tmp_path / "compiling"
    sleeper, slept = _sleeper(tmp_path)
    body = (
        f'case "$*" in *Certificates/*) touch {mark}; {sleeper} 300; touch {slept};; esac\nexit 0'
    )
    rc, seen, rest, out = _interrupt(tmp_path, specs, body, "task(s)", mark)
    assert rc == 130, seen + rest
    assert rest.strip() == "certify: interrupted; nothing written"
    assert not slept.exists()  # the running compiles killed, not waited for
    assert not out.exists() and _leftovers(tmp_path) == []
    time.sleep(1.0)
    assert _running_under(tmp_path) == []  # no coqc (or its sleep) left running


@pytest.mark.parametrize("kind", ["directory", "fifo", "device"])
def test_a_spec_that_is_not_a_regular_file_is_refused_without_reading(tmp_path, kind):
    if kind == "directory":
        target = tmp_path / "d.toml"
        target.mkdir()
        what = "a directory"
    elif kind == "fifo":
        target = tmp_path / "f.toml"
        os.mkfifo(target)
        what = "a FIFO"
    else:
        target = Path("/dev/zero")
        what = "a character device"
    out = tmp_path / "o"
    r = cli("run", str(target), "--out", str(out), timeout=60)
    assert r.returncode == 2, r.stdout + r.stderr
    assert f"{target}: field '<file>': expected a regular file, got '{what}'" in r.stderr
    assert not out.exists()


@pytest.mark.parametrize(
    "text, key",
    [
        ('{"name": "a", "name": "b", "network": {}}', "name"),
        ('{"name": "a", "network": {"family": "mlp", "widths": [1, 1], "widths": [2, 1]}}',
         "widths"),
    ],
)  # fmt: skip
def test_duplicate_keys_in_json_specs_are_an_error_naming_the_key(tmp_path, text, key):
    spec = tmp_path / "s.json"
    spec.write_text(text)
    out = tmp_path / "o"
    r = cli("run", str(spec), "--out", str(out))
    assert r.returncode == 2, r.stdout + r.stderr
    assert f"{spec}: field '{key}': expected each key once per JSON object" in r.stderr
    assert not out.exists()


def test_deeply_nested_json_spec_is_a_spec_error(tmp_path):
    spec = tmp_path / "s.json"
    spec.write_text("[" * 100000 + "]" * 100000)
    r = cli("run", str(spec), "--out", str(tmp_path / "o"))
    assert r.returncode == 2 and "valid JSON" in r.stderr and "Traceback" not in r.stderr


def test_a_prover_that_is_not_installed_gets_one_report_line(tmp_path, no_provers):
    specs = []
    for name in ("one", "two"):
        p = tmp_path / f"{name}.toml"
        p.write_text(SPEC.replace('"det"', f'"{name}"'))
        specs.append(str(p))
    out = tmp_path / "o"
    r = cli("run", *specs, "--out", str(out), path=no_provers)
    assert r.returncode == 0, r.stdout + r.stderr
    report = (out / "report.md").read_text()
    assert report.count("lake not found on PATH") == 1
    assert report.count("coqc not found on PATH") == 1
    # quoted as data (issue 22: messages are free text)
    assert '- lean: `"not-run for every certificate: lake not found on PATH"`' in report
    assert r.stdout.count("lake not found on PATH") == 1


def _fake_lake(tmp_path: Path, body: str) -> str:
    fake = tmp_path / "lake-bin"
    fake.mkdir()
    (fake / "lake").write_text(f"#!/bin/sh\n{body}\n")
    (fake / "lake").chmod(0o755)
    return f"{fake}:/usr/bin:/bin"


def test_a_lake_timeout_is_verdict_timeout(spec, tmp_path):
    out = tmp_path / "o"
    sleeper, slept = _sleeper(tmp_path)
    path = _fake_lake(tmp_path, f'[ "$1" = "--version" ] && exit 0\n{sleeper} 300; touch {slept}')
    # timeout: a hang guard (the child sleeps 300 s; waiting for it would end here)
    r = cli("run", str(spec), "--out", str(out), "--no-coq", "--timeout", "1", path=path,
            timeout=120)  # fmt: skip
    time.sleep(1.0)
    assert _running_under(tmp_path) == []  # the sleeping child was killed with its parent
    assert not slept.exists()
    assert r.returncode == 1, r.stdout + r.stderr
    (e,) = json.loads((out / "manifest.json").read_text())["certificates"]
    assert e["verdicts"]["lean"] == "timeout"
    assert e["messages"]["lean"] == "NNCert library: lake build NNCert timed out after 1 s"


def test_lake_runs_in_a_scratch_copy_so_its_build_directory_never_ships(spec, tmp_path):
    out = tmp_path / "o"
    path = _fake_lake(
        tmp_path, "mkdir -p .lake/build && echo x > .lake/build/junk.olean\n"
        '[ "$1" = "--version" ] && exit 0\nexit 1',
    )  # fmt: skip
    r = cli("run", str(spec), "--out", str(out), "--no-coq", path=path)
    assert r.returncode == 1, r.stdout + r.stderr
    (e,) = json.loads((out / "manifest.json").read_text())["certificates"]
    assert e["verdicts"]["lean"] == "failed"
    assert not (out / "lean" / ".lake").exists()


def test_check_rejects_a_rewritten_report(spec, tmp_path):
    out = tmp_path / "o"
    assert cli("run", str(spec), "--out", str(out), "--no-coq", "--no-lean").returncode == 0
    assert cli("check", str(out), "--no-coq", "--no-lean").returncode == 0
    rep = out / "report.md"
    rep.write_text(rep.read_text().replace("| 14 |", "| 99 |", 1) + "Proved in Lean.\n")
    r = cli("check", str(out), "--no-coq", "--no-lean")
    assert r.returncode == 1
    assert "report.md differs from the report regenerated from the manifest" in r.stdout


def test_duplicate_certificate_names_across_specs_are_bad_input_exit_2(spec, tmp_path):
    other = tmp_path / "again.toml"
    other.write_text(SPEC)
    out = tmp_path / "o"
    r = cli("run", str(spec), str(other), "--out", str(out), "--no-coq", "--no-lean")
    assert r.returncode == 2, r.stdout + r.stderr
    assert "field 'name': expected certificate names unique across specs" in r.stderr
    assert str(other) in r.stderr and not out.exists()


@pytest.mark.parametrize("where", ["manifest.json", "certificates/det.json"])
def test_deeply_nested_bundle_json_is_a_clear_error_not_a_traceback(spec, tmp_path, where):
    out = tmp_path / "o"
    assert cli("run", str(spec), "--out", str(out), "--no-coq", "--no-lean").returncode == 0
    (out / where).write_text("[" * 100000 + "]" * 100000)
    r = cli("check", str(out), "--no-coq", "--no-lean")
    assert r.returncode == 1, r.stdout + r.stderr
    assert "Traceback" not in r.stderr and "RecursionError" not in r.stderr
    assert where.split("/")[-1] in r.stdout + r.stderr
