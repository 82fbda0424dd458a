"""The Lean cost gate: a rank certificate whose estimated Lean kernel cost (lean_cost.py) is
above --lean-max-seconds keeps its Lean file but gets verdict not-run with the reason, and is
left out of the Lean build; below the limit it is built as before."""

from __future__ import annotations

import json

from certify.bundle import lean_cost_estimate
from certify.lean_cost import DEFAULT_LEAN_MAX_SECONDS
from tests.conftest import make_cert
from tests.test_bundle import SPEC
from tests.test_cli_gates import _fake_lake, cli


def test_small_rank_certificates_are_estimated_below_the_default_limit():
    for cert in (make_cert([3, 2, 1], "t^2"), make_cert([2, 3, 1], "t^3 + t", True)):
        cost = lean_cost_estimate(cert)
        assert cost is not None and 0 < cost < DEFAULT_LEAN_MAX_SECONDS


def test_the_estimate_grows_with_the_rank_and_the_upper_bound():
    small, big = make_cert([2, 2, 1], "t^2"), make_cert([3, 4, 1], "t^2")
    assert lean_cost_estimate(small) < lean_cost_estimate(big)
    with_upper = make_cert([3, 2, 1], "t^2")
    assert with_upper["witness"]["upper"] is not None
    no_upper = json.loads(json.dumps(with_upper))
    no_upper["witness"]["upper"] = None
    assert lean_cost_estimate(no_upper) < lean_cost_estimate(with_upper)


def test_a_certificate_above_the_lean_limit_is_not_run_and_left_out_of_the_build(tmp_path):
    spec = tmp_path / "s.toml"
    spec.write_text(SPEC)
    seen = tmp_path / "seen.lean"
    path = _fake_lake(tmp_path, f'cp Certificates.lean "{seen}"\nexit 0')
    out = tmp_path / "o"
    r = cli("run", str(spec), "--out", str(out), "--no-coq", "--lean-max-seconds", "1e-9",
            path=path)  # fmt: skip
    m = json.loads((out / "manifest.json").read_text())
    for e in m["certificates"]:
        if e["kind"] == "rank":
            assert e["verdicts"]["lean"] == "not-run", r.stdout + r.stderr
            assert "exceeds the limit" in e["messages"]["lean"]
            assert "--lean-max-seconds" in e["messages"]["lean"]
    rendered = list((out / "lean" / "Certificates").glob("*.lean"))
    assert rendered, "the Lean files are still written"
    assert seen.exists()
    assert not any(f"Certificates.{p.stem}" in seen.read_text() for p in rendered)
    assert all(f"Certificates.{p.stem}" in (out / "lean" / "Certificates.lean").read_text()
               for p in rendered)  # fmt: skip
