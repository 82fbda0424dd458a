"""certify.api called the way a notebook would: a dict or TOML text in, results and claims
out, no files unless asked; a bundle on request; check and table of bundles."""

from __future__ import annotations

import doctest
import os
import tempfile
from pathlib import Path

import pytest

from certify import api
from certify.errors import SpecError
from certify.provers import coq as coqp

TOML = """
name = "ktb-3-2-1"
[network]
family = "mlp"
widths = [3, 2, 1]
activation = "t^2"
bias = false
"""


def test_the_module_docstring_examples_run_as_written():
    import certify.api as mod

    res = doctest.testmod(mod, extraglobs={"api": api})
    assert res.attempted >= 5 and res.failed == 0


def test_certify_toml_text_returns_result_and_claim_and_writes_nothing(tmp_path: Path):
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        (c,) = api.certify(TOML)
    finally:
        os.chdir(cwd)
    assert list(tmp_path.iterdir()) == []
    assert c.name == "ktb-3-2-1" and c.kind == "rank" and c.passed
    # issue 21: KTB's expected dimension 6 (was mislabelled 5), defect 1
    assert (c.result["rank_lower"], c.result["expected_dim"], c.result["defect"]) == (5, 6, 1)
    assert "rank" in c.claim["text"] and c.coq == "not-run"
    assert c.row["widths"] == "3-2-1" and c.row["checker"] == "passed"


def test_certify_a_dict_sweep_gives_one_result_per_instance():
    spec = {"name": "ew", "network": {"family": "mlp", "bias": False},
            "sweep": {"widths": [[2, 2, 1], [3, 3, 1]], "activation": ["t^2", "t^3"]}}  # fmt: skip
    got = api.certify(spec)
    assert [c.name for c in got] == ["ew-w2x2x1-t2", "ew-w2x2x1-t3", "ew-w3x3x1-t2",
                                     "ew-w3x3x1-t3"]  # fmt: skip
    assert all(c.passed for c in got)
    assert [c.result["rank_lower"] for c in got] == [3, 4, 6, 9]


def test_bad_input_raises_a_spec_error_naming_the_field():
    with pytest.raises(SpecError) as e:
        api.certify({"name": "x", "network": {"family": "mlp", "widths": [2, 0, 1],
                                              "activation": "t^2"}})  # fmt: skip
    assert e.value.field == "network.widths[1]"
    with pytest.raises(SpecError) as e:
        api.certify("name = ")
    assert e.value.field == "<file>"


@pytest.mark.skipif(coqp.coqc_path() is None, reason="coqc not installed")
def test_certify_with_coq_runs_coqc_in_a_scratch_bundle_that_is_removed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    # this test's own temporary directory: another test, xdist worker or session making its
    # own nn-certify-api-* scratch in the shared TMPDIR at the same time cannot disturb it
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    made: list[str] = []
    mkdtemp = tempfile.mkdtemp

    def spy(*args, **kwargs):
        made.append(mkdtemp(*args, **kwargs))
        return made[-1]

    monkeypatch.setattr(tempfile, "mkdtemp", spy)
    (c,) = api.certify(TOML, coq=True, lean=False)
    assert c.coq == "passed" and c.passed
    scratch = [Path(d) for d in made if Path(d).name.startswith("nn-certify-api-")]
    assert len(scratch) == 1 and scratch[0].parent == tmp_path  # the scratch bundle, here
    assert list(tmp_path.glob("nn-certify-api-*")) == []  # removed


def test_run_writes_a_bundle_that_check_verifies_and_table_reads(tmp_path: Path):
    out = tmp_path / "b"
    m = api.run([TOML, Path(__file__).parents[1] / "certify/examples/ktb-2-2-1.toml"], out,
                coq=False, lean=False)  # fmt: skip
    assert [e["name"] for e in m["certificates"]] == ["ktb-3-2-1", "ktb-2-2-1"]
    assert (out / "results.csv").is_file()
    res = api.check(out, coq=False, lean=False)
    assert res.verified and not res.problems
    rows = api.table(out)
    assert [r["rank_lower"] for r in rows] == [5, 3]
    merged = api.table(out, out, seconds=True)
    assert len(merged) == 4 and merged[0]["bundle"] == str(out) and "seconds_generate" in merged[0]
    (out / "results.csv").write_text("tampered\n")
    res = api.check(out, coq=False, lean=False)
    assert not res.verified and any("results.csv" in p for p in res.problems)


def test_certify_with_out_returns_the_bundles_verdicts(tmp_path: Path):
    (c,) = api.certify(TOML, out=tmp_path / "b", lean=False, jobs=1)
    assert (tmp_path / "b" / "manifest.json").is_file()
    assert c.coq == ("passed" if coqp.coqc_path() else "not-run")
    assert c.row["name"] == "ktb-3-2-1" and c.certificate["name"] == "ktb-3-2-1"
