"""ResNet rank witnesses (issue 4, item 1): the certified rank is the exact rank of the
Jacobian of theta -> coefficients of F_theta (independent sympy computation); tampering is
rejected by the checker and coqc; bad ResNet specs are named."""

from __future__ import annotations

import copy
from fractions import Fraction
from pathlib import Path

import pytest
import sympy as sp
from flint import fmpq, fmpq_mat
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from certify.checker import check_certificate
from certify.checker.ir import Malformed
from certify.families import generate_certificate
from certify.spec import parse_rat_str, parse_spec
from tests.conftest import run_cli


def make(net: dict, params: dict | None = None) -> dict:
    data = {"name": "r", "network": {"family": "resnet", **net}}
    if params is not None:
        data["parameters"] = params
    spec = parse_spec(data, "<test>")
    return generate_certificate(spec, spec.certificates[0])


def sympy_resnet(net: dict, ths: list, xs: tuple) -> list:
    """F(x) with sympy, independently of the kernels: layers x + sigma(W x + b) (times V)."""
    n, outer = net["width"], net["outer"]
    acts = [[parse_rat_str(c) for c in a] for a in net["activations"]]
    h = list(xs)
    pos = 0
    for cs in acts:
        pre = []
        for _ in range(n):
            pre.append(sum(ths[pos + j] * h[j] for j in range(n)) + ths[pos + n])
            pos += n + 1
        s = [sum(sp.Rational(c.numerator, c.denominator) * a**k for k, c in enumerate(cs))
             for a in pre]  # fmt: skip
        if outer:
            v = []
            for _ in range(n):
                v.append(sum(ths[pos + j] * s[j] for j in range(n)))
                pos += n
            s = v
        h = [a + b for a, b in zip(h, s, strict=True)]
    return h


def exact_rank(cert: dict) -> int:
    net = cert["instance"]["network"]
    theta = [parse_rat_str(t) for t in cert["instance"]["theta"]]
    xs = sp.symbols(f"x0:{net['width']}")
    ths = sp.symbols(f"th0:{len(theta)}")
    h = sympy_resnet(net, list(ths), xs)
    subs = {t: sp.Rational(v.numerator, v.denominator) for t, v in zip(ths, theta, strict=True)}
    rows = []
    for out in h:
        for coeff in sp.Poly(sp.expand(out), *xs).coeffs():
            rows.append([sp.diff(coeff, t).subs(subs) for t in ths])
    q = [[fmpq(*map(int, Fraction(str(v)).as_integer_ratio())) for v in r] for r in rows]
    return fmpq_mat(q).rank()


@pytest.mark.parametrize(
    "n, depth, act, params",
    [(1, 2, "t^2", 4), (2, 1, "t^3 + t^2", 6), (2, 2, "t^2", 12), (2, 2, "t^3 + t^2", 12)],
)
def test_generic_ranks_of_math_md_are_certified_and_pinned(n, depth, act, params):
    cert = make({"width": n, "depth": depth, "activation": act})
    assert cert["result"]["params"] == params
    assert cert["result"]["rank_lower"] == cert["result"]["rank_upper_at_point"] == params
    assert check_certificate(cert) == []


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from([(1, 1), (2, 1), (1, 2)]),
    st.sampled_from(["t^2", "t^3 + t^2", "t^2 - t", "2*t^3 - t"]),
    st.booleans(),
    st.integers(0, 1000),
)
def test_certified_resnet_rank_equals_the_exact_rank_at_the_point(shape, act, outer, seed):
    # (width, depth) kept small: the independent sympy computation expands F_theta with
    # every parameter symbolic, which grows quickly with width * depth.
    n, depth = shape
    cert = make({"width": n, "depth": depth, "activation": act, "outer": outer}, {"seed": seed})
    assert cert["result"]["rank_lower"] == exact_rank(cert)
    assert check_certificate(cert) == []


def test_tampered_resnet_witnesses_are_rejected_by_checker_and_coqc(coq):
    cert = make({"width": 2, "depth": 2, "activation": "t^3 + t^2", "outer": True})
    assert coq.verdict(cert).status == "passed"

    def duplicate_column(c: dict) -> None:
        c["witness"]["lower"]["cols"][1] = c["witness"]["lower"]["cols"][0]

    def claim_higher_rank(c: dict) -> None:
        c["witness"]["lower"]["rank"] += 1
        c["result"]["rank_lower"] += 1

    def drop_outer(c: dict) -> None:
        c["instance"]["network"]["outer"] = False

    for tamper in (duplicate_column, claim_higher_rank, drop_outer):
        bad = copy.deepcopy(cert)
        tamper(bad)
        assert check_certificate(bad)
        if tamper is drop_outer:  # theta no longer fits the network: not even rendered
            with pytest.raises(Malformed, match="instance.theta"):
                coq.verdict(bad)
            continue
        assert coq.verdict(bad).status == "failed"


@pytest.mark.parametrize(
    "net, params, field",
    [
        ({"width": 2, "depth": 1, "activation": "t^2"},
         {"weights": [[[1, 2]]], "biases": [[1, 1]]}, "parameters.weights[0]"),
        ({"width": 2, "depth": 1, "activation": "t^2"},
         {"weights": [[[1, 2], [3, 4]]], "biases": [[1]]}, "parameters.biases[0]"),
        ({"width": 1, "depth": 1, "activation": "t^2"},
         {"weights": [[[1]]], "biases": [[1]], "outer_weights": [[[1]]]},
         "parameters.outer_weights"),
        ({"width": 2, "depth": 1, "activation": "t^2"},
         {"weights": [[[1, 2], [3]]], "biases": [[1, 1]]}, "parameters.weights[0][1]"),
        ({"width": 2, "depth": 1, "activation": "t^2"},
         {"weights": [[[1, 2, 3], [4, 5, 6], [7, 8, 9]]], "biases": [[1, 1]]},
         "parameters.weights[0]"),
        ({"width": 2, "depth": 2, "activation": "t^2"},
         {"weights": [[[1, 2], [3, 4]]], "biases": [[1, 1], [1, 1]]}, "parameters.weights"),
        ({"width": 0, "depth": 1, "activation": "t^2"}, {"seed": 0}, "network.width"),
        ({"width": 1, "depth": 2, "activation": ["t^2"]}, {"seed": 0}, "network.activation"),
    ],
)  # fmt: skip
def test_bad_resnet_specs_name_the_field(net, params, field, tmp_path: Path):
    import json

    spec = tmp_path / "r.json"
    spec.write_text(json.dumps({"name": "r", "network": {"family": "resnet", **net},
                                "parameters": params}))  # fmt: skip
    r = run_cli("run", str(spec), "--out", str(tmp_path / "o"), "--no-coq", "--no-lean")
    assert r.returncode == 2, r.stdout + r.stderr
    assert f"'{field}'" in r.stderr


def make_orbit(net: dict, params: dict | None = None) -> dict:
    data = {
        "name": "o",
        "network": {"family": "resnet", **net},
        "certificate": [{"kind": "orbit"}],
    }
    if params is not None:
        data["parameters"] = params
    spec = parse_spec(data, "<test>")
    return generate_certificate(spec, spec.certificates[0])


@pytest.mark.parametrize(
    "act, t0, size",
    [("t^4 + t^2", "0", 4), ("(t-1)^4 + (t-1)^2", "1", 4), ("t^2", "0", 4)],
)
def test_real_orbits_of_math_md_examples_lie_in_the_fiber(act, t0, size):
    cert = make_orbit({"width": 1, "depth": 2, "activation": act})
    assert cert["result"]["orbit_size"] == size
    assert all(s["t0"] == t0 and s["g"] % 2 == 0 for s in cert["result"]["layers"])
    assert check_certificate(cert) == []


def test_the_flip_at_t0_maps_b_to_2t0_minus_b():
    cert = make_orbit(
        {"width": 1, "depth": 1, "activation": "(t-1)^4 + (t-1)^2"},
        {"weights": [[[3]]], "biases": [[5]]},
    )
    assert cert["witness"]["facts"][0]["theta"] == ["-3", "-3"]  # w -> -w, b -> 2 - b


def test_orbit_needs_degree_two_activations(tmp_path: Path):
    import json

    spec = tmp_path / "o.json"
    net = {"family": "resnet", "width": 1, "depth": 1, "activation": "t"}
    spec.write_text(json.dumps({"name": "o", "network": net, "certificate": [{"kind": "orbit"}]}))
    r = run_cli("run", str(spec), "--out", str(tmp_path / "out"), "--no-coq", "--no-lean")
    assert r.returncode == 2 and "'network.activation'" in r.stderr


def test_tampered_orbit_generators_are_rejected_by_checker_and_coqc(coq):
    cert = make_orbit({"width": 2, "depth": 1, "activation": "t^4 + t^2"})
    assert cert["result"]["orbit_size"] == 4
    assert coq.verdict(cert).status == "passed"
    wrong_b = copy.deepcopy(cert)
    wrong_b["witness"]["facts"][0]["theta"][2] = "99"
    assert check_certificate(wrong_b)
    assert coq.verdict(wrong_b).status == "failed"
    wrong_t0 = copy.deepcopy(cert)
    wrong_t0["witness"]["facts"][0]["t0"] = "1"
    assert check_certificate(wrong_t0)
    assert coq.verdict(wrong_t0).status == "failed"
    missing = copy.deepcopy(cert)
    del missing["witness"]["facts"][1]
    assert check_certificate(missing)
    bigger = copy.deepcopy(cert)
    bigger["result"]["orbit_size"] = 8
    assert check_certificate(bigger)
