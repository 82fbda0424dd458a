"""Lean runs per module (with a fake `lake` on PATH: no Lean toolchain here): the toolchain
set-up and the NNCert library once, then each certificate module on its own with its own
timeout, so one failure or timeout affects only its module; the axiom audit runs on what
built; per-module seconds land in logs/timings.json."""

from __future__ import annotations

import json
from pathlib import Path

from tests.test_bundle import SPEC
from tests.test_cli_gates import _fake_lake, cli

# Logs every call to $LOG; module builds: *Two* fails with a Lean error, *Slow* sleeps;
# `lake env lean FILE` answers each `#print axioms T` line with propext.
FAKE = r"""echo "$*" >> "{log}"
case "$1" in
  --version) {setup}; echo "Lake version 5.0.0-fake (Lean version 4.36.0)"; exit 0;;
  build)
    mod="$3"
    case "$mod" in
      NNCert) {library}; exit 0;;
      *_two*) echo "error: ./Certificates/${{mod#Certificates.}}.lean:3:4: type mismatch"; exit 1;;
      *_slow*) sleep 30;;
    esac
    exit 0;;
  env)
    cp "$3" "{audits}/$3"
    sed -n "s/^#print axioms \(.*\)$/'\1' depends on axioms: [propext]/p" "$3"
    exit 0;;
esac
exit 2
"""


def _setup(tmp_path: Path, setup: str = "true", library: str = "true") -> tuple[list[str], str]:
    specs = []
    for name in ("one", "two", "slow"):
        p = tmp_path / f"{name}.toml"
        p.write_text(SPEC.replace('"det"', f'"{name}"'))
        specs.append(str(p))
    audits = tmp_path / "audits"
    audits.mkdir()
    body = FAKE.format(log=tmp_path / "lake.log", audits=audits, setup=setup, library=library)
    return specs, _fake_lake(tmp_path, body)


def _entries(out: Path) -> dict[str, dict]:
    m = json.loads((out / "manifest.json").read_text())
    return {e["name"]: e for e in m["certificates"]}


def test_one_failing_and_one_timed_out_module_affect_only_themselves(tmp_path: Path):
    specs, path = _setup(tmp_path)
    out = tmp_path / "o"
    r = cli("run", *specs, "--out", str(out), "--no-coq", "--timeout", "3", path=path)
    assert r.returncode == 1, r.stdout + r.stderr
    e = _entries(out)
    assert e["one"]["verdicts"]["lean"] == "passed", e["one"]["messages"]
    assert e["one"]["lean_axioms"] == ["propext"]
    assert e["two"]["verdicts"]["lean"] == "failed"
    assert e["two"]["messages"]["lean"] == "3:4: type mismatch"
    assert e["slow"]["verdicts"]["lean"] == "timeout"
    assert "timed out after 3 s" in e["slow"]["messages"]["lean"]
    calls = (tmp_path / "lake.log").read_text().splitlines()
    assert calls.count("--version") == 1
    assert calls.count("build --wfail NNCert") == 1
    assert sum(c.startswith("build --wfail Certificates.") for c in calls) == 3
    # the audit ran once, on the one module that built, and names only its theorems
    audits = list((tmp_path / "audits").iterdir())
    assert len(audits) == 1
    text = audits[0].read_text()
    assert "import Certificates." in text and "_one" in text
    assert "_two" not in text and "_slow" not in text
    # timings.json records every phase as a number of seconds; no budget is asserted. The
    # one bound is the timed-out module's: it was stopped by the 3 s --timeout, so its time
    # is at least 3 s whatever the load (a record of the timeout, not a wall-clock budget).
    t = json.loads((out / "logs" / "timings.json").read_text())
    lib, certs = t["library"], t["certificates"]
    for seconds in (lib["lean_setup"]["seconds"], lib["lean_library"]["seconds"],
                    certs["one"]["lean"], certs["slow"]["lean"]):  # fmt: skip
        assert isinstance(seconds, (int, float)) and seconds >= 0
    assert t["certificates"]["slow"]["lean"] >= 3
    assert not (out / "lean" / ".lake").exists()
    assert not any(p.name.startswith("NNCertAudit") for p in (out / "lean").iterdir())


def test_a_library_failure_fails_every_module_without_building_them(tmp_path: Path):
    specs, path = _setup(tmp_path, library="echo 'error: ./NNCert/Net.lean:1:1: oops'; exit 1")
    out = tmp_path / "o"
    r = cli("run", *specs, "--out", str(out), "--no-coq", path=path)
    assert r.returncode == 1
    for e in _entries(out).values():
        assert e["verdicts"]["lean"] == "failed"
        assert e["messages"]["lean"] == "NNCert library: 1:1: oops"
    calls = (tmp_path / "lake.log").read_text().splitlines()
    assert not any(c.startswith("build --wfail Certificates.") for c in calls)


def test_toolchain_set_up_has_its_own_budget_and_is_not_a_certificate_verdict(tmp_path: Path):
    specs, path = _setup(tmp_path, setup="sleep 30")
    out = tmp_path / "o"
    r = cli("run", *specs, "--out", str(out), "--no-coq", "--timeout", "1", path=path)
    assert r.returncode == 1
    for e in _entries(out).values():
        assert e["verdicts"]["lean"] == "timeout"
        assert "toolchain set-up" in e["messages"]["lean"]
    calls = (tmp_path / "lake.log").read_text().splitlines()
    assert calls == ["--version"]
    t = json.loads((out / "logs" / "timings.json").read_text())
    # the set-up was stopped by the 1 s --timeout: its recorded time is at least that
    # (a lower bound load cannot break, not a wall-clock budget)
    assert t["library"]["lean_setup"]["seconds"] >= 1
    # a broken toolchain (set-up exits non-zero) is not-run with the reason, not failed
    (tmp_path / "b").mkdir()
    specs2, path2 = _setup(tmp_path / "b", setup="echo 'elan: no network'; exit 1")
    out2 = tmp_path / "o2"
    r = cli("run", *specs2, "--out", str(out2), "--no-coq", "--require", "lean", path=path2)
    assert r.returncode == 3
    for e in _entries(out2).values():
        assert e["verdicts"]["lean"] == "not-run"
        assert "elan: no network" in e["messages"]["lean"]
