"""ReLU networks with input width n0 >= 2 (issue 13, item 2): the region-aware batch gives every
activation region it meets n0 + 1 affinely independent points, depends on the instance and the
spec's seed only (never on a name), and reaches ranks the random batch missed; pinned values
are recomputed independently (exact gradients over Q by forced-pattern finite differences,
FLINT) on the certificate's batch together with a dense grid of inputs."""

from __future__ import annotations

import copy
import json
from fractions import Fraction

import pytest
from flint import fmpq, fmpq_mat
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from certify import certificate
from certify.checker import check_certificate
from certify.families import generate_certificate
from certify.spec import parse_rat_str, parse_spec
from tests.test_relu import exact_batch_rank, plain_eval


def cert_of(widths, params, name="r", attempts=None, batch=None) -> dict:
    c: dict = {"kind": "rank"}
    if attempts is not None:
        c["attempts"] = attempts
    if batch is not None:
        c["batch"] = batch
    data = {"name": name, "network": {"family": "relu", "widths": widths},
            "parameters": params, "certificate": [c]}  # fmt: skip
    spec = parse_spec(data, "<test>")
    return generate_certificate(spec, spec.certificates[0])


def theta_batch(cert: dict) -> tuple[list[Fraction], list[list[Fraction]]]:
    theta = [parse_rat_str(t) for t in cert["instance"]["theta"]]
    return theta, [[parse_rat_str(c) for c in z] for z in cert["witness"]["lower"]["batch"]]


def groups_by_pattern(widths, theta, points) -> dict:
    out: dict = {}
    for z in points:
        _, pats = plain_eval(widths, theta, z, strict=False)
        out.setdefault(tuple(map(tuple, pats)), []).append(z)
    return out


def affine_dim(points) -> int:
    """Dimension of the affine hull, by FLINT over Q (independent of the checker's elimination)."""
    if len(points) == 1:
        return 0
    diffs = [[fmpq(*(a - b).as_integer_ratio()) for a, b in zip(z, points[0])] for z in points[1:]]
    return fmpq_mat(diffs).rank()


def gradient_rank(widths, theta, points) -> int:
    """Rank over Q of the exact gradients of theta -> F_theta(z) at the points (pattern of z
    forced, so F is affine in each parameter and a unit step gives the partial derivative)."""
    rows = []
    for z in points:
        base, pats = plain_eval(widths, theta, z, strict=False)
        cols = []
        for c in range(len(theta)):
            moved = list(theta)
            moved[c] += 1
            cols.append([a - b for a, b in zip(plain_eval(widths, moved, z, pats)[0], base)])
        rows.extend([col[k] for col in cols] for k in range(widths[-1]))
    return fmpq_mat([[fmpq(*v.as_integer_ratio()) for v in r] for r in rows]).rank()


def off_hyperplanes(widths, theta, points) -> list:
    out = []
    for z in points:
        h, pos, ok = list(z), 0, True
        for prev, d in zip(widths[:-2], widths[1:-1]):
            pre = []
            for _ in range(d):
                pre.append(sum(theta[pos + j] * h[j] for j in range(prev)) + theta[pos + prev])
                pos += prev + 1
            ok = ok and all(a != 0 for a in pre)
            h = [a if a > 0 else Fraction(0) for a in pre]
        if ok:
            out.append(z)
    return out


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(2, 3),
    st.lists(st.integers(1, 3), min_size=1, max_size=3),
    st.integers(1, 2),
    st.integers(0, 10**6),
)
def test_every_region_the_batch_meets_holds_n0_plus_one_affinely_independent_points(
    n0, hidden, dout, seed
):
    widths = [n0, *hidden, dout]
    cert = cert_of(widths, {"seed": seed}, attempts=1)
    theta, batch = theta_batch(cert)
    groups = groups_by_pattern(widths, theta, batch)
    assert groups and all(affine_dim(g) == n0 for g in groups.values())
    r = cert["result"]
    assert r["regions_spanned"] and r["activation_patterns"] == len(groups)
    assert cert["generator"]["batch"] == "regions"
    assert r["rank_lower"] == exact_batch_rank(cert) <= r["expected_dim"]
    if r["rank_upper_at_point"] == r["rank_lower"] < r["expected_dim"]:
        if r.get("width_one_bound") == r["rank_lower"]:  # a width-one chain reaches its bound
            assert "the bound for width-one hidden layers" in cert["claim"]["text"]
        else:
            assert "only bounded below: >= " in cert["claim"]["text"]
    assert check_certificate(cert) == []


@pytest.mark.parametrize(
    "widths, params",
    [
        ([2, 1, 2, 1], {"seed": 4}),
        ([2, 3, 3, 1], {"seed": 7}),
        ([2, 2, 1], {"weights": [[[1, 2], [-1, 3]], [[2, -1]]], "biases": [[0, 1], [1]]}),
    ],
)
def test_the_same_instance_under_two_names_gives_byte_identical_witness_and_result(widths, params):
    a, b = cert_of(widths, params, name="one-name"), cert_of(widths, params, name="other.name")
    assert a["name"] != b["name"]
    for part in ("instance", "witness", "result", "claim"):
        assert json.dumps(a[part], sort_keys=True) == json.dumps(b[part], sort_keys=True), part
    assert a["generator"] == b["generator"]


def test_the_batch_changes_with_the_spec_seed_only_through_the_instance_and_seed():
    a = cert_of([2, 3, 3, 1], {"seed": 7})
    assert certificate.dump(a) == certificate.dump(cert_of([2, 3, 3, 1], {"seed": 7}))
    assert a["witness"] != cert_of([2, 3, 3, 1], {"seed": 8})["witness"]


# (widths, seed, the random batch's rank at theta before this change, the region batch's rank
# at theta): a single attempt at the spec's theta. Each value is recomputed below on the
# certificate's batch plus a grid of step 1/2 on [-16, 16]^2 (up to 8 points of every pattern
# met): the rank does not grow. Values below D - H (14 < 19, 13 < 14) are lower bounds at theta
# that the grid does not raise.
PINNED_2D = [
    ([2, 1, 2, 1], 1, 3, 7), ([2, 1, 1, 1], 1, 3, 5), ([2, 2, 2, 1], 1, 10, 11),
    ([2, 3, 1, 2, 1], 1, 10, 13), ([2, 3, 3, 1], 0, 13, 14),
]  # fmt: skip


@pytest.mark.parametrize("widths, seed, before, rank", PINNED_2D)
def test_the_region_batch_reaches_ranks_the_random_batch_missed(widths, seed, before, rank):
    from certify.families.relu import witness as W

    cert = cert_of(widths, {"seed": seed}, attempts=1)
    r = cert["result"]
    assert r["rank_lower"] == rank and r["rank_upper_at_point"] == rank
    theta, batch = theta_batch(cert)
    assert gradient_rank(widths, theta, batch) == rank
    grid = [(Fraction(a, 2), Fraction(b, 2)) for a in range(-32, 33) for b in range(-32, 33)]
    groups = groups_by_pattern(widths, theta, off_hyperplanes(widths, theta, grid))
    extra = [z for g in groups.values() for z in g[:: max(1, len(g) // 8)]]
    assert gradient_rank(widths, theta, batch + extra) == rank
    net = parse_spec({"name": "x", "network": {"family": "relu", "widths": widths},
                      "parameters": {"seed": seed}}, "<t>").network  # fmt: skip
    tag = W.instance_tag(net, tuple(theta), seed, 0)
    assert (
        len(W.design_batch(net, tuple(theta), cert["witness"]["lower"]["prime"], tag, None)[2])
        == before
    )
    assert check_certificate(cert) == []


def test_a_given_batch_with_one_point_per_region_is_not_called_spanned():
    params = {"weights": [[[1, 0], [0, 1]], [[1, 1]]], "biases": [[0, 0], [0]]}
    batch = [[1, 1], [-1, 1], [1, -1], [-1, -1], [2, 3]]
    cert = cert_of([2, 2, 1], params, batch=batch)
    assert not cert["result"]["regions_spanned"]
    assert "affinely independent" not in cert["claim"]["text"]
    assert check_certificate(cert) == []
    spanned = batch + [[2, 1], [-2, 1], [-1, 2], [1, -2], [2, -1], [-2, -1], [-1, -2]]
    cert = cert_of([2, 2, 1], params, batch=spanned)
    assert cert["result"]["regions_spanned"]
    assert "4 activation patterns of the batch is held by 3 affinely" in cert["claim"]["text"]
    assert check_certificate(cert) == []


def test_a_flipped_regions_spanned_field_or_its_sentence_is_rejected():
    cert = cert_of([2, 3, 3, 1], {"seed": 0}, attempts=1)
    assert cert["result"]["regions_spanned"]
    bad = copy.deepcopy(cert)
    bad["result"]["regions_spanned"] = False
    assert check_certificate(bad)
    bad = copy.deepcopy(cert)
    bad["claim"]["text"] = bad["claim"]["text"].replace("3 affinely", "2 affinely")
    assert check_certificate(bad)
    # one more batch point, alone in a region the batch did not meet: the lower witness still
    # holds, but the checker's own grouping finds the region unspanned
    widths = cert["instance"]["network"]["widths"]
    theta, batch = theta_batch(cert)
    met = groups_by_pattern(widths, theta, batch)
    grid = [(Fraction(a), Fraction(b)) for a in range(-40, 41) for b in range(-40, 41)]
    new = groups_by_pattern(widths, theta, off_hyperplanes(widths, theta, grid))
    z = next(g[0] for pat, g in new.items() if pat not in met)
    bad = copy.deepcopy(cert)
    bad["witness"]["lower"]["batch"].append([str(c) for c in z])
    bad["witness"]["lower"]["batch_inv"].append([1, 1])
    problems = check_certificate(bad)
    assert problems and "result" in problems[0]


def test_a_region_certificate_passes_coqc_and_a_tampered_point_fails_it(coq):
    cert = cert_of([2, 1, 2, 1], {"seed": 1}, attempts=1)
    assert coq.verdict(cert).status == "passed"
    bad = copy.deepcopy(cert)
    bad["witness"]["lower"]["batch_inv"][0][0] = 2
    assert check_certificate(bad) and coq.verdict(bad).status == "failed"


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize(
    "widths", [[1, 3, 3, 1], [1, 2, 2, 2, 1], [2, 1, 1, 1], [2, 3, 1, 2, 1], [3, 1, 3, 1]]
)
def test_the_default_theta_search_reaches_d_minus_h_and_records_every_attempt(widths, seed):
    cert = cert_of(widths, {"seed": seed})
    r, g = cert["result"], cert["generator"]
    assert r["rank_lower"] == r["expected_dim"] == r["functional_dimension_at_point"]
    assert g["search"] == {"attempts": len(g["attempts"]), "max_rank": r["rank_lower"],
                           "bound": "D - H"}  # fmt: skip
    assert [a["attempt"] for a in g["attempts"]] == list(range(len(g["attempts"])))
    assert all(a["rank"] < r["expected_dim"] for a in g["attempts"][:-1])
    assert g["attempts"][-1]["rank"] == r["expected_dim"]
    assert check_certificate(cert) == []


def test_one_dimensional_input_searches_past_the_general_default_until_d_minus_h():
    """(1, 4, 4, 1) at seed 0 reaches D - H = 25 only after more than the general default of
    128 attempts; one-dimensional input gets 1000 (an attempt is cheap there)."""
    cert = cert_of([1, 4, 4, 1], {"seed": 0})
    r, g = cert["result"], cert["generator"]
    assert r["rank_lower"] == r["expected_dim"] == 25
    assert 128 < len(g["attempts"]) <= 1000
    assert check_certificate(cert) == []
