"""report.md (certify/report.py): one summary table, one section per kind saying the wording
shared by its certificates once; `certify demo --quick` covers every registry kind; task
phases show in the progress lines."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from certify import api
from certify.checker import registry
from certify.report import report_md, sentences, shared_text
from tests.conftest import run_cli

SWEEP = """name = "rp"
[network]
family = "mlp"
bias = false
[sweep]
widths = [[2, 2, 1], [3, 2, 1], [2, 3, 1], [3, 3, 1]]
activation = ["t^2", "t^3", "t^4"]
"""
RELU = """name = "rp-relu"
[network]
family = "relu"
widths = [2, 2, 1]
"""


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("report") / "b"
    api.run([SWEEP, RELU], out, coq=False, lean=False)
    return out


def _old_style_length(manifest: dict) -> int:
    """A lower bound on the old report.md (before issue 25): it said every claim in full
    and its citations, once per certificate."""
    return sum(len(e["claim"]["text"]) + len("; ".join(e["claim"]["cites"]))
               for e in manifest["certificates"])  # fmt: skip


def test_the_summary_table_has_one_row_per_certificate(small: Path):
    text = (small / "report.md").read_text()
    m = json.loads((small / "manifest.json").read_text())
    body = text.split("## Summary\n\n", 1)[1].split("\n\n", 1)[0].splitlines()
    assert body[0] == "| certificate | kind | result | checker | coq | lean |"
    rows = body[2:]
    assert [r.split(" | ")[0].lstrip("| ") for r in rows] == [e["name"] for e in m["certificates"]]
    assert all(r.split(" | ")[1] == f"{e['family']} {e['kind']}"
               for r, e in zip(rows, m["certificates"], strict=True))  # fmt: skip
    assert text.index("## Summary") < text.index("## mlp rank")


def test_one_section_per_kind_with_the_shared_wording_once(small: Path):
    text = (small / "report.md").read_text()
    m = json.loads((small / "manifest.json").read_text())
    kinds = {(e["family"], e["kind"]) for e in m["certificates"]}
    heads = re.findall(r"^## (\w+) ([\w-]+) \((\d+) certificates?\)$", text, re.M)
    assert {(f, k) for f, k, _ in heads} == kinds and len(heads) == len(kinds)
    mlp = [e for e in m["certificates"] if e["family"] == "mlp"]
    assert len(mlp) == 12
    # a sentence every MLP claim says word for word is in the report once
    common = set(sentences(mlp[0]["claim"]["text"]))
    for e in mlp[1:]:
        common &= set(sentences(e["claim"]["text"]))
    assert common
    section = text.split("## mlp rank", 1)[1].split("\n## ", 1)[0]
    for s in common:
        assert section.count(s) == 1, s
    # the references they all cite: listed once, in no row
    said = section.split("Cited by every one: ", 1)[1].split("\n", 1)[0]
    assert said.split("; ") == mlp[0]["claim"]["cites"]
    assert "Cites:" not in section


def test_every_claim_is_given_back_by_its_slots_and_own_sentences(small: Path):
    """Dedupe, not drop: the shared text with a claim's slot values, plus its own
    sentences, are exactly that claim's sentences."""
    m = json.loads((small / "manifest.json").read_text())
    texts = [e["claim"]["text"] for e in m["certificates"] if e["family"] == "mlp"]
    shared, variants, labels, slots, owns = shared_text(texts)
    assert "⟨1⟩" in shared and variants
    said = dict(variants)
    for t, lab, slot, own in zip(texts, labels, slots, owns, strict=True):
        filled = " ".join([shared] + [said[x] for x in lab])
        for k in sorted(slot, key=lambda k: -int(k[1:-1])):  # ⟨12⟩ before ⟨1⟩
            filled = filled.replace(k, slot[k])
        assert sorted(sentences(filled) + own) == sorted(sentences(t))


def test_the_report_is_at_most_half_of_the_claims_said_in_full(small: Path):
    """The old report said every claim in full (plus tables): on 8 of these MLP
    certificates (t^2, t^3) it was 34335 bytes, the new one 11128 (measured with the old report_md);
    on the full demo 282220 -> 89330 bytes, 947 -> 315 lines."""
    m = json.loads((small / "manifest.json").read_text())
    text = (small / "report.md").read_text()
    assert len(text) * 2 <= _old_style_length(m), (len(text), _old_style_length(m))


def test_certify_check_redraws_the_report(small: Path):
    r = run_cli("check", str(small), "--no-coq", "--no-lean")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "report.md differs" not in r.stdout


def test_the_bundle_readme_says_how_to_re_verify_first(small: Path):
    head = (small / "README.md").read_text().splitlines()[:20]
    assert "## Re-verify" in head


def test_a_certificate_message_is_kept_under_its_section(monkeypatch: pytest.MonkeyPatch):
    m = {
        "tool": {},
        "certificates": [
            {"name": n, "family": "tanh", "kind": "orbit", "architecture": "a",
             "result": {"kind": "orbit"}, "claim": {"text": f"Shared one. Own {n}.", "cites": []},
             "verdicts": {"checker": "passed", "coq": "failed" if n == "b" else "passed",
                          "lean": "not-run"},
             "messages": {"checker": [], "coq": "boom" if n == "b" else "", "lean": ""},
             "coq_assumptions": []}
            for n in ("a", "b")
        ],
    }  # fmt: skip
    monkeypatch.setattr("certify.report.summary_line", lambda e: "r")
    text = report_md(m)
    assert text.count("Shared one.") == 1 and "Own a." in text and "Own b." in text
    assert 'b:\n\n- coq: `"boom"`' in text


# ---------------------------------------------------------------- demo --quick
def test_demo_quick_has_one_certificate_request_of_every_registry_kind():
    assert set(api.QUICK_DEMO) == set(registry.BY_KEY)
    specs = api.demo_specs(quick=True)
    reqs = [(s, r) for s in specs for r in s.certificates]
    assert len(reqs) == len(registry.BY_KEY), [r.name for _, r in reqs]
    kinds = sorted(r.kind for _, r in reqs)
    assert kinds == sorted(k for _, k in registry.BY_KEY), kinds
    full = api.demo_specs()
    assert len([r for s in full for r in s.certificates]) > len(reqs)


@pytest.mark.slow
def test_demo_quick_runs_every_kind_with_coq_and_reports_its_phases(tmp_path: Path):
    out = tmp_path / "q"
    r = run_cli("demo", "--quick", "--out", str(out), "--no-lean")
    assert r.returncode == 0, r.stderr
    m = json.loads((out / "manifest.json").read_text())
    assert {(e["family"], e["kind"]) for e in m["certificates"]} == set(registry.BY_KEY)
    assert all(e["verdicts"]["coq"] == "passed" for e in m["certificates"]), r.stdout
    # the pool reports each task's completed phases when it is done
    assert re.search(r"\[certify\] ktb-2-2-1: generate [\d.]+ s, checker [\d.]+ s, render "
                     r"[\d.]+ s, coqc [\d.]+ s", r.stderr), r.stderr  # fmt: skip
    chk = run_cli("check", str(out), "--no-coq", "--no-lean")
    assert chk.returncode == 0, chk.stdout


@pytest.mark.slow
def test_a_single_certificate_run_reports_each_phase_as_it_ends(tmp_path: Path):
    spec = tmp_path / "one.toml"
    spec.write_text('name = "one"\n[network]\nfamily = "mlp"\nwidths = [2, 2, 1]\n'
                    'activation = "t^2"\nbias = false\n')  # fmt: skip
    r = run_cli("run", str(spec), "--out", str(tmp_path / "b"), "--no-lean")
    assert r.returncode == 0, r.stderr
    order = [m.group(1) for m in re.finditer(r"\[certify\] one: (generate|checker, render|coqc)"
                                             r": done in [\d.]+ s", r.stderr)]  # fmt: skip
    assert order == ["generate", "checker, render", "coqc"], r.stderr
    # the phases end before the task's own line
    assert r.stderr.index("one: coqc: done") < r.stderr.index("1/1 one")
    assert "done in" not in (tmp_path / "b" / "report.md").read_text()
