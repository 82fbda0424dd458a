"""The scalar ResNet theorems of NNCert/meaning/resnet/ScalarMeaning.v.

- f_coefficients: F_theta(x) = sum_k c_k x^k at every rational x, F_theta Jacobian.v's forward
  evaluator over Coq's Q. The kernel's check_scalar_coeffs (F_theta minus that polynomial is
  zero) is compared with sympy's expansion on random networks; forged coefficients are
  rejected by the Python checker and by coqc in every kind that carries them (orbit, critical,
  implicit); the statement has content (Coq refutes it for wrong coefficients); a file that
  redefines the check and the statement passes coqc alone but fails the audit.
- image_in_hypersurface: at every rational parameter vector that is 0 where not free, the
  coefficients of F satisfy the implicit equation. The kernel now also checks that F minus its
  expansion in x is zero, so an equation certified "up to a degree too low" (which the theorem
  would turn into a false statement) fails the kernel and coqc; the audit states the theorem.
"""

from __future__ import annotations

import copy
import random
from fractions import Fraction

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from certify.bundle import render_certificate
from certify.checker import check_certificate
from certify.checker.check.rank import decode_instance
from certify.checker.kernel import resnet as KR
from certify.families import generate_certificates
from certify.provers import coq as coqp
from certify.provers import coq_audit
from certify.spec import parse_spec
from tests.test_resnet_orbit_theorem import sympy_map

needs_coqc = pytest.mark.skipif(coqp.coqc_path() is None, reason="coqc not installed")
THEOREM = "Proof. exact (scalar_coeffs_meaning inst f_coeffs coefficients). Qed."


def cert_of(kind: dict, act: str = "t^2", seed: int = 0, depth: int = 2) -> dict:
    data = {
        "name": "coef",
        "network": {"family": "resnet", "width": 1, "depth": depth, "activation": act},
        "parameters": {"seed": seed},
        "certificate": [{"name": "coef", **kind}],
    }
    spec = parse_spec(data, "<test>")
    return generate_certificates(spec, spec.certificates[0])[0]


KINDS = {  # one certificate of every kind that carries F_coefficients
    "orbit": lambda: cert_of({"kind": "orbit"}, "t^3"),
    "critical": lambda: cert_of({"kind": "critical"}),
    "implicit": lambda: cert_of(
        {"kind": "implicit", "equation": "c3^3 - 4*c2*c3*c4 + 8*c4^2", "bias": False}
    ),
}


def pairs(cs: list[str]) -> list[tuple[int, int]]:
    return [(Fraction(c).numerator, Fraction(c).denominator) for c in cs]


@settings(max_examples=15, deadline=None)
@given(
    act=st.sampled_from(("t^2", "t^3", "t^2 - t", "2*t^3 + t/3", "(t-1)^4 + (t-1)^2")),
    depth=st.integers(1, 2),
    seed=st.integers(0, 10**6),
    which=st.integers(0, 10**6),
)
def test_the_kernel_accepts_exactly_the_coefficients_sympy_expands(act, depth, seed, which):
    cert = cert_of({"kind": "orbit"}, act, seed, depth)
    inst = decode_instance(cert)
    theta = [Fraction(a, b) for a, b in inst.theta]
    (f,) = sympy_map(cert, theta)
    x = sympy.Symbol("x0")
    degree = KR.degree_bound(inst.acts)
    want = [sympy.Poly(f, x).coeff_monomial(x**k) for k in range(degree + 1)]
    cs = [(int(sympy.fraction(c)[0]), int(sympy.fraction(c)[1])) for c in want]
    assert KR.check_scalar_coeffs(inst, cs)
    assert pairs(cert["result"]["F_coefficients"]) == [
        (Fraction(a, b).numerator, Fraction(a, b).denominator) for a, b in cs
    ]
    k = random.Random(which).randrange(len(cs))
    moved = list(cs)
    moved[k] = (moved[k][0] + moved[k][1], moved[k][1])  # c_k + 1
    assert not KR.check_scalar_coeffs(inst, moved)
    assert not KR.check_scalar_coeffs(inst, cs[:-1])  # c_D left out
    assert not KR.check_scalar_coeffs(inst, [*cs, (0, 1)])  # one coefficient too many


def forged(kind: str) -> dict:
    """The certificate of `kind` with c_1 + 1 in F_coefficients and nothing else changed."""
    bad = copy.deepcopy(KINDS[kind]())
    cs = bad["result"]["F_coefficients"]
    cs[1] = str(Fraction(cs[1]) + 1)
    return bad


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_the_checker_rejects_forged_coefficients(kind):
    assert check_certificate(KINDS[kind]()) == []
    assert check_certificate(forged(kind))


@needs_coqc
@pytest.mark.parametrize("kind", sorted(KINDS))
def test_coqc_proves_f_coefficients_and_rejects_forged_coefficients(kind, coq):
    cert = KINDS[kind]()
    text = render_certificate(cert).coq_text
    assert "Theorem f_coefficients : scalar_coeffs inst f_coeffs." in text and THEOREM in text
    assert coq.verdict(cert).status == "passed"
    got = coq.verdict(forged(kind))
    assert got.status == "failed" and "check_scalar_coeffs inst f_coeffs = true" in got.message


@needs_coqc
def test_coq_refutes_the_statement_for_wrong_coefficients(coq):
    """scalar_coeffs is not vacuous: for c_0 + 1 Coq proves its negation (F_theta(0) = c_0)."""
    cert = KINDS["orbit"]()
    rendered = render_certificate(cert)
    cs = pairs(cert["result"]["F_coefficients"])
    cs[0] = (cs[0][0] + cs[0][1], cs[0][1])
    lit = "[" + "; ".join(f"({a}, {b})" for a, b in cs) + "]"
    text = rendered.coq_text + (
        f"\nDefinition bad_coeffs : list (Z * Z) := {lit}.\n"
        "Lemma refuted : ~ scalar_coeffs inst bad_coeffs.\n"
        "Proof.\n  intros [_ [_ H]]. specialize (H (QArith_base.inject_Z 0)). vm_compute in H.\n"
        "  inversion H as [| a b l l' Hab _]. vm_compute in Hab. discriminate Hab.\nQed.\n"
    )
    rel = f"Certificates/{rendered.module}_refuted.v"
    (coq.proj / rel).write_text(text)
    got = coqp.check_file(coq.proj, rel, 600)
    assert got.status == "passed", got.message


@needs_coqc
def test_a_local_redefinition_of_the_check_and_the_statement_fails_the_audit(coq):
    """Forged coefficients, check_scalar_coeffs and scalar_coeffs redefined in the file as
    `true` and `True`: coqc alone accepts the file; the audit, which states f_coefficients
    with the library's scalar_coeffs in absolute names, does not."""
    cert = forged("orbit")
    rendered = render_certificate(cert)
    module = f"{rendered.module}_redefined"
    text = rendered.coq_text
    thms = coq_audit.theorems_of(cert, module, text)
    assert any(t.name == "f_coefficients" and t.statement for t in thms)
    text = text.replace(
        "Lemma coefficients",
        "Definition check_scalar_coeffs (i : resnet_instance) (c : list (Z * Z)) : bool"
        " := true.\nLemma coefficients",
    )
    text = text.replace(
        "Theorem f_coefficients",
        "Definition scalar_coeffs (i : resnet_instance) (c : list (Z * Z)) : Prop := True.\n"
        "Theorem f_coefficients",
    ).replace(THEOREM, "Proof. exact I. Qed.")
    audited = coq.audit_alone_rejects(module, text, thms)
    assert "not the expected statement" in audited.message, audited.message


# ------------------------------------------------------------------ implicit equations
def implicit_args(cert: dict) -> tuple:
    w = cert["witness"]
    eq = [(pairs([c])[0], list(e)) for c, e in w["equation"]]
    return decode_instance(cert), list(w["free"]), int(w["degree"]), eq


def test_the_kernel_rejects_an_equation_certified_below_the_degree_of_f():
    """Figure 1 (bias-free, F of degree 4): c0 = 0 holds, with degree 4. With degree 3 the
    coefficients c0..c3 would also "satisfy" c0 = 0, but F is not c0 + ... + c3 x^3; the
    expansion check rejects it (before it, the kernel accepted it)."""
    inst, free, degree, _ = implicit_args(KINDS["implicit"]())
    assert degree == 4
    assert KR.check_implicit(inst, free, 4, [((1, 1), [1, 0, 0, 0, 0])])
    assert not KR.check_implicit(inst, free, 3, [((1, 1), [1, 0, 0, 0])])


@needs_coqc
def test_coqc_proves_image_in_hypersurface_and_rejects_a_degree_too_low(coq):
    cert = KINDS["implicit"]()
    rendered = render_certificate(cert)
    text = rendered.coq_text
    assert "Theorem image_in_hypersurface : implicit_equation inst free degree eqn." in text
    thms = {t.name: t.statement for t in coq_audit.theorems_of(cert, "M", text)}
    assert thms["image_in_hypersurface"].endswith(
        ".implicit_equation Certificates.M.inst Certificates.M.free Certificates.M.degree "
        "Certificates.M.eqn"
    )
    assert coq.verdict(cert).status == "passed"
    low = text.replace("Definition degree : nat := 4%nat.", "Definition degree : nat := 3%nat.")
    start = low.index("Definition eqn")
    end = low.index("\n", start)
    low = (
        low[:start]
        + "Definition eqn : list ((Z * Z) * list nat) := [((1, 1), ([1; 0; 0; 0])%nat)]."
        + low[end:]
    )
    rel = f"Certificates/{rendered.module}_low.v"
    (coq.proj / rel).write_text(low)
    got = coqp.check_file(coq.proj, rel, 600)
    assert got.status == "failed" and "check_implicit inst free degree eqn = true" in got.message


@needs_coqc
def test_a_local_redefinition_of_the_implicit_statement_fails_the_audit(coq):
    cert = KINDS["implicit"]()
    rendered = render_certificate(cert)
    module = f"{rendered.module}_weak"
    text = rendered.coq_text
    thms = coq_audit.theorems_of(cert, module, text)
    text = text.replace(
        "Theorem image_in_hypersurface",
        "Definition implicit_equation (i : resnet_instance) (f : list bool) (d : nat)"
        " (e : list ((Z * Z) * list nat)) : Prop := True.\nTheorem image_in_hypersurface",
    ).replace(
        "Proof. exact (implicit_meaning inst free degree eqn implicit_check). Qed.",
        "Proof. exact I. Qed.",
    )
    audited = coq.audit_alone_rejects(module, text, thms)
    assert "not the expected statement" in audited.message, audited.message
