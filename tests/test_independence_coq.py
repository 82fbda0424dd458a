"""Composition-independence facts end in a theorem over Q (issue 24): `independent inst` of
coq/NNCert/meaning/compind/IndependenceMeaning.v (a combination of the family's functions, 1
first with biases, then sigma(p_i), that vanishes at every point of Q^n has every coefficient
0), derived from the kernel's check (M W = I mod p at integer points) by one `exact`. Every
test here runs coqc or the checker."""

from __future__ import annotations

import copy

import pytest
from hypothesis import HealthCheck, assume, given, settings
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

needs_coqc = pytest.mark.skipif(coqp.coqc_path() is None, reason="coqc not installed")

BIVARIATE = {"kind": "compind", "variables": ["x", "y"], "activation": "z^3 - 2*z + 1",
             "polynomials": ["x^2 + y", "x*y - y^2", "x + y^3/2"], "bias": True}  # fmt: skip
NEWMAN = {"kind": "newman-slater", "power": 4, "variables": ["x", "y"],
          "polynomials": ["x + y", "x - y", "2*x + 3*y"]}  # fmt: skip


def make(req: dict) -> dict:
    spec = parse_spec({"name": "indep", "certificate": [req]}, "<test>")
    return generate_certificate(spec, spec.certificates[0])


def independent_facts(cert: dict) -> list[int]:
    return [i for i, f in enumerate(cert["witness"]["facts"]) if f["kind"] == "independent"]


@needs_coqc
@pytest.mark.parametrize("req", [BIVARIATE, NEWMAN], ids=["compind", "newman-slater"])
def test_an_independence_fact_ends_in_its_theorem_over_q_and_coqc_proves_it(req, coq):
    c = make(req)
    assert c["result"]["status"] == "independent"
    text = coq_text(c)
    facts = independent_facts(c)
    assert facts
    for i in facts:
        assert f"Theorem independent_{i} : independent inst_{i}." in text
        assert f"(* audited: independent_{i} *)" in text
        assert f"theorem independent_{i} of the Coq file" in c["claim"]["text"]
        assert f"theorem `independent_{i}`" in render_files(c, certificate.sha256(c))[3]
    last = [ln for ln in text.splitlines() if ln.startswith(("Lemma ", "Theorem "))][-1]
    assert last.startswith("Theorem independent_")
    v = coq.verdict(c)
    assert v.status == "passed", v.message


# Random independent families: distinct nonzero multiples c_i * x of one variable under a sigma
# of degree d with sigma(0) = 0 and every coefficient nonzero (k <= d of them: a Vandermonde
# matrix); the generator decides, and only its independent results are kept.
@needs_coqc
@settings(
    max_examples=5, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(d=st.integers(2, 4), data=st.data())
def test_random_independent_families_end_in_a_theorem_coqc_proves(coq, d, data):
    k = data.draw(st.integers(2, d))
    mults = data.draw(st.lists(st.integers(-5, 5).filter(bool), min_size=k, max_size=k,
                               unique=True))  # fmt: skip
    coeffs = data.draw(st.lists(st.integers(-4, 4).filter(bool), min_size=d, max_size=d))
    sigma = " + ".join(f"({a})*z^{j + 1}" for j, a in enumerate(coeffs))
    c = make({"kind": "compind", "variables": ["x"], "activation": sigma,
              "polynomials": [f"({m})*x" for m in mults]})  # fmt: skip
    assume(c["result"]["status"] == "independent")
    assert check_certificate(c) == []
    assert "Theorem independent_0 : independent inst_0." in coq_text(c)
    v = coq.verdict(c)
    assert v.status == "passed", v.message


@needs_coqc
def test_a_tampered_inverse_is_rejected_by_the_checker_and_by_coqc(coq):
    c = make(BIVARIATE)
    bad = copy.deepcopy(c)
    inv = bad["witness"]["facts"][0]["inverse"]
    inv[0][0] = (inv[0][0] + 1) % bad["witness"]["facts"][0]["prime"]
    assert check_certificate(bad) != []
    text = coq_text(bad)
    assert text != coq_text(c)
    v = compile_text(coq, c, text, "Indep_tampered_inverse")
    assert v.status == "failed"


@needs_coqc
def test_the_statement_has_teeth_a_nonzero_combination_does_not_vanish(coq):
    """`independent` is not vacuous: from independent_0, Coq derives that the combination with
    coefficient 1 on the first function and 0 elsewhere does not vanish on Q^n."""
    c = make(BIVARIATE)
    k = c["result"]["k"]
    coeffs = "; ".join(["1"] + ["0"] * (k - 1))
    text = coq_text(c) + (
        "\nFrom mathcomp Require Import ssreflect ssrfun ssrbool eqtype seq ssralg rat.\n"
        "Import GRing.Theory.\nLocal Open Scope ring_scope.\n"
        f"Lemma teeth : ~ (forall x : list rat, size x = nvars ->\n"
        f"  lin_comb [:: {coeffs}] (family inst_0) x = 0).\n"
        f"Proof.\n  move=> H. have := independent_0 [:: {coeffs}] erefl H 0%nat.\n"
        "  by move=> /eqP; rewrite oner_eq0.\nQed.\n"
    )
    v = compile_text(coq, c, text, "Indep_teeth")
    assert v.status == "passed", v.message


@needs_coqc
def test_a_file_that_redefines_the_statement_fails_the_audit(coq):
    """The driver restates independent_i in absolute names
    (NNCert.meaning.compind.IndependenceMeaning.independent): a local definition := True
    proves another statement, and the audit refuses it."""
    c = make(BIVARIATE)
    text = coq_text(c)
    faithful = (
        "Theorem independent_0 : independent inst_0.\n"
        "Proof. exact (independent_meaning _ _ _ fact_0). Qed."
    )
    assert faithful in text
    forged = (
        "Definition independent (i : compind_instance) : Prop := True.\n"
        "Theorem independent_0 : independent inst_0.\nProof. exact I. Qed."
    )
    stated = coq_audit.statements(c, "Certificates.Indep_fake")
    assert stated["independent_0"] == (
        f"{qualified('IndependenceMeaning.independent')} Certificates.Indep_fake.inst_0"
    )
    v = compile_text(coq, c, text.replace(faithful, forged), "Indep_fake")
    assert v.status == "failed" and "not the expected statement" in v.message, v.message
