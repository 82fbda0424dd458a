"""The ResNet orbit claims cite math.md §2's fiber theorem ("degree >= 3 and no linear term after
translating the input: the generic fiber equals the orbit") only inside its hypotheses (issue
21, item 3). Outside them (an activation of degree 2, or one without a rational critical
point) the claim says the theorem does not apply and names the failing hypothesis per layer;
for sigma = t^2 the real fiber is indeed larger than the orbit. Every certificate still passes
the Python checker and coqc."""

from __future__ import annotations

import copy

import pytest
import sympy as sp

from certify.checker import check_certificate
from certify.checker.claims.resnet import fiber_theorem_failures
from certify.checker.ir import ResNet
from certify.spec import parse_rat_str
from tests.test_resnet_symmetry import certs_for

CITED = "Cited, not kernel-checked: for activations of degree >= 3"
NOT_APPLY = "does not apply, so it is not cited"


@pytest.mark.parametrize("field", ["real", "complex"])
def test_a_quadratic_activation_puts_the_orbit_claim_outside_the_fiber_theorem(field, coq):
    (cert,) = certs_for({"width": 1, "depth": 2, "activation": "t^2"},
                        {"kind": "orbit", "field": field}, {"seed": 0})  # fmt: skip
    assert cert["result"]["orbit_size"] == 4
    text = cert["claim"]["text"]
    assert CITED not in text and "generic fiber equals the orbit of this group" not in text
    assert NOT_APPLY in text
    assert "layer 0: deg sigma = 2 < 3; layer 1: deg sigma = 2 < 3" in text
    assert f"only the inclusion of this orbit in the {field} fiber is claimed" in text
    assert "For degree 2 the real fiber can be larger than the orbit" in text
    assert check_certificate(cert) == []
    assert coq.verdict(cert).status == "passed"


@pytest.mark.parametrize("act", ["t^4 + t^2", "(t-1)^4 + (t-1)^2", "t^3"])
def test_activations_of_degree_at_least_three_with_a_critical_point_cite_the_theorem(act, coq):
    field = "complex" if act == "t^3" else "real"
    (cert,) = certs_for({"width": 1, "depth": 2, "activation": act},
                        {"kind": "orbit", "field": field}, {"seed": 1})  # fmt: skip
    text = cert["claim"]["text"]
    assert CITED in text and "does not apply" not in text
    assert check_certificate(cert) == []
    assert coq.verdict(cert).status == "passed"


def test_a_layer_without_a_rational_critical_point_is_named_in_a_nontrivial_orbit_claim(coq):
    """Layer 0 (t^4 + t^2) carries the flip; layer 1 (t^3 + t, sigma' = 3 t^2 + 1 > 0) has no
    critical point at all, so the theorem's hypothesis fails there."""
    net = {"width": 1, "depth": 2, "activation": ["t^4 + t^2", "t^3 + t"]}
    (cert,) = certs_for(net, {"kind": "orbit"}, {"seed": 2})
    assert cert["result"]["orbit_size"] == 2
    text = cert["claim"]["text"]
    assert CITED not in text and NOT_APPLY in text
    assert "(layer 1: sigma has no rational critical point;" in text
    assert "For degree 2" not in text
    assert check_certificate(cert) == []
    assert coq.verdict(cert).status == "passed"


def test_a_trivial_orbit_of_a_quadratic_and_a_cubic_layer_names_only_the_quadratic_one():
    net = {"width": 1, "depth": 2, "activation": ["t^2 + t", "t^3 + t^2"]}
    (cert,) = certs_for(net, {"kind": "orbit"}, {"seed": 0})
    text = cert["claim"]["text"]
    assert NOT_APPLY in text and "(layer 0: deg sigma = 2 < 3;" in text
    assert "layer 1:" not in text.split("does not apply")[1].split("only")[0]
    assert check_certificate(cert) == []


def test_the_old_degree_three_citation_on_a_quadratic_orbit_is_rejected_by_the_checker():
    """The claim is rebuilt by the checker and compared exactly: the sentence that cited the
    theorem for sigma = t^2 no longer passes. (coqc cannot reject it: the claim is a comment in
    the Coq file, not a checked statement.)"""
    (cert,) = certs_for({"width": 1, "depth": 2, "activation": "t^2"}, {"kind": "orbit"},
                        {"seed": 0})  # fmt: skip
    bad = copy.deepcopy(cert)
    start = bad["claim"]["text"].index("The fiber theorem")
    end = bad["claim"]["text"].index("Proved in Coq (theorem f_coefficients)")
    bad["claim"]["text"] = (
        bad["claim"]["text"][:start]
        + "Cited, not kernel-checked: for activations of degree >= 3 whose translate has no "
        "linear term, the generic fiber equals the orbit of this group (math.md §2). "
        + bad["claim"]["text"][end:]
    )
    assert check_certificate(bad)


def test_fiber_theorem_failures_name_degree_and_critical_point_per_layer():
    from fractions import Fraction as F

    def rn(*acts):
        return ResNet(1, tuple(tuple(F(c) for c in a) for a in acts), False)

    assert fiber_theorem_failures(rn((0, 0, 1), (0, 0, 0, 1))) == ["layer 0: deg sigma = 2 < 3"]
    assert fiber_theorem_failures(rn((0, 1, 0, 1))) == [
        "layer 0: sigma has no rational critical point"
    ]
    assert fiber_theorem_failures(rn((0, 0, 1, 1), (0, 0, 1, 0, 1))) == []


def test_for_sigma_t_squared_the_real_fiber_at_theta_has_eight_points_against_an_orbit_of_four():
    """Why degree 2 is outside the theorem: sympy solves F_theta' = F_theta for the certified
    theta = (4, 3, -5, 2) (an independent computation) and finds 8 real solutions, while the
    certified orbit has 4 elements, all among them."""
    (cert,) = certs_for({"width": 1, "depth": 2, "activation": "t^2"}, {"kind": "orbit"},
                        {"seed": 0})  # fmt: skip
    th = [sp.Rational(str(parse_rat_str(t))) for t in cert["instance"]["theta"]]
    assert th == [4, 3, -5, 2]
    x = sp.Symbol("x")
    w1, b1, w2, b2 = sp.symbols("w1 b1 w2 b2")

    def coeffs(a, b, c, d):
        h = x + (a * x + b) ** 2
        return sp.Poly(sp.expand(h + (c * h + d) ** 2), x).all_coeffs()

    eqs = [sp.expand(p - q) for p, q in zip(coeffs(w1, b1, w2, b2), coeffs(*th))]
    sols = sp.solve(eqs, [w1, b1, w2, b2], dict=True)
    real = [s for s in sols if all(v.is_real for v in s.values())]
    assert len(real) == 8
    orbit = {tuple(sp.Rational(str(parse_rat_str(t))) for t in e) for e in cert["result"]["orbit"]}
    assert len(orbit) == cert["result"]["orbit_size"] == 4
    assert orbit <= {(s[w1], s[b1], s[w2], s[b2]) for s in real}
