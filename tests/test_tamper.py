"""Tampered certificates are rejected by the independent checker AND by coqc."""

from __future__ import annotations

import copy
from collections.abc import Callable

import pytest

from certify.checker import check_certificate
from certify.provers import coq as coqp
from tests.conftest import make_cert


# The lower witness is (prime, samples, rows, cols): the kernel recomputes the minor and
# eliminates it. A tamper that leaves a *true* certificate (another prime, sample or
# parameter with a still-nonsingular minor) is rightly accepted; these make the claim false.
def _duplicate_column(c):
    cols = c["witness"]["lower"]["cols"]
    cols[1] = cols[0]


def _duplicate_row_label(c):
    rows = c["witness"]["lower"]["rows"]
    rows[1] = list(rows[0])


def _duplicate_sample(c):
    """Two labels now name the same input: two equal rows, a singular minor."""
    lw = c["witness"]["lower"]
    (s0, _), (s1, _) = lw["rows"][0], next(r for r in lw["rows"] if r[0] != lw["rows"][0][0])
    lw["samples"][s1] = list(lw["samples"][s0])


def _column_out_of_range(c):
    c["witness"]["lower"]["cols"][0] = c["result"]["params"]


def _row_out_of_range(c):
    c["witness"]["lower"]["rows"][0] = [len(c["witness"]["lower"]["samples"]), 0]


def _prime_too_large(c):
    c["witness"]["lower"]["prime"] = 2**31


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


def _duplicate_tangent_column(c):
    up = c["witness"]["upper"]
    up["cols"].append(up["cols"][0])
    up["tangents"].append(list(up["tangents"][0]))
    up["bound"] -= 1
    c["result"]["rank_upper_at_point"] -= 1
    c["result"]["rank_at_point"] = None


def _drop_moduli(c):
    """Too few moduli: their product no longer exceeds the bound on the dot products."""
    up = c["witness"]["upper"]
    up["moduli"] = [3]


def _repeat_modulus(c):
    up = c["witness"]["upper"]
    up["moduli"] = [up["moduli"][0]] * (len(up["moduli"]) + 1)


LOWER_TAMPERS: dict[str, Callable] = {
    "duplicated column": _duplicate_column,
    "duplicated row label": _duplicate_row_label,
    "duplicated sample (singular minor)": _duplicate_sample,
    "column index out of range": _column_out_of_range,
    "row label out of range": _row_out_of_range,
    "prime not below 2^31": _prime_too_large,
    "claimed rank": _claim_higher_rank,
}
UPPER_TAMPERS: dict[str, Callable] = {
    "tangent entry": _flip_tangent,
    "upper bound": _lower_bound_too_small,
    "dependent tangents (repeated column)": _duplicate_tangent_column,
    "too few moduli": _drop_moduli,
    "repeated modulus": _repeat_modulus,
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
        assert all(coqp.allowed_assumption(a) for a in v.assumptions)


def _twins(cert) -> tuple[bool, bool]:
    """(pure twin, vectorised path) verdicts of the lower and upper checks together."""
    from certify.checker.check.rank import decode_instance, decode_lower, decode_upper
    from certify.checker.fast import rank as fast
    from certify.checker.ir import Malformed
    from certify.checker.kernel.rank import check_rank_lower, check_rank_upper

    try:
        inst = decode_instance(cert)
        lw, r = decode_lower(cert["witness"]["lower"])
        up = cert["witness"]["upper"]
        uw = decode_upper(up) if up is not None else None
    except (Malformed, KeyError, TypeError, ValueError):
        return False, False
    pure = check_rank_lower(inst, lw, r) and (uw is None or check_rank_upper(inst, *uw))
    vec = fast.check_rank_lower(inst, lw, r) and (uw is None or fast.check_rank_upper(inst, *uw))
    return pure, vec


@pytest.mark.parametrize("what", sorted(LOWER_TAMPERS))
def test_tampered_lower_bound_witness_is_rejected_by_checker_and_coqc(what, defective, coq):
    bad = copy.deepcopy(defective)
    LOWER_TAMPERS[what](bad)
    assert bad != defective
    assert check_certificate(bad), f"checker accepted a tampered {what}"
    assert _twins(bad) == (False, False), f"a kernel twin accepted a tampered {what}"
    v = coq.verdict(bad)
    assert v.status == "failed", f"coqc accepted a tampered {what}"


@pytest.mark.parametrize("what", sorted(UPPER_TAMPERS))
def test_tampered_upper_bound_witness_is_rejected_by_checker_and_coqc(what, defective, coq):
    bad = copy.deepcopy(defective)
    UPPER_TAMPERS[what](bad)
    assert check_certificate(bad), f"checker accepted a tampered {what}"
    assert _twins(bad) == (False, False), f"a kernel twin accepted a tampered {what}"
    assert coq.verdict(bad).status == "failed", f"coqc accepted a tampered {what}"


def test_untampered_certificates_pass_both_twins(defective, rational):
    assert _twins(defective) == (True, True)
    assert _twins(rational) == (True, True)


def test_wrong_denominator_inverse_is_rejected_by_checker_and_coqc(rational, coq):
    bad = copy.deepcopy(rational)
    inv = bad["witness"]["lower"]["theta_inv"]
    j = next(i for i, t in enumerate(bad["instance"]["theta"]) if "/" in t)
    inv[j] += 1
    assert check_certificate(bad)
    assert coq.verdict(bad).status == "failed"


def test_changed_activation_coefficient_is_rejected_by_checker_and_coqc(rational, coq):
    bad = copy.deepcopy(rational)
    # "3" alone would be a true certificate about another activation (the kernel accepts it
    # and only the Python checker's activation text differs); a new denominator no longer
    # matches the shipped inverse, so the instance is no longer the one the witness reduces.
    bad["instance"]["network"]["activations"][0][1] = "3/7"
    assert check_certificate(bad)
    assert coq.verdict(bad).status == "failed"


def test_a_name_that_would_inject_prover_syntax_is_rejected(defective):
    from certify.errors import RenderError
    from certify.families.polynomial.render_rank import render_coq, render_lean

    bad = copy.deepcopy(defective)
    bad["name"] = 'x *) Notation "check_rank_lower a b c" := true. (*'
    assert check_certificate(bad)
    with pytest.raises(RenderError):
        render_coq(bad, "0" * 64)
    with pytest.raises(RenderError):
        render_lean(bad, "0" * 64)


def test_claim_text_cannot_break_out_of_prover_comments(defective, coq):
    from certify.families.polynomial.render_rank import render_coq, render_lean

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
