"""Affine-symmetry certificates end in theorems over Coq's reals (issue 24): each listed
element is `affine_symmetry rho a b g d` (coq/NNCert/meaning/tanh/AffsymMeaning.v), proved by
coqc; a
tampered element is rejected by the Python checker and its rendered theorem by coqc; the
axioms of the reals are allowed for these theorems only."""

from __future__ import annotations

import copy
import re

import pytest

from certify import certificate
from certify.checker import check_certificate
from certify.checker.facts.affsym_coq import element_theorem, element_theorems
from certify.families.tanh.render import render_files
from certify.provers import coq as coqp
from certify.provers import coq_audit
from tests.test_affsym import _rebuild, affsym_cert

DEMO = ["tanh", "logistic", "arctan", "softsign", "erf", "x*tanh(x)", "relu", "sin", "t^3",
        "t^3 + t^2"]  # fmt: skip
needs_coqc = pytest.mark.skipif(coqp.coqc_path() is None, reason="coqc not installed")


def _coq_text(cert: dict) -> str:
    return render_files(cert, certificate.sha256(cert))[2]


@pytest.mark.parametrize("act", DEMO)
def test_every_element_of_the_demo_activations_has_a_theorem_over_the_reals(act):
    c = affsym_cert(act)
    thms = element_theorems(c["witness"]["group"])
    assert thms and all(t is not None for t in thms)
    assert c["result"]["coq_identities"] == len(thms)
    text = _coq_text(c)
    last = [ln for ln in text.splitlines() if ln.startswith(("Lemma ", "Theorem "))][-1]
    assert last.startswith("Theorem affsym_element_") and not last.rstrip(".").endswith("= true")
    assert "Proved in Coq over the real numbers" in c["claim"]["text"]


def test_an_element_outside_the_table_gets_no_theorem_and_the_claim_says_sympy():
    """A (true) element the library has no proof of is stated by sympy only."""
    row = {"alpha": "1", "beta": "(4*pi)", "gamma": "1", "delta": "0", "family": None,
           "proof": "sympy expand"}  # fmt: skip
    assert element_theorem("sin", row) is None
    assert element_theorem("sin", {**row, "beta": "(2*pi)"}) is not None
    assert element_theorem("exp(x)", {**row, "beta": "0"}) is None  # no Coq term for rho


def test_the_axioms_of_the_reals_are_audited_in_a_group_of_their_own():
    c = affsym_cert("tanh")
    thms = coq_audit.theorems_of(c, "Affsym_x", _coq_text(c))
    assert {t.name for t in thms if t.reals} == {"affsym_element_0", "affsym_element_1",
                                                  "affsym_table"}  # fmt: skip
    rank = coq_audit.Theorem("Certificates.Rank_x", "rank_lower")
    text = coq_audit.driver_text([rank, *thms])
    plain = text[text.index(f"Definition {coq_audit.AUDITED} :=") :].split(").", 1)[0]
    assert "rank_lower" in plain and "affsym_element" not in plain
    prints = re.findall(r"^Print Assumptions (\w+)\.$", text, re.M)
    assert prints == [coq_audit.REFERENCE, coq_audit.AUDITED, coq_audit.REFERENCE_REALS,
                      coq_audit.AUDITED_REALS]  # fmt: skip


TAMPERS = {
    # (activation, element index, field, value): each makes the identity false
    "logistic delta": ("logistic", 1, "delta", "0"),
    "tanh gamma": ("tanh", 1, "gamma", "1"),
    "sin shift sign": ("sin", 2, "gamma", "1"),
    "polynomial beta": ("t^3 + t^2", 0, "beta", "(2/3)"),
    "family gamma": ("t^3", 0, "gamma", "l^2"),
}


@needs_coqc
@pytest.mark.parametrize("case", sorted(TAMPERS))
def test_a_false_element_is_rejected_by_the_checker_and_never_proved_in_coq(case, coq):
    """The checker rejects it; a named activation's false element gets no theorem (the
    library has no lemma for it, so the claim cannot say Coq proves it); a polynomial's gets
    its theorem, and coqc refuses it (`field` fails)."""
    act, i, fld, val = TAMPERS[case]
    c = copy.deepcopy(affsym_cert(act))
    c["witness"]["group"]["elements"][i][fld] = val
    _rebuild(c)
    assert check_certificate(c), "the Python checker accepted a false element"
    thm = element_theorems(c["witness"]["group"])[i]
    if act.startswith("t^"):
        assert thm is not None
        v = coq.verdict(c)
        assert v.status == "failed", v.message
    else:
        assert thm is None
        assert f"affsym_element_{i}" not in _coq_text(c)


@needs_coqc
@pytest.mark.parametrize(
    ("act", "old", "new"),
    [
        (
            "tanh",
            "(IZR (-1)) (IZR 0) (IZR (-1)) (IZR 0).",
            "(IZR (-1)) (IZR 0) (IZR (-1)) (IZR 1).",
        ),
        ("logistic", "(IZR (-1)) (IZR 1).", "(IZR (-1)) (IZR 0)."),
        ("relu", "forall l : R, 0 < l ->", "forall l : R, l <> 0 ->"),
        ("sin", "(IZR 1) PI (IZR (-1)) (IZR 0).", "(IZR 1) PI (IZR 1) (IZR 0)."),
    ],
)
def test_coqc_refuses_a_false_statement_under_the_library_lemma_of_a_true_one(act, old, new, coq):
    """The proof is the library lemma of the true element: a statement edited to a false one
    (as a tampered file would have it) does not typecheck."""
    c = affsym_cert(act)
    text = _coq_text(c)
    line = next(ln for ln in text.splitlines() if ln.startswith("Theorem ") and old in ln)
    bad = text.replace(line, line.replace(old, new))
    rel = f"Certificates/Affsym_false_{act}.v"
    (coq.proj / rel).write_text(bad)
    v = coqp.check_file(coq.proj, rel, 600, theorems=coq_audit.theorems_of(c, rel[13:-2], bad))
    assert v.status == "failed", v.message
    ok = f"Certificates/Affsym_true_{act}.v"
    (coq.proj / ok).write_text(text)
    v = coqp.check_file(coq.proj, ok, 600, theorems=coq_audit.theorems_of(c, ok[13:-2], text))
    assert v.status == "passed", v.message


@needs_coqc
def test_a_theorem_over_the_reals_is_refused_outside_the_reals_group(coq):
    """The same use of classical logic passes the audit for an affsym certificate (whose
    theorems are over the reals) and fails it for a rank certificate's file."""
    c = affsym_cert("tanh")
    text = _coq_text(c).replace(
        "(* audited: affsym_table *)",
        "Theorem lem : forall P : Prop, P \\/ ~ P.\nProof. exact Classical_Prop.classic. Qed.\n"
        "(* audited: affsym_table *)\n(* audited: lem *)",
    )
    text = text.replace(
        "From Coq Require Import Reals.", "From Coq Require Import Reals Classical."
    )
    proj = coq.proj
    rel = "Certificates/Affsym_reals_probe.v"
    (proj / rel).write_text(text)
    ok = coqp.check_file(proj, rel, 600, theorems=coq_audit.theorems_of(c, "Affsym_reals_probe",
                                                                       text))  # fmt: skip
    assert ok.status == "passed", ok.message
    plain = [coq_audit.Theorem("Certificates.Affsym_reals_probe", "lem")]
    bad = coqp.check_file(proj, rel, 600, theorems=plain)
    assert bad.status == "failed" and "Classical_Prop.classic" in bad.message


@needs_coqc
@pytest.mark.parametrize("act", ["arctan", "t^3 + t^2", "erf"])
def test_the_audit_pins_each_elements_statement_and_rejects_a_weaker_theorem_of_that_name(act, coq):
    """The driver states every element's theorem itself (over Coq's reals and the library's
    AffsymMeaning.v, never the certificate's names), so a file whose affsym_element_1
    proves something else compiles and still fails the audit: a named lemma (atan), a
    polynomial identity (`field`) and a statement for every odd function (erf)."""
    c = affsym_cert(act)
    text = _coq_text(c)
    proj = coq.proj
    trivial = "Theorem affsym_element_1 : True.\nProof. exact I. Qed."
    weak = re.sub(r"Theorem affsym_element_1 : .*?Qed\.", trivial, text, flags=re.S)
    for mod, body in (("Affsym_pin_ok", text), ("Affsym_pin_weak", weak)):
        assert (body == text) == (mod == "Affsym_pin_ok")
        (proj / f"Certificates/{mod}.v").write_text(body)
        thms = coq_audit.theorems_of(c, mod, text)  # from the faithful text, as certify does
        assert {t.name for t in thms if t.statement} == {
            f"affsym_element_{i}" for i in range(len(element_theorems(c["witness"]["group"])))
        }
        v = coqp.check_file(proj, f"Certificates/{mod}.v", 600, theorems=thms)
        if mod == "Affsym_pin_ok":
            assert v.status == "passed", v.message
        else:
            assert v.status == "failed" and "not the expected statement" in v.message, v


# ------------------------------------------- Prop. 2.1 / 3.3 facts over Q (CompindMeaning.v)
def _compind_text(cert: dict) -> str:
    from certify.families.compind.render import render_files as compind_files

    return compind_files(cert, certificate.sha256(cert))[2]


def _demo_cert(name: str) -> dict:
    from certify.cli import example_specs
    from certify.families import generate_certificates
    from certify.spec import load_specs

    for path in example_specs():
        for spec in load_specs(path):
            for req in spec.certificates:
                for c in generate_certificates(spec, req):
                    if c["name"] == name:
                        return c
    raise KeyError(name)


@needs_coqc
@pytest.mark.parametrize(
    ("name", "theorem"),
    [("prop21-z3-z-1", "prop21_hypotheses"), ("mlp-ident-width-one", "prop33_hypotheses")],
)
def test_a_prop21_or_prop33_fact_ends_in_its_hypotheses_over_q_and_a_false_one_fails(
    name, theorem, coq
):
    c = _demo_cert(name)
    text = _compind_text(c)
    decls = [ln for ln in text.splitlines() if ln.startswith(("Lemma ", "Theorem "))]
    hyp = [d for d in decls if d.startswith("Theorem hypotheses_")]
    assert hyp and theorem in hyp[-1]
    # the file ends in a theorem: these hypotheses, or an MLP fact's mlp_hypotheses_i
    assert decls[-1].startswith(("Theorem hypotheses_", "Theorem mlp_hypotheses_"))
    assert "proved in Coq over Q" in c["claim"]["text"]
    assert coq.verdict(c).status == "passed"
    # the same proof under a statement about other numbers does not typecheck
    if theorem == "prop21_hypotheses":
        bad = text.replace("(to_Q d2_0) (to_Q d3_0).", "(to_Q (7, 1)) (to_Q d3_0).")
    else:
        bad = text.replace("prop33_hypotheses (map to_Q inst_sigma).",
                           "prop33_hypotheses (map to_Q (tl inst_sigma)).")  # fmt: skip
    assert bad != text
    rel = f"Certificates/Hyp_false_{theorem}.v"
    (coq.proj / rel).write_text(bad)
    from certify.provers import coq_audit as A

    v = coqp.check_file(coq.proj, rel, 600, theorems=A.theorems_of(c, rel[13:-2], bad))
    assert v.status == "failed", v.message
    # a theorem of that name that proves something weaker compiles, and the audit, which
    # states the hypotheses itself, rejects it
    trivial = r"Theorem \1 : True.\nProof. exact I. Qed."
    weak = re.sub(r"Theorem (hypotheses_\d+) : .*?Qed\.", trivial, text, count=1, flags=re.S)
    assert weak != text
    mod = f"Hyp_weak_{theorem}"
    (coq.proj / f"Certificates/{mod}.v").write_text(weak)
    thms = A.theorems_of(c, mod, text)  # from the faithful text, as certify does
    assert any(t.name.startswith("hypotheses_") and t.statement for t in thms)
    v = coqp.check_file(coq.proj, f"Certificates/{mod}.v", 600, theorems=thms)
    assert v.status == "failed" and "not the expected statement" in v.message, v
