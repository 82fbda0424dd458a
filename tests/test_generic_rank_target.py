"""Issue 21: the generic rank mod p is the generator's target, and results speak the
literature's terms.

The generator computes the rank of the sample Jacobian mod p at random points (recorded in
witness.generic, recomputed by the checker) and searches for a small rational theta whose
certified rank reaches it; expected_dim is Kileel-Trager-Bruna's formula (or the naive bound),
dim_after_symmetries the count after the known continuous symmetries, and defect their
difference from a pinned functional dimension."""

from __future__ import annotations

import copy
import random

import numpy as np
import pytest
from flint import nmod_mat
from hypothesis import given, settings
from hypothesis import strategies as st

from certify import certificate
from certify.checker import check_certificate
from certify.checker.claims.rank import generic_source
from certify.checker.fast.rank import rank_mod_np
from certify.summary import summary_line
from tests.conftest import make_cert
from tests.test_mlp_expected_dim import generic_rank

SEEDS = range(10)


def coeffs(act: str) -> list[int]:
    """t^r as a coefficient list, constant term first."""
    r = int(act.split("^")[1])
    return [0] * r + [1]


@pytest.mark.parametrize("seed", SEEDS)
def test_the_deep_width_two_quadratic_network_is_certified_at_rank_8_for_every_seed(seed):
    cert = make_cert([2, 2, 2, 2], "t^2", seed=seed)
    r = cert["result"]
    assert r["rank_lower"] == r["functional_dimension"] == r["generic_rank_mod_p"] == 8
    assert r["expected_dim"] == 8 and r["defect"] == 0 and r["target_reached"] is True
    assert check_certificate(cert) == []


@pytest.mark.parametrize("seed", SEEDS)
def test_the_cubic_2_3_1_network_with_biases_is_certified_at_rank_10_for_every_seed(seed):
    cert = make_cert([2, 3, 1], "t^3", bias=True, seed=seed)
    r = cert["result"]
    assert r["rank_lower"] == r["functional_dimension"] == r["generic_rank_mod_p"] == 10
    assert check_certificate(cert) == []


def test_the_seed_0_point_with_a_rank_one_weight_matrix_is_rejected_up_front():
    cert = make_cert([2, 2, 2, 2], "t^2", seed=0)
    first = cert["generator"]["attempts"][0]
    assert first["theta"] == "spec" and "weight matrix 3 has rank 1" in first["rejected"]
    assert cert["generator"]["search"]["target_reached"] is True


@pytest.mark.parametrize("seed", [0, 5])
@pytest.mark.parametrize(
    "widths,act,bias",
    [
        ([2, 2, 2, 2], "t^2", False),
        ([2, 3, 1], "t^3", True),
        ([2, 2, 2], "t^3", False),
        ([3, 3, 3], "t^2", False),
        ([3, 2, 1], "t^2", False),
        ([4, 3, 1], "t^2", False),
        ([3, 5, 1], "t^4", False),
        ([2, 2, 2, 1], "t^2", True),
        ([2, 3, 2, 1], "t^2", False),
        ([3, 2, 3], "t^2", False),
        ([2, 4, 1], "t^3", False),
        ([3, 2, 2, 1], "t^3", True),
    ],
)
def test_the_certified_rank_equals_the_generic_rank_at_random_points_mod_p(widths, act, bias, seed):
    """The oracle is the forward-mode rank of tests/test_mlp_expected_dim.py at a random
    point mod another prime, independent of the generator and of the checker."""
    cert = make_cert(widths, act, bias=bias, seed=seed)
    acts = [coeffs(act)] * (len(widths) - 2)
    oracle = max(generic_rank(widths, acts, bias, s) for s in (seed, seed + 100))
    assert cert["result"]["rank_lower"] == oracle == cert["result"]["generic_rank_mod_p"]
    assert check_certificate(cert) == []


@pytest.mark.parametrize(
    "widths,expected,defect,after",
    [([3, 2, 1], 6, 1, 5), ([4, 2, 1], 8, 1, 7), ([4, 3, 1], 10, 1, 9)],
)
def test_the_quadratic_alexander_hirschowitz_exceptions_read_ktb_expected_and_defect_one(
    widths, expected, defect, after
):
    r = make_cert(widths, "t^2")["result"]
    assert (r["expected_dim"], r["defect"], r["dim_after_symmetries"]) == (expected, defect, after)
    assert r["functional_dimension"] == after
    assert r["expected_dim_source"].startswith("Kileel-Trager-Bruna's expected dimension")
    assert "orthogonal group" in r["dim_after_symmetries_source"]


def test_the_sporadic_exception_3_5_1_quartic_is_pinned_by_the_cited_theorem_with_defect_1():
    cert = make_cert([3, 5, 1], "t^4")
    r = cert["result"]
    assert (r["expected_dim"], r["functional_dimension"], r["defect"]) == (15, 14, 1)
    assert "Alexander-Hirschowitz" in r["functional_dimension_reason"]
    assert any("Alexander-Hirschowitz" in c for c in cert["claim"]["cites"])
    assert check_certificate(cert) == []


def test_with_biases_the_orthogonal_symmetry_is_counted_after_symmetries_not_in_expected():
    r = make_cert([2, 2, 2, 1], "t^2", bias=True)["result"]
    assert r["expected_dim_source"].startswith("naive bound")
    assert (r["expected_dim"], r["dim_after_symmetries"], r["functional_dimension"]) == (11, 10, 10)
    assert r["defect"] == 1 and "orthogonal group" in r["dim_after_symmetries_source"]


def test_an_unpinned_rank_has_no_defect_and_says_why():
    r = make_cert([4, 3, 1], "t^2 + t")["result"]
    assert r["functional_dimension"] is None and r["defect"] is None
    assert "not pinned" in r["defect_reason"]


def test_when_the_attempts_run_out_below_the_target_the_result_and_summary_say_so():
    from certify.families import generate_certificate
    from certify.spec import parse_spec

    spec = parse_spec(
        {
            "name": "short",
            "network": {"family": "mlp", "widths": [2, 2, 2, 2], "activation": "t^2",
                        "bias": False},
            "parameters": {"seed": 0},
            "certificate": [{"kind": "rank", "attempts": 1}],
        },
        "<test>",
    )  # fmt: skip
    cert = generate_certificate(spec, spec.certificates[0])
    r = cert["result"]
    assert (r["rank_lower"], r["generic_rank_mod_p"], r["target_reached"]) == (7, 8, False)
    assert r["functional_dimension"] is None and r["defect"] is None
    assert cert["generator"]["search"] == {
        "target": 8,
        "target_kind": "generic rank mod p at random points (evidence)",
        "best": 7,
        "target_reached": False,
        "attempts": 1,
    }
    assert "Target not reached" in cert["claim"]["text"]
    assert check_certificate(cert) == []
    line = summary_line({"family": "mlp", "kind": "rank", "result": r})
    assert "TARGET NOT REACHED: generic rank mod p 8, best 7" in line


def test_the_claim_labels_the_generic_rank_as_evidence_not_a_certificate():
    text = make_cert([3, 2, 1], "t^2")["claim"]["text"]
    assert "Generic rank mod p 5" in text and "evidence, not a certificate" in text
    assert "recomputed by the checker, not by the kernel or Coq" in text


@pytest.mark.parametrize(
    "path,value",
    [
        (("ranks", 0), 4),
        (("ranks", 0), 6),
        (("prime",), 2147483646),
    ],
)
def test_the_checker_recomputes_the_generic_rank_and_rejects_a_tampered_record(path, value):
    """(Another random point of the same rank is a valid record: the claim is about the
    recorded points, and the rank there is what the checker recomputes.)"""
    cert = make_cert([3, 2, 1], "t^2")
    bad = copy.deepcopy(cert)
    node = bad["witness"]["generic"]
    for k in path[:-1]:
        node = node[k]
    if node[path[-1]] == value:
        value += 1
    node[path[-1]] = value
    if path[0] == "ranks":
        # a lower recorded rank must also lower the claimed target: rejected either way
        bad["result"]["generic_rank_mod_p"] = value
    assert check_certificate(bad) != []


def test_a_tampered_points_record_changing_the_rank_is_rejected():
    """A point of rank 0 (theta all zero) recorded with the true rank: the checker's
    recomputation disagrees."""
    cert = make_cert([3, 2, 1], "t^2")
    bad = copy.deepcopy(cert)
    pt = bad["witness"]["generic"]["points"][0]
    pt["theta"] = [0] * len(pt["theta"])
    assert any("recomputes" in p for p in check_certificate(bad))


def test_a_second_point_recorded_with_a_higher_rank_than_it_has_is_rejected():
    """The format takes several points (the largest rank is the target): an appended point
    whose recorded rank would raise the target is recomputed and refused."""
    cert = make_cert([3, 2, 1], "t^2")
    bad = copy.deepcopy(cert)
    g = bad["witness"]["generic"]
    g["points"].append(copy.deepcopy(g["points"][0]))
    g["ranks"].append(g["ranks"][0] + 1)
    bad["result"]["generic_rank_mod_p"] = g["ranks"][0] + 1
    assert any("recomputes" in p for p in check_certificate(bad))


def test_a_second_point_recorded_truthfully_is_accepted_as_evidence():
    cert = make_cert([3, 2, 1], "t^2")
    two = copy.deepcopy(cert)
    g = two["witness"]["generic"]
    g["points"].append(copy.deepcopy(g["points"][0]))
    g["ranks"].append(g["ranks"][0])
    q, r = g["prime"], g["ranks"][0]
    one, many = (generic_source({"prime": q, "points": k, "rank": r}) for k in (1, 2))
    for node, field in ((two["result"], "generic_rank_mod_p_source"), (two["claim"], "text")):
        assert one in node[field]
        node[field] = node[field].replace(one, many)
    assert check_certificate(two) == []


def test_a_deleted_generic_record_is_rejected():
    cert = make_cert([3, 2, 1], "t^2")
    bad = copy.deepcopy(cert)
    del bad["witness"]["generic"]
    assert check_certificate(bad) != []


def test_the_certificate_with_its_target_is_deterministic():
    a = make_cert([2, 2, 2, 2], "t^2", seed=0)
    b = make_cert([2, 2, 2, 2], "t^2", seed=0)
    assert certificate.dump(a) == certificate.dump(b)


def test_the_resnet_search_also_reaches_its_generic_rank_mod_p():
    from certify.families import generate_certificate
    from certify.spec import parse_spec

    spec = parse_spec(
        {
            "name": "rn",
            "network": {"family": "resnet", "width": 2, "depth": 2, "activation": "t^2"},
            "parameters": {"seed": 0},
            "certificate": [{"kind": "rank"}],
        },
        "<test>",
    )
    cert = generate_certificate(spec, spec.certificates[0])
    r = cert["result"]
    assert r["rank_lower"] == r["generic_rank_mod_p"] and r["target_reached"] is True
    assert r["dim_after_symmetries_source"].startswith("no continuous symmetry known")
    assert check_certificate(cert) == []


@pytest.mark.parametrize(
    "widths,act,bias", [([2, 2, 2, 2], "t^2", False), ([2, 3, 1], "t^3", True)]
)
def test_coqc_passes_the_seed_0_certificates_of_the_issue(widths, act, bias, coq):
    cert = make_cert(widths, act, bias=bias, seed=0)
    v = coq.verdict(cert)
    assert v.status == "passed", v.message


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 12), st.integers(1, 12), st.integers(0, 10**6), st.sampled_from([7, 101]))
def test_the_checker_s_rank_mod_p_agrees_with_flint(rows, cols, seed, p):
    rng = random.Random(seed)
    rank = rng.randint(0, min(rows, cols))
    A = [[rng.randrange(p) for _ in range(rank)] for _ in range(rows)]
    B = [[rng.randrange(p) for _ in range(cols)] for _ in range(rank)]
    M = [[sum(a * b for a, b in zip(r, c)) % p for c in zip(*B)] if rank else [0] * cols
         for r in A]  # fmt: skip
    assert rank_mod_np(np.array(M, dtype=np.int64), p) == nmod_mat(M, p).rank()


def test_the_dimension_columns_are_explained_in_two_sentences_in_every_place():
    from pathlib import Path

    from certify.referee import readme_md
    from certify.table import COLUMN_NOTES, notes_md

    guide = (Path(__file__).parents[1] / "docs" / "user-guide.md").read_text()
    bundle = readme_md({"tool": {"nn-certify": "x"}, "certificates": [], "specs": []})
    assert set(COLUMN_NOTES) == {"expected_dim", "dim_after_symmetries", "generic_rank_mod_p",
                                 "defect"}  # fmt: skip
    for col, note in COLUMN_NOTES.items():
        assert note.count(". ") + 1 == 2 and note.endswith("."), col
        assert f"- `{col}`: {note}" in bundle
        assert f"- {col}: {note}" in notes_md()
        assert f"- `{col}`:" in guide
