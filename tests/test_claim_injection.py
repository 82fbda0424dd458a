"""Issue 22, items 1: claims are made only of checked values. Each finding is reproduced and now
fails safe: a tanh `source` that writes a sentence into the claim, an affsym table whose
duplicate identity is spelled "1*1", non-canonical rationals, a composite modulus, stray keys
in instance.network, and free-text messages in report.md."""

from __future__ import annotations

import copy
import dataclasses
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from certify import certificate
from certify.algebra import modp
from certify.checker import check_certificate
from certify.checker.claims.tanh import affsym_claim, affsym_result, equiv_claim, orbit_claim
from certify.checker.facts.tanh_sym import rational_table
from certify.errors import SpecError
from certify.families import generate_certificate
from certify.families.polynomial import witness_rank
from certify.spec import parse_spec
from tests.conftest import make_cert, run_cli

INJECTION = (
    "net.pt). Kernel-checked: for the layered tanh network, the two networks realise "
    "different functions, proved in Coq (see"
)
ORBIT_TOML = """name = "inj-orbit"
[network]
family = "tanh"
activation = "tanh"
widths = [1, 2, 1]
[parameters]
weights = [[[1], [-2]], [[1, 2]]]
biases = [[1, "1/2"], [0]]
[[certificate]]
kind = "orbit"
name = "inj-orbit"
"""
AFFSYM_TOML = """name = "inj-affsym"
[[certificate]]
kind = "affsym"
name = "inj-affsym"
activation = "tanh"
"""


def _spec(text: str) -> Any:
    import tomllib

    return parse_spec(tomllib.loads(text), "<test>")


def _cert(text: str) -> dict[str, Any]:
    spec = _spec(text)
    c = copy.deepcopy(generate_certificate(spec, spec.certificates[0]))  # the group is cached
    assert check_certificate(c) == []
    return c


def injected_orbit() -> dict[str, Any]:
    """The finding: the source closes the parenthesis and writes a kernel-checked sentence;
    the claim is rebuilt with the project's own template, so it is self-consistent."""
    c = _cert(ORBIT_TOML)
    c["instance"]["network"]["source"] = INJECTION
    c["claim"] = orbit_claim(c["instance"]["network"], c["instance"]["symmetry"], c["result"])
    assert "realise different functions, proved in Coq" in c["claim"]["text"]
    return c


def duplicate_affsym() -> dict[str, Any]:
    """The finding: the identity listed again with alpha = "1*1", order 3 for tanh (order 2)."""
    c = _cert(AFFSYM_TOML)
    g = c["witness"]["group"]
    g["elements"].append(dict(g["elements"][0], alpha="1*1"))
    g["order"] = 3
    c["witness"]["table"] = rational_table(g)
    c["result"] = affsym_result(g)
    c["claim"] = affsym_claim(g, c["result"], len(c["witness"]["table"]))
    assert "finite group of order 3" in c["claim"]["text"]
    return c


# ---------------------------------------------------------------- the Python checker
def test_a_tanh_source_that_writes_a_sentence_into_the_claim_is_rejected_by_the_checker():
    problems = check_certificate(injected_orbit())
    assert problems and "instance.network.source" in problems[0]


def test_the_same_source_in_an_equiv_certificate_is_rejected_too():
    c = _cert(ORBIT_TOML.replace('kind = "orbit"', 'kind = "equiv"\nweights = [[[1], [-2]], '
                                 '[[1, 2]]]\nbiases = [[1, "1/2"], [0]]'))  # fmt: skip
    c["instance"]["network"]["source"] = INJECTION
    c["claim"] = equiv_claim(c["instance"]["network"], c["instance"]["symmetry"], c["result"])
    assert check_certificate(c) != []


@pytest.mark.parametrize("source", [INJECTION, "a b", 'x"y', "a(b)", "`x`", "x;y", "-x", ""])
def test_a_spec_source_outside_the_file_name_grammar_is_a_spec_error(source):
    text = ORBIT_TOML.replace(
        "widths = [1, 2, 1]", f"widths = [1, 2, 1]\nsource = {json.dumps(source)}"
    )
    with pytest.raises(SpecError, match="network.source"):
        _spec(text)


def test_a_source_token_is_shown_quoted_in_the_claim_and_accepted():
    text = ORBIT_TOML.replace(
        "widths = [1, 2, 1]", 'widths = [1, 2, 1]\nsource = "from-torch:m.pt:exact"'
    )
    c = _cert(text)
    assert "(parameters from source `from-torch:m.pt:exact`)" in c["claim"]["text"]


def test_an_affsym_duplicate_identity_spelled_1x1_is_rejected_by_the_checker():
    problems = check_certificate(duplicate_affsym())
    assert any("must be spelled '1'" in p for p in problems), problems
    assert any("same element as an earlier proved row" in p for p in problems), problems


def test_an_affsym_duplicate_in_canonical_spelling_is_rejected_as_a_repeated_element():
    c = _cert(AFFSYM_TOML)
    g = c["witness"]["group"]
    g["elements"].append(dict(g["elements"][0], alpha="(2/2)"))  # not canonical either
    g["elements"].append(dict(g["elements"][0], beta="(0*1)"))
    g["order"] = 4
    c["witness"]["table"] = rational_table(g)
    c["result"] = affsym_result(g)
    c["claim"] = affsym_claim(g, c["result"], len(c["witness"]["table"]))
    assert check_certificate(c) != []


@pytest.mark.parametrize("bad", ["6/2", "01", "-0", " 1/2", "3/1", "+1", "0/5", "1*1", "1/-2"])
def test_non_canonical_rationals_are_refused_by_the_spec_and_by_the_checker(bad):
    with pytest.raises(SpecError, match=r"parameters\.weights\[0\]\[0\]\[0\]"):
        make_cert([2, 1], weights=[[[bad, 1]]])
    c = make_cert([2, 1], weights=[[[1, 1]]])
    c["instance"]["theta"][0] = bad
    assert check_certificate(c) != []


def test_canonical_rationals_are_accepted():
    c = make_cert([2, 1], weights=[[["-7/2", "0"]]])
    assert c["instance"]["theta"][:2] == ["-7/2", "0"] and check_certificate(c) == []


def composite_modulus_cert() -> dict[str, Any]:
    """The finding: a rank certificate computed modulo 46337 * 46339 (not prime), which the
    spec and the generator's mod-p algebra (modp.require_prime) refuse; generated here past
    both, as a forger would. The generic-rank evidence (witness.generic) stays at a prime:
    FLINT aborts on a composite modulus, and the lower and upper witnesses are the ones
    whose claim says "the prime p"."""
    d = {"name": "t", "network": {"family": "mlp", "widths": [2, 2, 1], "activation": "t^2",
                                  "bias": False}, "parameters": {"seed": 0},
         "certificate": [{"kind": "rank", "name": "composite"}]}  # fmt: skip
    spec = parse_spec(d, "<test>")
    prime = spec.certificates[0].prime
    real = witness_rank.generic_target
    req = dataclasses.replace(spec.certificates[0], prime=46337 * 46339)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(witness_rank, "generic_target", lambda net, q, n: real(net, prime, n))
        mp.setattr(modp, "require_prime", lambda q: q)
        c = generate_certificate(spec, req)
    assert c["witness"]["lower"]["prime"] == 46337 * 46339
    return c


def test_a_composite_modulus_is_rejected_by_the_checker():
    assert check_certificate(composite_modulus_cert()) == [
        "witness.lower.prime / witness.upper.prime: not a prime (below 2^31)"
    ]


def test_a_composite_modulus_is_rejected_by_coqc(coq):
    assert coq.verdict(composite_modulus_cert()).status == "failed"


@pytest.mark.parametrize("widths", [[2, 2, 1], None])
def test_a_stray_key_in_instance_network_is_rejected(widths):
    if widths is None:  # a ResNet rank certificate
        net = {"family": "resnet", "width": 1, "depth": 1, "activation": "t^2"}
        data = {"name": "r", "network": net, "parameters": {"seed": 0}}
        spec = parse_spec(data, "<test>")
        c = generate_certificate(spec, spec.certificates[0])
    else:
        c = make_cert(widths)
    assert check_certificate(c) == []
    for key, value in (("note", "re-verified by Lean"), ("messages", ["all passed"])):
        bad = copy.deepcopy(c)
        bad["instance"]["network"][key] = value
        assert check_certificate(bad) != []
    bad = copy.deepcopy(c)
    bad["instance"]["note"] = "x"
    assert check_certificate(bad) != []
    bad = copy.deepcopy(c)
    bad["witness"]["note"] = "x"
    assert check_certificate(bad) != []


def test_report_md_shows_free_text_messages_as_quoted_data():
    from certify.bundle import report_md

    msg = "ok\n\n## Claims\n\nKernel-checked: `everything` [link](http://x)"
    res = _cert(ORBIT_TOML)["result"]
    entry = {
        **{"name": "c", "family": "tanh", "kind": "orbit", "result": res},
        "claim": {"text": "t", "cites": []},
        "verdicts": {"checker": "passed", "coq": "failed", "lean": "not-run"},
        "messages": {"checker": [], "coq": msg, "lean": ""},
        "coq_assumptions": [],
    }
    text = report_md({"certificates": [entry], "tool": {}})
    line = next(x for x in text.splitlines() if x.startswith("- coq: "))
    assert line.count("`") == 2 and "\\n\\n## Claims" in line and "\\u0060everything" in line
    assert not any(x.startswith("## Claims") for x in text.splitlines())


# ---------------------------------------------------------------- certify check
def _forge_bundle(bundle: Path, tmp_path: Path, forged: dict[str, Any]) -> Path:
    """A consistent forgery of a one-certificate bundle: the certificate file, its manifest
    entry, the re-rendered Coq/Lean files, report, referee files and inventory rewritten with
    the tool's own functions, so only the checker (and the provers) can object."""
    from certify import table
    from certify.bundle import file_inventory, render_certificate, report_md, write_results
    from certify.referee import referee_files

    b = tmp_path / "forged"
    shutil.copytree(bundle, b)
    m = json.loads((b / "manifest.json").read_text())
    (e,) = m["certificates"]
    (b / e["file"]).write_bytes(certificate.dump(forged))
    e.update(sha256=certificate.sha256(forged), claim=forged["claim"], result=forged["result"])
    try:
        it = render_certificate(forged)
    except ValueError:  # the renderer decodes with the checker's decoders: keep the old files
        pass
    else:
        (b / e["coq_file"]).write_text(it.coq_text)
        (b / e["lean_file"]).write_text(it.lean_text)
    results = table.rows(m, {e["name"]: forged})
    write_results(b, results, {})
    (b / "report.md").write_text(report_md(m, results))
    for rel, text in referee_files(m).items():
        (b / rel).write_text(text)
    m["files"] = file_inventory(b)
    (b / "manifest.json").write_text(json.dumps(m, indent=1, sort_keys=True) + "\n")
    return b


@pytest.mark.parametrize("what", ["injected-source", "duplicate-element"])
def test_certify_check_rejects_the_forgery_and_runs_no_prover_on_it(what, tmp_path, coq):
    text, forge = {"injected-source": (ORBIT_TOML, injected_orbit),
                   "duplicate-element": (AFFSYM_TOML, duplicate_affsym)}[what]  # fmt: skip
    spec = tmp_path / "s.toml"
    spec.write_text(text)
    good = tmp_path / "b"
    r = run_cli("run", str(spec), "--out", str(good), "--no-lean", "--jobs", "1", "--quiet")
    assert r.returncode == 0, r.stdout + r.stderr
    assert run_cli("check", str(good), "--require", "coq", "--quiet").returncode == 0
    b = _forge_bundle(good, tmp_path, forge())
    r = run_cli("check", str(b), "--require", "coq", "--quiet")
    out = r.stdout + r.stderr
    assert r.returncode != 0, out
    assert "checker:" in out and "Traceback" not in out
    # no coqc on it: not re-rendered at all, or not given to the provers
    assert "cannot re-render" in out or "coq not run, the checker rejected it" in out, out
