"""Tampered certificates are rejected by the independent checker AND by coqc."""

from __future__ import annotations

import copy
from collections.abc import Callable

import pytest

from certify.checker import check_certificate
from tests.conftest import make_cert


def _flip_inverse(c):
    c["witness"]["lower"]["inverse"][0][0] += 1


def _other_prime(c):
    c["witness"]["lower"]["prime"] = 2147483629


def _swap_col_index(c):
    cols = c["witness"]["lower"]["cols"]
    n = c["result"]["params"]
    cols[0] = next(j for j in range(n) if j not in cols)


def _swap_row_index(c):
    rows = c["witness"]["lower"]["rows"]
    used = {tuple(r) for r in rows}
    free = next(
        [s, k]
        for s in range(len(c["witness"]["lower"]["samples"]))
        for k in range(c["instance"]["network"]["widths"][-1])
        if (s, k) not in used
    )
    rows[0] = free


def _change_parameter(c):
    t = c["instance"]["theta"]
    t[0] = str(int(t[0].split("/")[0]) + 1) + ("/" + t[0].split("/")[1] if "/" in t[0] else "")


def _change_sample(c):
    s, _ = c["witness"]["lower"]["rows"][0]
    c["witness"]["lower"]["samples"][s][0] += 1


def _claim_higher_rank(c):
    lw = c["witness"]["lower"]
    lw["rank"] += 1
    c["result"]["rank_lower"] += 1


def _flip_tangent(c):
    t = c["witness"]["upper"]["tangents"][0]
    j = next(i for i, v in enumerate(t) if v != 0)
    t[j] += 1


def _lower_bound_too_small(c):
    up = c["witness"]["upper"]
    up["bound"] -= 1
    c["result"]["rank_upper_at_point"] -= 1
    c["result"]["rank_at_point"] = None


def _upper_wrong_prime(c):
    c["witness"]["upper"]["prime"] = 2147483587


LOWER_TAMPERS: dict[str, Callable] = {
    "inverse entry": _flip_inverse,
    "prime": _other_prime,
    "column index": _swap_col_index,
    "row index": _swap_row_index,
    "parameter": _change_parameter,
    "sample": _change_sample,
    "claimed rank": _claim_higher_rank,
}
UPPER_TAMPERS: dict[str, Callable] = {
    "tangent entry": _flip_tangent,
    "upper bound": _lower_bound_too_small,
    "independence prime": _upper_wrong_prime,
}


@pytest.fixture(scope="module")
def defective():
    """(3,2,1), t^2: lower bound 5 and a nullspace upper bound 5."""
    return make_cert([3, 2, 1], "t^2")


@pytest.fixture(scope="module")
def rational():
    """Rational weights and activation: exercises the denominator inverses."""
    return make_cert(
        [2, 2, 1],
        "t^3 - t^2/2 + 2*t + 1",
        True,
        weights=[[[1, "-1/2"], [2, 3]], [["3/4", -1]]],
        biases=[["1/3", 1], [2]],
    )


def test_untampered_certificates_pass_checker_and_coq(defective, rational, coq):
    for cert in (defective, rational):
        assert check_certificate(cert) == []
        v = coq.verdict(cert)
        assert v.status == "passed", v.message
        assert all(a.startswith("PrimInt63.") for a in v.assumptions)


@pytest.mark.parametrize("what", sorted(LOWER_TAMPERS))
def test_tampered_lower_bound_witness_is_rejected_by_checker_and_coqc(what, defective, coq):
    bad = copy.deepcopy(defective)
    LOWER_TAMPERS[what](bad)
    assert bad != defective
    assert check_certificate(bad), f"checker accepted a tampered {what}"
    v = coq.verdict(bad)
    assert v.status == "failed", f"coqc accepted a tampered {what}"


@pytest.mark.parametrize("what", sorted(UPPER_TAMPERS))
def test_tampered_upper_bound_witness_is_rejected_by_checker_and_coqc(what, defective, coq):
    bad = copy.deepcopy(defective)
    UPPER_TAMPERS[what](bad)
    assert check_certificate(bad), f"checker accepted a tampered {what}"
    assert coq.verdict(bad).status == "failed", f"coqc accepted a tampered {what}"


def test_wrong_denominator_inverse_is_rejected_by_checker_and_coqc(rational, coq):
    bad = copy.deepcopy(rational)
    inv = bad["witness"]["lower"]["theta_inv"]
    j = next(i for i, t in enumerate(bad["instance"]["theta"]) if "/" in t)
    inv[j] += 1
    assert check_certificate(bad)
    assert coq.verdict(bad).status == "failed"


def test_changed_activation_coefficient_is_rejected_by_checker_and_coqc(rational, coq):
    bad = copy.deepcopy(rational)
    bad["instance"]["network"]["activations"][0][1] = "3"
    assert check_certificate(bad)
    assert coq.verdict(bad).status == "failed"


def test_a_name_that_would_inject_prover_syntax_is_rejected(defective):
    from certify.errors import RenderError
    from certify.render.rank import render_coq, render_lean

    bad = copy.deepcopy(defective)
    bad["name"] = 'x *) Notation "check_rank_lower a b c" := true. (*'
    assert check_certificate(bad)
    with pytest.raises(RenderError):
        render_coq(bad, "0" * 64)
    with pytest.raises(RenderError):
        render_lean(bad, "0" * 64)


def test_claim_text_cannot_break_out_of_prover_comments(defective, coq):
    from certify.render.rank import render_coq, render_lean

    odd = copy.deepcopy(defective)
    odd["claim"]["text"] += ' *) (* -/ /- "quoted'
    coq_text, lean_text = render_coq(odd, "0" * 64), render_lean(odd, "0" * 64)
    header = coq_text.split("*)", 1)[0]
    assert '"' not in header and "(*" not in header[2:]
    assert "-/" not in lean_text.split("-/", 1)[1].split("namespace", 1)[0]
    assert check_certificate(odd)  # the checker still insists on the rebuilt claim text


@pytest.mark.parametrize(
    "path, value",
    [
        (("instance", "network", "activations"), ["001"]),
        (("instance", "theta", 0), "1_0"),
        (("instance", "network"), "mlp"),
        (("result",), None),
        (("witness", "lower", "cols"), "0"),
    ],
)
def test_malformed_fields_are_reported_not_accepted(defective, path, value):
    bad = copy.deepcopy(defective)
    target = bad
    for k in path[:-1]:
        target = target[k]
    target[path[-1]] = value
    problems = check_certificate(bad)
    assert problems


def test_results_with_floats_are_rejected(defective):
    bad = copy.deepcopy(defective)
    bad["result"]["rank_lower"] = float(bad["result"]["rank_lower"])
    assert check_certificate(bad)
