"""ResNet critical points (issue 13, item 4): the Python-computed critical-locus diagnostic is
reported only where its formula holds (w1 w2 (b2 w1 - b1 w2) for sigma = a t^2; the general
quadratic locus otherwise, derived here with sympy) and labelled as not kernel-checked; the
claims name the rank at theta as a rank at a point, never as the functional dimension."""

from __future__ import annotations

from fractions import Fraction

import sympy as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sympy.polys.matrices import DomainMatrix

from certify.checker import check_certificate, cross_check
from certify.checker.claims.resnet import PYTHON_ONLY, quadratic_locus
from certify.families import generate_certificates
from certify.spec import parse_rat_str, parse_spec


def certs_for(net: dict, params: dict) -> list[dict]:
    data = {"name": "c", "network": {"family": "resnet", **net}, "parameters": params,
            "certificate": [{"kind": "critical"}]}  # fmt: skip
    spec = parse_spec(data, "<test>")
    return generate_certificates(spec, spec.certificates[0])


def test_the_quadratic_locus_is_the_gcd_of_the_jacobian_minors():
    """For sigma = a t^2 + b t + c in both layers the 4x4 minors of the Jacobian of
    theta -> (c_0, ..., c_4) have gcd 4 a^4 w1 w2 Q, Q the inner factor of quadratic_locus, and
    one minor is a monomial times a power of w1 w2: their common zeros are exactly Q w1 w2 = 0."""
    x, w1, b1, w2, b2, a, b, c = sp.symbols("x w1 b1 w2 b2 a b c")

    def sig(t):
        return a * t**2 + b * t + c

    h = x + sig(w1 * x + b1)
    F = sp.expand(h + sig(w2 * h + b2))
    J = sp.Matrix([[sp.diff(F.coeff(x, k), v) for v in (w1, b1, w2, b2)] for k in range(5)])
    # determinants over the polynomial ring ZZ[w1, b1, w2, b2, a, b, c] (DomainMatrix): exact
    # like Matrix.det, but 0.2 s instead of about 100 s
    ring = sp.ZZ[w1, b1, w2, b2, a, b, c]
    minors = [
        ring.to_sympy(
            DomainMatrix.from_Matrix(J.extract([i for i in range(5) if i != r], [0, 1, 2, 3]))
            .convert_to(ring)
            .det()
        )
        for r in range(5)
    ]
    g = sp.gcd_list([sp.expand(m) for m in minors if sp.expand(m) != 0])
    q = quadratic_locus((c, b, a), [w1, b1, w2, b2])
    assert sp.simplify(sp.factor(g) / sp.factor(q)).free_symbols <= {a}
    monomial = sp.factor(sp.expand(minors[1]) / g)
    assert monomial.free_symbols <= {a, w1, w2}


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    w1=st.integers(1, 3), b1=st.integers(-2, 2), w2=st.integers(-3, 3).filter(bool),
    on_locus=st.booleans(),
)  # fmt: skip
def test_for_sigma_t_squared_plus_t_the_reported_locus_vanishes_exactly_at_critical_points(
    w1, b1, w2, on_locus
):
    """sigma = t^2 + t (a = b = 1, c = 0): b2 solving Q = 0 gives a critical point with
    w1 w2 != 0; b2 off it gives a regular one. The certified decision matches the locus."""
    w1f, b1f, w2f = Fraction(w1), Fraction(b1), Fraction(w2)
    b2 = (4 * b1f * w2f + w1f * w2f - 2 * (w1f - w2f)) / (4 * w1f)  # Q = 0
    if not on_locus:
        b2 += 1
    params = {"weights": [[[w1]], [[w2]]], "biases": [[b1], [str(b2)]]}
    certs = certs_for({"width": 1, "depth": 2, "activation": "t^2 + t"}, params)
    assert [check_certificate(c) for c in certs] == [[]] * len(certs) and cross_check(certs) == {}
    r = certs[0]["result"]
    py = r["diagnostics"]["python_computed"]
    assert "w1_w2_(b2_w1-b1_w2)" not in py  # math.md's formula is for sigma = a t^2 only
    assert py["checked_by"] == PYTHON_ONLY
    assert r["critical"] is on_locus
    assert (parse_rat_str(py["critical_locus_value"]) == 0) is on_locus


def test_the_math_md_locus_is_reported_only_for_sigma_a_t_squared():
    params = {"weights": [[[1]], [[2]]], "biases": [[1], [2]]}
    (crit, *_) = certs_for({"width": 1, "depth": 2, "activation": "3*t^2"}, params)
    assert "w1_w2_(b2_w1-b1_w2)" in crit["result"]["diagnostics"]["python_computed"]
    for act in ("t^3 + t^2", "t^4 + t^2"):
        (crit, *_) = certs_for({"width": 1, "depth": 2, "activation": act}, params)
        py = crit["result"]["diagnostics"]["python_computed"]
        assert "w1_w2_(b2_w1-b1_w2)" not in py and "critical_locus" not in py
        assert f"{PYTHON_ONLY}: w1 w2 = 2" in crit["claim"]["text"]


def test_a_tampered_python_computed_diagnostic_is_rejected_by_the_checker():
    params = {"weights": [[[1]], [[1]]], "biases": [[0], ["1/4"]]}
    (crit, *_) = certs_for({"width": 1, "depth": 2, "activation": "t^2 + t"}, params)
    bad = {**crit, "result": {**crit["result"], "diagnostics": {
        **crit["result"]["diagnostics"],
        "python_computed": {**crit["result"]["diagnostics"]["python_computed"],
                            "critical_locus_value": "24"}}}}  # fmt: skip
    assert check_certificate(bad)


def test_claims_at_a_critical_point_name_the_rank_at_theta_as_a_rank_not_the_dimension():
    params = {"weights": [[[0]], [[1]]], "biases": [[1], [2]]}
    crit, at, _generic = certs_for({"width": 1, "depth": 2, "activation": "t^2"}, params)
    assert "(a rank at this point, not the functional dimension" in crit["claim"]["text"]
    assert "the generic rank (the functional dimension, >= 4)" in crit["claim"]["text"]
    text = at["claim"]["text"]
    assert "Hence the rank of the Jacobian at theta is exactly 3 (a rank at this point, not the " \
        "functional dimension)." in text  # fmt: skip
    assert "rank of the parametrisation at theta is exactly" not in text
