"""Property tests: the certified rank is the exact rank of the parametrisation's Jacobian
at the certificate's point, computed independently (sympy differentiation of the output
polynomial's coefficients, flint's exact rank over Q)."""

from __future__ import annotations

from fractions import Fraction

import sympy as sp
from flint import fmpq, fmpq_mat
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from certify.checker import check_certificate
from certify.spec import parse_rat_str
from tests.conftest import make_cert


def _q(x) -> fmpq:
    f = Fraction(str(x))
    return fmpq(f.numerator, f.denominator)


def _outputs(widths, acts, bias, theta, xs) -> list:
    """f_theta(x) by sympy, theta a list of sympy numbers or expressions."""
    h: list = list(xs)
    pos = 0
    for ell in range(len(widths) - 1):
        pre = []
        for _ in range(widths[ell + 1]):
            v = sum(theta[pos + j] * h[j] for j in range(widths[ell]))
            pos += widths[ell]
            if bias:
                v += theta[pos]
                pos += 1
            pre.append(v)
        if ell == len(widths) - 2:
            h = pre
        else:
            cs = acts[ell]
            h = [sum(sp.Rational(c.numerator, c.denominator) * a**k for k, c in enumerate(cs))
                 for a in pre]  # fmt: skip
    return h


def exact_rank_at_point(cert) -> int:
    """The rank over Q of the Jacobian of theta -> (coefficients of f_theta in x) at theta, by
    sympy alone: column j is d/dt at t = 0 of f at theta + t e_j, i.e. the coefficient of t in
    the expansion of each output in (x, t), grouped by x-monomial (one small expansion per
    parameter instead of one polynomial in x and every parameter at once)."""
    net = cert["instance"]["network"]
    widths, bias = net["widths"], net["bias"]
    acts = [[parse_rat_str(c) for c in a] for a in net["activations"]]
    theta = [parse_rat_str(t) for t in cert["instance"]["theta"]]
    xs = sp.symbols(f"x0:{widths[0]}")
    t = sp.Symbol("t")
    point = [sp.Rational(v.numerator, v.denominator) for v in theta]
    columns: list[dict[tuple, object]] = []
    for j in range(len(point)):
        line = [p + t if k == j else p for k, p in enumerate(point)]
        col: dict[tuple, object] = {}
        for i, out in enumerate(_outputs(widths, acts, bias, line, xs)):
            for mon, c in sp.Poly(out, *xs, t).terms():
                if mon[-1] == 1:
                    col[(i, mon[:-1])] = c
        columns.append(col)
    keys = sorted({k for col in columns for k in col})
    if not keys:
        return 0
    return fmpq_mat([[_q(col.get(k, 0)) for col in columns] for k in keys]).rank()


def test_ktb_3_2_1_certifies_rank_five_where_ktb_s_formula_says_six():
    """KTB's formula gives 6 (expected_dim; issue 21: it was mislabelled 5); the orthogonal
    symmetry of the quadratic layer accounts for the Alexander-Hirschowitz defect:
    dim_after_symmetries 5 = the functional dimension, defect 1."""
    cert = make_cert([3, 2, 1], "t^2")
    assert cert["result"]["expected_dim"] == 6 and cert["result"]["defect"] == 1
    assert cert["result"]["dim_after_symmetries"] == 5
    assert cert["result"]["dim_after_symmetries_source"].endswith(
        "Kileel-Trager-Bruna's formula gives 6"
    )
    assert cert["result"]["functional_dimension"] == 5
    assert cert["result"]["rank_lower"] == 5
    assert cert["result"]["rank_upper_at_point"] == 5
    assert exact_rank_at_point(cert) == 5
    assert check_certificate(cert) == []


coeff = st.integers(-3, 3)


@st.composite
def architectures(draw):
    d0 = draw(st.integers(1, 3))
    hidden = draw(st.lists(st.integers(1, 3), min_size=1, max_size=2))
    dout = draw(st.integers(1, 2))
    widths = [d0, *hidden, dout]
    acts = []
    for _ in hidden:
        deg = draw(st.integers(1, 3 if len(hidden) == 1 else 2))
        cs = [draw(coeff) for _ in range(deg)] + [draw(st.integers(1, 3))]
        acts.append(" + ".join(f"({c})*t^{k}" for k, c in enumerate(cs)))
    bias = draw(st.booleans())
    seed = draw(st.integers(0, 10_000))
    return widths, acts, bias, seed


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(architectures())
def test_certified_rank_equals_exact_rank_of_the_jacobian_at_the_point(arch):
    widths, acts, bias, seed = arch
    cert = make_cert(widths, acts, bias, seed)
    exact = exact_rank_at_point(cert)
    res = cert["result"]
    assert res["rank_lower"] == exact
    if res["rank_upper_at_point"] is not None:
        assert res["rank_upper_at_point"] == exact
    assert check_certificate(cert) == []
