"""ResNet orbits of the trivial group and the coefficients of F at width one (issue 13, item 4):
the orbit {theta} is certified (kernel-checked trivial groups, the listed orbit exactly theta),
the fiber theorem is cited apart; F_theta's coefficients are kernel-checked result fields that
agree with sympy. Tampering is rejected by the Python checker and by coqc."""

from __future__ import annotations

import copy
import json
from fractions import Fraction
from pathlib import Path

import pytest
import sympy as sp
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from certify.checker import check_certificate
from certify.checker.facts.resnet_orbit import layer_symmetry, symmetries
from certify.checker.ir import ResNet
from certify.checker.kernel import resnet as KR
from certify.spec import parse_rat_str
from tests.conftest import run_cli
from tests.test_resnet import sympy_resnet
from tests.test_resnet_symmetry import certs_for


def sympy_coefficients(cert: dict) -> list[sp.Rational]:
    """c_0, ..., c_D of F_theta with sympy (independent of the kernels and of the orbit plan)."""
    net = cert["instance"]["network"]
    th = [sp.Rational(str(parse_rat_str(t))) for t in cert["instance"]["theta"]]
    x = sp.Symbol("x")
    (F,) = sympy_resnet(net, th, (x,))
    poly = sp.Poly(sp.expand(F), x)
    D = len(cert["result"]["F_coefficients"]) - 1
    assert poly.degree() <= D
    return [poly.coeff_monomial(x**k) for k in range(D + 1)]


# ------------------------------------------------------------------- trivial groups
def expand_shifted(bs: list[int], g: int, t0: Fraction, extra: list[int]) -> list[Fraction]:
    """sum_i bs[i] (t - t0)^(g i) + sum_k extra[k] t^k as coefficients (constant first)."""
    t = sp.Symbol("t")
    r0 = sp.Rational(t0.numerator, t0.denominator)
    e = sum(b * (t - r0) ** (g * i) for i, b in enumerate(bs)) + sum(
        c * t**k for k, c in enumerate(extra)
    )
    return [Fraction(str(c)) for c in reversed(sp.Poly(sp.expand(e), t).all_coeffs())]


@settings(max_examples=150, deadline=None)
@given(
    cs=st.lists(st.integers(-4, 4), min_size=2, max_size=7).filter(lambda c: c[-1] != 0),
    den=st.integers(1, 3),
    cplx=st.booleans(),
)
def test_the_kernel_calls_a_layer_trivial_exactly_when_the_checkers_plan_finds_no_symmetry(
    cs, den, cplx
):
    """The kernel's criterion (only t0 = -a_(d-1) / (d a_d) can carry a symmetry; there the
    translate's support decides) agrees with the checker's own search over every rational
    critical point (orbits.layer_symmetry), on random activations."""
    sigma = [Fraction(c, den) for c in cs]
    s = layer_symmetry(sigma)
    has = s["t0"] is not None and (s["g"] >= 2 if cplx else s["g"] % 2 == 0)
    pairs = [(c.numerator, c.denominator) for c in sigma]
    assert KR.layer_trivial(cplx, pairs) is (not has)


@settings(max_examples=60, deadline=None)
@given(
    bs=st.lists(st.integers(-3, 3), min_size=2, max_size=3).filter(lambda b: b[-1] != 0),
    g=st.integers(2, 3),
    t0=st.fractions(min_value=-3, max_value=3, max_denominator=4),
    perturb=st.sampled_from([[], [0, 1], [0, 0, 0, 1]]),
    cplx=st.booleans(),
)
def test_activations_built_symmetric_are_never_called_trivial_and_perturbed_ones_agree(
    bs, g, t0, perturb, cplx
):
    """sigma = h((t - t0)^g) has mu_g at t0: the kernel must not call it trivial over C (nor over
    R when g is even); with a perturbation it agrees with the checker's plan."""
    sigma = expand_shifted(bs, g, t0, perturb)
    # a perturbation can cancel sigma to a constant (bs = [0, -1], g = 3, perturb t^3 gives
    # 0), which no spec admits (activations are nonconstant) and every t0 is a centre of
    assume(any(c != 0 for c in sigma[1:]))
    pairs = [(c.numerator, c.denominator) for c in sigma]
    s = layer_symmetry(sigma)
    has = s["t0"] is not None and (s["g"] >= 2 if cplx else s["g"] % 2 == 0)
    assert KR.layer_trivial(cplx, pairs) is (not has)
    if not perturb and (cplx or g % 2 == 0):
        assert has and KR.layer_trivial(cplx, pairs) is False


def test_a_high_degree_rational_activation_is_decided_quickly():
    sigma = [(k + 1, 7) for k in range(200)]  # t0 = -199/1400: unreduced rationals would explode
    assert KR.layer_trivial(True, sigma) is True


@pytest.mark.parametrize(
    "act, field", [("t^3", "real"), ("t^3 + t^2", "real"), ("t^3 + t^2", "complex")]
)
def test_a_trivial_group_is_certified_as_the_orbit_of_theta_alone(act, field, coq):
    net = {"width": 1, "depth": 2, "activation": act}
    (cert,) = certs_for(net, {"kind": "orbit", "field": field}, {"seed": 5})
    r = cert["result"]
    assert r["orbit_size"] == 1 and r["generators"] == 0
    assert r["orbit"] == [cert["instance"]["theta"]]
    assert {s["group"] for s in r["layers"]} == {"trivial"}
    assert cert["witness"]["layers"] == [] and cert["witness"]["facts"] == []
    assert check_certificate(cert) == []
    assert coq.verdict(cert).status == "passed"
    text = cert["claim"]["text"]
    kernel, cited = text.split("Cited, not kernel-checked:")
    assert "the orbit of theta is {theta}" in kernel and "math.md" not in kernel
    assert "generic fiber equals the orbit" in cited and "math.md §2" in cited
    assert f"{field} fiber is {{theta}}" in cited


def test_a_tampered_trivial_orbit_is_rejected_by_checker_and_coqc(coq):
    (cert,) = certs_for({"width": 1, "depth": 2, "activation": "t^3"}, {"kind": "orbit"},
                        {"seed": 3})  # fmt: skip
    moved = copy.deepcopy(cert)
    moved["result"]["orbit"][0][0] = str(Fraction(moved["result"]["orbit"][0][0]) + 1)
    two = copy.deepcopy(cert)
    two["result"]["orbit"].append(list(two["result"]["orbit"][0]))
    two["result"]["orbit_size"] = 2
    for bad in (moved, two):
        assert check_certificate(bad)
        assert coq.verdict(bad).status == "failed"


def test_a_symmetric_network_cannot_pass_for_a_trivial_group(coq):
    """Emptying the witness of sigma = t^4 + t^2 (group {+1,-1}^2) and listing only theta is
    rejected: the kernel finds the flip at t0 = 0."""
    (cert,) = certs_for({"width": 1, "depth": 2, "activation": "t^4 + t^2"}, {"kind": "orbit"},
                        {"seed": 1})  # fmt: skip
    fake = copy.deepcopy(cert)
    fake["witness"]["layers"], fake["witness"]["facts"] = [], []
    fake["result"].update(orbit=[fake["instance"]["theta"]], orbit_size=1, generators=0)
    fake["result"]["layers"] = [
        {"t0": s["t0"], "g": s["g"], "group": "trivial"} for s in fake["result"]["layers"]
    ]
    assert check_certificate(fake)
    assert coq.verdict(fake).status == "failed"


def test_the_cli_certifies_the_trivial_real_group_of_sigma_t_cubed(tmp_path: Path):
    spec = tmp_path / "o.json"
    net = {"family": "resnet", "width": 1, "depth": 2, "activation": "t^3"}
    spec.write_text(json.dumps({"name": "o", "network": net, "certificate": [{"kind": "orbit"}]}))
    r = run_cli("run", str(spec), "--out", str(tmp_path / "out"), "--no-coq", "--no-lean")
    assert r.returncode == 0, r.stderr
    assert "real orbit of size 1" in r.stdout


def test_without_a_rational_critical_point_the_fiber_theorem_is_not_cited():
    (cert,) = certs_for({"width": 1, "depth": 1, "activation": "t^3 + t"}, {"kind": "orbit"})
    assert cert["result"]["orbit_size"] == 1
    assert "Cited" not in cert["claim"]["text"]
    assert "is not cited" in cert["claim"]["text"]
    assert check_certificate(cert) == []


def test_the_kernel_and_the_checkers_plan_agree_on_every_layer_of_a_mixed_network():
    rn = ResNet(1, ((Fraction(0), Fraction(0), Fraction(0), Fraction(1)),
                    (Fraction(0), Fraction(0), Fraction(1))), False)  # fmt: skip
    assert [s["layer"] for s in symmetries(rn, "real")] == [1]
    acts = [[(c.numerator, c.denominator) for c in a] for a in rn.activations]
    assert [KR.layer_trivial(False, a) for a in acts] == [True, False]


# ------------------------------------------------------------ coefficients of F (width 1)
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    act=st.sampled_from(["t^2", "t^3", "t^2 + t", "t^3 + t^2", "(t-1)^4 + (t-1)^2"]),
    depth=st.sampled_from([1, 2]),
    outer=st.booleans(),
    seed=st.integers(0, 10**6),
)
def test_the_coefficients_of_f_are_result_fields_that_agree_with_sympy(act, depth, outer, seed):
    net = {"width": 1, "depth": depth, "activation": act, "outer": outer}
    for req in ({"kind": "orbit"}, {"kind": "critical"}):
        try:
            cert = certs_for(net, req, {"seed": seed})[0]
        except Exception as e:  # critical may be undecidable at a rare point; orbit never fails
            assert req["kind"] == "critical", e
            continue
        cs = cert["result"]["F_coefficients"]
        assert [sp.Rational(str(Fraction(c))) for c in cs] == sympy_coefficients(cert)
        assert check_certificate(cert) == []
        assert "F_theta(x) = " in cert["claim"]["text"]


def test_wider_networks_carry_no_coefficients():
    (cert,) = certs_for({"width": 2, "depth": 1, "activation": "t^4 + t^2"}, {"kind": "orbit"})
    assert "F_coefficients" not in cert["result"]
    bad = copy.deepcopy(cert)
    bad["result"]["F_coefficients"] = ["0"]
    assert check_certificate(bad)


@pytest.mark.parametrize(
    "net, req",
    [
        ({"width": 1, "depth": 2, "activation": "t^3"}, {"kind": "orbit"}),
        ({"width": 1, "depth": 2, "activation": "t^4 + t^2"}, {"kind": "orbit"}),
        ({"width": 1, "depth": 2, "activation": "t^3"}, {"kind": "orbit", "field": "complex"}),
        ({"width": 1, "depth": 2, "activation": "t^2"}, {"kind": "critical"}),
        (
            {"width": 1, "depth": 2, "activation": "t^2"},
            {"kind": "implicit", "equation": "c3^3 - 4*c2*c3*c4 + 8*c4^2", "bias": False},
        ),
    ],
)
def test_a_changed_coefficient_of_f_is_rejected_by_checker_and_coqc(net, req, coq):
    cert = certs_for(net, req, {"seed": 2})[0]
    assert coq.verdict(cert).status == "passed"
    for k in (0, len(cert["result"]["F_coefficients"]) - 1):
        bad = copy.deepcopy(cert)
        bad["result"]["F_coefficients"][k] = str(Fraction(bad["result"]["F_coefficients"][k]) + 1)
        assert check_certificate(bad)
        assert coq.verdict(bad).status == "failed"
    short = copy.deepcopy(cert)
    short["result"]["F_coefficients"].pop()
    assert check_certificate(short)
    assert coq.verdict(short).status == "failed"
