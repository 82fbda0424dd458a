"""The Lean memory gate (--lean-max-gib, certify/lean_cost.py): a rank certificate whose
estimated Lean kernel memory is above the limit keeps its Lean file but gets verdict not-run
with the reason; `certify check` accepts that stored reason and rejects a forged variant."""

from __future__ import annotations

import json
import re

import pytest

from certify.bundle import lean_memory_estimate
from certify.lean_cost import DEFAULT_LEAN_MAX_GIB
from certify.verify import NOT_RUN_REASONS
from tests.conftest import make_cert
from tests.test_bundle import SPEC, _forge_manifest
from tests.test_cli_gates import _fake_lake, cli

REASON = re.compile(
    r"estimated Lean kernel memory (\d+\.\d) GiB exceeds the limit 0\.0 GiB "
    r"\(--lean-max-gib; model in certify/lean_cost\.py\)"
)


def test_the_memory_estimate_of_small_certificates_is_below_the_default():
    for cert in (make_cert([3, 2, 1], "t^2"), make_cert([2, 3, 1], "t^3 + t", True)):
        gib = lean_memory_estimate(cert)
        assert gib is not None and 0 < gib < DEFAULT_LEAN_MAX_GIB
    assert lean_memory_estimate(make_cert([2, 2, 1], "t^2")) < lean_memory_estimate(
        make_cert([3, 4, 1], "t^2")
    )


def test_the_reason_pattern_is_one_check_accepts():
    ok = (
        "estimated Lean kernel memory 131.0 GiB exceeds the limit 16.0 GiB (--lean-max-gib; "
        "model in certify/lean_cost.py)"
    )
    assert any(r.fullmatch(ok) for r in NOT_RUN_REASONS)
    for bad in (ok.replace("131.0", "131"), ok.replace("lean_cost", "lean_costs"), ok + "."):
        assert not any(r.fullmatch(bad) for r in NOT_RUN_REASONS), bad


@pytest.fixture(scope="module")
def gated(tmp_path_factory: pytest.TempPathFactory):
    tmp = tmp_path_factory.mktemp("gib")
    spec = tmp / "s.toml"
    spec.write_text(SPEC)
    path = _fake_lake(tmp, "exit 0")
    out = tmp / "o"
    r = cli("run", str(spec), "--out", str(out), "--no-coq", "--lean-max-gib", "1e-12",
            path=path)  # fmt: skip
    assert r.returncode == 0, r.stdout + r.stderr
    return out, tmp


def test_a_certificate_above_the_memory_limit_is_not_run_with_the_reason(gated):
    out, _ = gated
    m = json.loads((out / "manifest.json").read_text())
    ranks = [e for e in m["certificates"] if e["kind"] == "rank"]
    assert ranks
    for e in ranks:
        assert e["verdicts"]["lean"] == "not-run"
        assert REASON.fullmatch(e["messages"]["lean"]), e["messages"]["lean"]
    assert list((out / "lean" / "Certificates").glob("*.lean")), "the Lean files are written"


def test_check_accepts_the_stored_memory_reason_and_rejects_a_forged_one(gated, tmp_path):
    out, _ = gated
    r = cli("check", str(out), "--no-coq", "--no-lean")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "not a reason nn-certify gives" not in r.stdout

    def edit(m):
        e = next(e for e in m["certificates"] if e["kind"] == "rank")
        e["messages"]["lean"] = e["messages"]["lean"].replace("--lean-max-gib", "--lean-max-tb")

    b = _forge_manifest(out, tmp_path, edit)
    r = cli("check", str(b), "--no-coq", "--no-lean")
    assert r.returncode == 1, r.stdout + r.stderr
    assert "not a reason nn-certify gives" in r.stdout


@pytest.mark.parametrize("bad", ["0", "-1", "lots"])
def test_a_bad_lean_max_gib_is_a_clear_error(tmp_path, bad):
    spec = tmp_path / "s.toml"
    spec.write_text(SPEC)
    r = cli("run", str(spec), "--out", str(tmp_path / "o"), "--lean-max-gib", bad)
    assert r.returncode == 2, r.stdout + r.stderr
    assert "--lean-max-gib" in r.stderr and "Traceback" not in r.stderr
