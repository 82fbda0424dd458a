"""Verdict semantics of a re-check (issue 25, item 2): a bundle built without a prover stores
`not-run`; `certify check` with that prover present obtains a verdict, which is reported as
newly checked, not as a mismatch, and `--require` judges the fresh verdicts. A stored
`not-run` must still be one nn-certify writes, and a fresh failure stays an error. Every
test runs coqc."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from certify.cli import example_specs
from certify.provers import coq as coqp
from tests.conftest import run_cli
from tests.test_bundle import _forge_manifest  # a consistent forgery (inventory re-hashed)

pytestmark = pytest.mark.skipif(coqp.coqc_path() is None, reason="coqc not installed")

SPECS = ("ktb-2-2-1", "resnet-figure-1")


@pytest.fixture(scope="module")
def no_coq_bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    examples = example_specs()[0].parent
    out = tmp_path_factory.mktemp("nocoq") / "b"
    specs = [str(examples / f"{n}.toml") for n in SPECS]
    r = run_cli("run", *specs, "--no-coq", "--no-lean", "--out", str(out))
    assert r.returncode == 0, r.stdout + r.stderr
    m = json.loads((out / "manifest.json").read_text())
    assert {e["verdicts"]["coq"] for e in m["certificates"]} == {"not-run"}
    return out


def test_a_bundle_built_without_coq_verifies_with_coq_present_as_newly_checked(no_coq_bundle):
    r = run_cli("check", str(no_coq_bundle), "--no-lean")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "FAIL" not in r.stdout
    assert "re-run gives" not in r.stdout + r.stderr
    assert r.stdout.count("coq passed, newly checked here (the bundle stored not-run") >= 2


def test_require_coq_judges_the_fresh_verdicts(no_coq_bundle):
    r = run_cli("check", str(no_coq_bundle), "--no-lean", "--require", "coq")
    assert r.returncode == 0, r.stdout + r.stderr
    r = run_cli("check", str(no_coq_bundle), "--no-coq", "--no-lean", "--require", "coq")
    assert r.returncode == 3, r.stdout + r.stderr  # coq did not run here: unmet


def test_a_stored_not_run_with_a_reason_nn_certify_never_gives_still_fails(no_coq_bundle, tmp_path):
    def edit(m):
        m["certificates"][0]["messages"]["coq"] = "verified by hand"

    b = _forge_manifest(no_coq_bundle, tmp_path, edit)
    r = run_cli("check", str(b), "--no-lean")
    assert r.returncode == 1, r.stdout + r.stderr
    assert "not a reason nn-certify gives" in r.stdout
