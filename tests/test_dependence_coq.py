"""Composition-dependence facts end in theorems over Coq's rationals (issue 24):
`dependent inst lam` and `dependent_all inst lam lo d` of
coq/NNCert/meaning/compind/DependenceMeaning.v,
the relation evaluated by the library's own polynomial evaluation over Q at every point,
derived from the kernel's check by one `exact`. Every test here runs coqc or the checker."""

from __future__ import annotations

import copy
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from certify import certificate
from certify.checker import check_certificate
from certify.families import generate_certificate
from certify.families.compind.render import render_files
from certify.provers import coq as coqp
from certify.provers import coq_audit
from certify.provers.coq_library import qualified
from certify.spec import parse_spec
from tests.conftest import compile_compind_text as compile_text
from tests.conftest import compind_coq_text as coq_text


def make(req: dict) -> dict:
    spec = parse_spec({"name": "dep", "certificate": [req]}, "<test>")
    return generate_certificate(spec, spec.certificates[0])


Z2Z = {"kind": "compind", "variables": ["t"], "polynomials": ["t", "2*t", "3*t"],
       "activation": "z^2 + z"}  # fmt: skip
SEARCH = {"kind": "compind", "variables": ["t"], "polynomials": ["t", "2*t", "3*t"],
          "search": True, "origin": True}  # fmt: skip
needs_coqc = pytest.mark.skipif(coqp.coqc_path() is None, reason="coqc not installed")


def theorem_lines(text: str) -> list[str]:
    return [ln for ln in text.splitlines() if ln.startswith(("Lemma ", "Theorem "))]


@needs_coqc
@pytest.mark.parametrize("req", [Z2Z, SEARCH], ids=["dependent", "dependent_all"])
def test_a_dependence_fact_ends_in_its_relation_over_q_and_coqc_proves_it(req, coq):
    c = make(req)
    text = coq_text(c)
    rel = [ln for ln in theorem_lines(text) if ln.startswith("Theorem relation_")]
    assert rel and all(" = true" not in ln for ln in rel)
    kinds = [f["kind"] for f in c["witness"]["facts"]]
    assert len(rel) == sum(k in ("dependent", "dependent_all") for k in kinds)
    assert "proved in Coq over Q (theorem relation_0" in c["claim"]["text"]
    # the claim, the Coq file and the Lean file's pointers name the same theorems
    named = set(re.findall(r"theorem (relation_\d+) of the Coq file", c["claim"]["text"]))
    lean = render_files(c, certificate.sha256(c))[3]
    assert named == {ln.split()[1] for ln in rel}
    assert named == set(re.findall(r"theorem `(relation_\d+)`", lean))
    assert coq.verdict(c).status == "passed"
    if req is Z2Z:  # the whole certificate ends in a theorem
        assert theorem_lines(text)[-1].startswith("Theorem relation_0 : dependent ")


# Random dependent families: d + 1 multiples c_i * x of one variable under sigma of degree
# d with sigma(0) = 0 live in span{x, ..., x^d}; with two variables, four linear forms under
# sigma = a z^2 live in span{x^2, xy, y^2}.
@needs_coqc
@settings(
    max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    d=st.integers(1, 3),
    data=st.data(),
)
def test_random_dependent_families_end_in_a_theorem_coqc_proves(coq, d, data):
    mults = data.draw(st.lists(st.integers(-5, 5).filter(bool), min_size=d + 1, max_size=d + 1,
                               unique=True))  # fmt: skip
    coeffs = data.draw(st.lists(st.integers(-4, 4), min_size=d, max_size=d))
    top = data.draw(st.integers(1, 4))
    sigma = " + ".join([f"({a})*z^{j + 1}" for j, a in enumerate(coeffs[:-1])] + [f"{top}*z^{d}"])
    two = data.draw(st.booleans())
    if two:
        forms = data.draw(st.lists(st.tuples(st.integers(-3, 3), st.integers(-3, 3)).filter(any),
                                   min_size=4, max_size=4, unique=True))  # fmt: skip
        req = {"kind": "compind", "variables": ["x", "y"], "activation": f"{top}*z^2",
               "polynomials": [f"({a})*x + ({b})*y" for a, b in forms]}  # fmt: skip
    else:
        req = {"kind": "compind", "variables": ["x"], "activation": sigma,
               "polynomials": [f"({m})*x" for m in mults]}  # fmt: skip
    c = make(req)
    assert c["result"]["status"] == "dependent"  # more functions than the span's dimension
    assert check_certificate(c) == []
    assert theorem_lines(coq_text(c))[-1].startswith("Theorem relation_0 : dependent ")
    v = coq.verdict(c)
    assert v.status == "passed", v.message


@needs_coqc
def test_a_tampered_relation_is_rejected_by_the_checker_and_by_coqc(coq):
    c = make(Z2Z)
    bad = copy.deepcopy(c)
    lam = bad["witness"]["facts"][0]["lambda"]
    lam[0] += 1
    assert check_certificate(bad) != []
    head = "Definition lam_0 : list Z := ["
    was = c["witness"]["facts"][0]["lambda"][0]
    text = coq_text(c).replace(f"{head}({was})", f"{head}({lam[0]})")
    assert text != coq_text(c)
    v = compile_text(coq, c, text, "Dep_tampered_lam")
    assert v.status == "failed"


@needs_coqc
def test_the_statement_has_teeth_a_false_relation_is_refuted_in_coq(coq):
    """`dependent` is not vacuous: for lam changed in one entry, Coq refutes it by evaluating
    the relation at the point x = 2."""
    c = make(Z2Z)
    lam = c["witness"]["facts"][0]["lambda"]
    bad = [lam[0] + 1, *lam[1:]]
    text = coq_text(c) + (
        f"\nDefinition lam_bad : list Z := ({str(bad).replace(',', ';')})%Z.\n"
        "Lemma teeth : ~ dependent inst_0 lam_bad.\n"
        "Proof.\n  intros (_ & _ & _ & _ & H). specialize (H [inject_Z 2] eq_refl).\n"
        "  vm_compute in H. discriminate H.\nQed.\n"
        "Lemma holds_at_2 : (relation_value inst_0 lam_0 [inject_Z 2] == 0)%Q.\n"
        "Proof. destruct relation_0 as (_ & _ & _ & _ & H). exact (H [inject_Z 2] eq_refl). Qed.\n"
    )
    v = compile_text(coq, c, text, "Dep_teeth")
    assert v.status == "passed", v.message


REDEFINED = {
    "dependent": (
        Z2Z,
        "Theorem relation_0 : dependent inst_0 lam_0.\n"
        "Proof. exact (dependent_meaning _ _ fact_0). Qed.",
        "Definition dependent (i : compind_instance) (l : list Z) : Prop := True.\n"
        "Theorem relation_0 : dependent inst_0 lam_0.\nProof. exact I. Qed.",
    ),
    "dependent_all": (
        SEARCH,
        "Theorem relation_1 : dependent_all inst_1 lam_1 1%nat 2%nat.\n"
        "Proof. exact (dependent_all_meaning _ _ _ _ fact_1). Qed.",
        "Definition dependent_all (i : compind_instance) (l : list Z) (lo d : nat) : Prop :=\n"
        "  True.\nTheorem relation_1 : dependent_all inst_1 lam_1 1%nat 2%nat.\n"
        "Proof. exact I. Qed.",
    ),
}


@needs_coqc
@pytest.mark.parametrize("name", sorted(REDEFINED))
def test_a_file_that_redefines_the_statement_fails_the_audit(coq, name):
    """The driver restates relation_i in absolute names
    (NNCert.meaning.compind.DependenceMeaning.dependent, dependent_all): a local definition
    := True proves another statement, and the audit refuses it."""
    req, faithful, forged = REDEFINED[name]
    c = make(req)
    text = coq_text(c)
    assert faithful in text
    fake = text.replace(faithful, forged)
    stated = coq_audit.statements(c, "Certificates.Dep_fake")
    rel = [k for k in stated if k.startswith("relation_")]
    assert rel and all(
        stated[k].startswith(
            f"{qualified(f'DependenceMeaning.{name}')} Certificates.Dep_fake.inst_"
        )
        for k in rel
    )
    v = compile_text(coq, c, fake, "Dep_fake")
    assert v.status == "failed"
