"""The critical locus of a scalar ResNet as a kernel-checked certificate (issue 21, item 4).

For sigma = t^2 + t in both layers of x + sigma(w x + b), theta = (1, 0, 1, 1/4): the kernel
recomputes the Jacobian of theta -> (c_0, ..., c_4) as polynomials, all five 4x4 minors, and
checks M_i = Q_i P and sum_i c_i M_i = lam P^k. Honest certificates pass the Python checker and
coqc; tampered ones (cofactor, Bezout coefficient, polynomial, a dropped minor) fail both."""

from __future__ import annotations

import copy
import json
from fractions import Fraction
from pathlib import Path

import pytest
import sympy as sp

from certify.checker import check_certificate
from certify.checker.kernel import resnet as KR
from certify.families import generate_certificates
from certify.render import literals as L
from certify.spec import parse_spec

EXAMPLE = (
    Path(__file__).resolve().parents[1] / "certify/examples/resnet-critical-locus-certified.toml"
)
INST = KR.ResNetInstance(1, [[(0, 1), (1, 1), (1, 1)]] * 2, False, [(1, 1), (0, 1), (1, 1), (1, 4)])


def spec_data(locus: bool = True) -> dict:
    return {
        "name": "loc",
        "network": {"family": "resnet", "width": 1, "depth": 2, "activation": "t^2 + t"},
        "parameters": {"weights": [[[1]], [[1]]], "biases": [[0], ["1/4"]]},
        "certificate": [{"kind": "critical", "name": "loc", "locus": locus}],
    }


def generate() -> list[dict]:
    spec = parse_spec(spec_data(), "<test>")
    return generate_certificates(spec, spec.certificates[0])


@pytest.fixture(scope="module")
def certs() -> list[dict]:
    return generate()


def test_the_example_spec_asks_for_the_locus():
    assert "locus = true" in EXAMPLE.read_text()


def test_the_locus_certificate_is_accepted_by_the_python_checker(certs):
    crit = certs[0]
    assert check_certificate(crit) == []
    loc = crit["result"]["critical_locus"]
    assert loc["minors"] == 5 and loc["minor_size"] == 4 and loc["value_at_theta"] == "0"
    assert "M_i = Q_i P" in crit["claim"]["text"]
    assert (
        "Cited, not kernel-checked: rank J < 4 iff all 4x4 minors vanish" in crit["claim"]["text"]
    )


def test_the_locus_is_the_known_quadratic_locus_up_to_a_constant(certs):
    w1, b1, w2, b2 = sp.symbols("w1 b1 w2 b2")
    terms = certs[0]["witness"]["locus"]["polynomial"]
    P = sum(sp.Rational(c) * w1 ** e[0] * b1 ** e[1] * w2 ** e[2] * b2 ** e[3] for c, e in terms)
    known = w1 * w2 * (4 * (b2 * w1 - b1 * w2) - w1 * w2 + 2 * (w1 - w2))  # a=1, b=1, c=0
    assert sp.simplify(P / known).is_constant()


def test_the_locus_vanishes_exactly_where_the_kernel_minors_all_vanish(certs):
    loc = certs[0]["witness"]["locus"]
    terms = [((Fraction(c).numerator, Fraction(c).denominator), e) for c, e in loc["polynomial"]]
    ms = KR.all_minors(4, 4, KR.jacobian_terms(INST))

    def ev(ts, th):
        return sum(
            Fraction(a, b) * th[0] ** e[0] * th[1] ** e[1] * th[2] ** e[2] * th[3] ** e[3]
            for (a, b), e in ts
        )

    for th in [(1, 0, 1, Fraction(1, 4)), (2, 1, 3, 5), (0, 7, 1, 1), (1, 1, 1, 1), (3, -2, 0, 4)]:
        th = [Fraction(t) for t in th]
        assert (ev(terms, th) == 0) == all(ev(m, th) == 0 for m in ms)


def tampered(cert: dict, how: str) -> dict:
    bad = copy.deepcopy(cert)
    loc = bad["witness"]["locus"]
    if how == "cofactor":
        loc["cofactors"][1][0][0] = str(Fraction(loc["cofactors"][1][0][0]) + 1)
    elif how == "bezout":
        loc["bezout"][1][0][0] = str(Fraction(loc["bezout"][1][0][0]) + 1)
    elif how == "polynomial":
        loc["polynomial"][0][0] = str(Fraction(loc["polynomial"][0][0]) * 2)
    elif how == "dropped-minor":
        loc["cofactors"].pop()
        loc["bezout"].pop()
    elif how == "value":
        loc["value"] = "1"
    return bad


HOW = ["cofactor", "bezout", "polynomial", "dropped-minor", "value"]


@pytest.mark.parametrize("how", HOW)
def test_a_tampered_locus_is_rejected_by_the_python_checker(certs, how):
    assert check_certificate(tampered(certs[0], how))


@pytest.mark.parametrize("how", HOW)
def test_a_tampered_locus_is_rejected_by_the_kernel_twin(certs, how):
    loc = tampered(certs[0], how)["witness"]["locus"]

    def terms(ts):
        return [((Fraction(c).numerator, Fraction(c).denominator), e) for c, e in ts]

    v = Fraction(loc["value"])
    assert not KR.check_critical_locus(
        INST, loc["g"], terms(loc["polynomial"]), loc["power"], loc["scale"],
        [terms(t) for t in loc["cofactors"]], [terms(t) for t in loc["bezout"]],
        (v.numerator, v.denominator),
    )  # fmt: skip


def test_the_locus_certificate_passes_coqc(certs, coq):
    v = coq.verdict(certs[0])
    assert v.status == "passed", v.message


@pytest.mark.parametrize("how", ["cofactor", "bezout", "polynomial", "dropped-minor"])
def test_a_tampered_locus_is_rejected_by_coqc(certs, coq, how):
    v = coq.verdict(tampered(certs[0], how))
    assert v.status == "failed", v.message


def test_the_locus_is_opt_in_and_absent_by_default():
    spec = parse_spec(spec_data(locus=False), "<test>")
    crit = generate_certificates(spec, spec.certificates[0])[0]
    assert "locus" not in crit["witness"] and "critical_locus" not in crit["result"]


def test_a_non_boolean_locus_option_is_a_spec_error():
    from certify.errors import SpecError

    data = spec_data()
    data["certificate"][0]["locus"] = "yes"
    with pytest.raises(SpecError, match="locus"):
        parse_spec(data, "<test>")


def test_generation_and_rendering_are_deterministic(certs):
    from certify.bundle import render_certificate

    again = generate()
    assert json.dumps(again, sort_keys=True) == json.dumps(certs, sort_keys=True)
    a, b = render_certificate(certs[0]), render_certificate(again[0])
    assert a.coq_text == b.coq_text and a.lean_text == b.lean_text


def coq_poly(ts: list) -> str:
    return "[" + "; ".join(f"({L.coq(c)}, {L.coq(list(e), nat=True)})" for c, e in ts) + "]"


def test_the_python_twin_agrees_with_the_coq_kernel_on_the_jacobian_and_minors(coq_project):
    import subprocess

    J = KR.jacobian_terms(INST)
    ms = KR.all_minors(4, 4, J)
    jac = "[" + "; ".join("[" + "; ".join(coq_poly(e) for e in row) + "]" for row in J) + "]"
    mins = "[" + "; ".join(coq_poly(m) for m in ms) + "]"
    d = KR.det_terms(2, 2, [[J[1][0], J[1][1]], [J[2][0], J[2][1]]])
    sub = KR.subsets(2, [0, 1, 2, 3])
    text = f"""From Coq Require Import ZArith List.
From NNCert Require Import Lists Arith Net Rank Compind ResNet.
Import ListNotations.
Open Scope Z_scope.
Definition inst : resnet_instance := {{| rn_width := 1%nat;
  rn_acts := [[(0, 1); (1, 1); (1, 1)]; [(0, 1); (1, 1); (1, 1)]]; rn_outer := false;
  rn_theta := [(1, 1); (0, 1); (1, 1); (1, 4)] |}}.
Lemma jac : jacobian_terms inst = {jac}.
Proof. vm_compute. reflexivity. Qed.
Lemma mins : all_minors 4 4 (jacobian_terms inst) = {mins}.
Proof. vm_compute. reflexivity. Qed.
Lemma det2 : det_terms 2 2 (submatrix [1; 2]%nat [0; 1]%nat (jacobian_terms inst)) = {coq_poly(d)}.
Proof. vm_compute. reflexivity. Qed.
Lemma subs : subsets 2 [0; 1; 2; 3]%nat = {L.coq(sub, nat=True)}.
Proof. vm_compute. reflexivity. Qed.
"""
    path = coq_project / "Certificates" / "LocusTwins.v"
    path.write_text(text)
    r = subprocess.run(
        ["coqc", "-q", "-R", "NNCert", "NNCert", "-R", "Certificates", "Certificates",
         "Certificates/LocusTwins.v"],
        cwd=coq_project, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert r.returncode == 0, r.stdout + r.stderr


@pytest.mark.parametrize("how", ["zero-term", "swapped-terms", "zero-polynomial-spelled-out"])
def test_a_polynomial_has_one_spelling_so_a_respelled_witness_is_rejected(certs, how):
    """Canonical terms (nonzero coefficients, exponents strictly decreasing): a respelling
    of the same polynomial would be a field that changes without changing any meaning."""
    bad = copy.deepcopy(certs[0])
    loc = bad["witness"]["locus"]
    n = len(loc["polynomial"][0][1])
    if how == "zero-term":
        loc["polynomial"].append(["0", [0] * n])
    elif how == "swapped-terms":
        loc["cofactors"][0][:2] = loc["cofactors"][0][1::-1]
    else:
        assert [] in loc["bezout"]  # the zero Bezout coefficient is written as []
        loc["bezout"][loc["bezout"].index([])] = [["0", [1] + [0] * (n - 1)]]
    problems = check_certificate(bad)
    assert problems and "expected nonzero terms, exponents strictly decreasing" in problems[0]


def test_the_lean_locus_certificate_reads_back_to_data_the_kernel_twin_accepts(certs):
    """The Lean file states `checkCriticalLocus` with its explicit arity on literals that read
    back to a locus the Python twin accepts; no forbidden token, no layout hazard."""
    import re

    from certify.bundle import render_certificate
    from tests.test_lean_library import FORBIDDEN, _layout_problems, read_literal
    from tests.test_lean_resnet import assert_theorems_call_the_library_with_its_arity

    text = render_certificate(certs[0]).lean_text
    assert_theorems_call_the_library_with_its_arity(text)
    assert "theorem critical_locus : NNCert.checkCriticalLocus inst locus_g" in text
    assert not _layout_problems(text)
    assert not [line for line in text.splitlines() for pat, _ in FORBIDDEN if re.search(pat, line)]

    def literal(name: str):
        [src] = re.findall(rf"^def {name} : [^\n]*:=\n  (.*?)\n\n", text, re.M | re.S)
        return read_literal(src)

    def terms(ts):
        return [(tuple(c), list(e)) for c, e in ts]

    args = (literal("locus_g"), terms(literal("locus_p")), literal("locus_k"),
            literal("locus_lam"), [terms(t) for t in literal("locus_cofs")],
            [terms(t) for t in literal("locus_bez")], tuple(literal("locus_value")))  # fmt: skip
    assert KR.check_critical_locus(INST, *args) is True
    assert KR.check_critical_locus(INST, args[0], args[1], args[2], args[3] + 1, *args[4:]) is False
