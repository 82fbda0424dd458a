"""result.functional_dimension: present exactly when the certificate pins the generic rank,
rebuilt by the Python checker, and tied to the kernel-checked bounds in the Coq file."""

from __future__ import annotations

import copy

import pytest

from certify import certificate
from certify.checker import check_certificate
from certify.families.polynomial.render_rank import render_coq, render_lean
from tests.conftest import make_cert


@pytest.fixture(scope="module")
def quadratic() -> dict:
    """(3, 2, 1) with t^2: rank 5 pinned by the scaling and orthogonal tangents."""
    return make_cert([3, 2, 1], "t^2")


def test_a_rank_pinned_by_symmetry_tangents_is_the_functional_dimension(quadratic):
    r = quadratic["result"]
    assert quadratic["witness"]["upper"]["kind"] == "symmetry"
    assert r["functional_dimension"] == r["rank_lower"] == r["rank_upper_at_point"] == 5
    assert "orthogonal group" in r["functional_dimension_reason"]
    assert "Functional dimension of the architecture: 5" in quadratic["claim"]["text"]


def test_a_rank_reaching_the_output_space_dimension_is_the_functional_dimension():
    cert = make_cert([2, 3, 1], "t^3")
    r = cert["result"]
    assert cert["witness"]["upper"] is None
    assert r["functional_dimension"] == 4
    assert "dimension of the output polynomial space" in r["functional_dimension_reason"]


def test_an_exact_nullspace_at_theta_pins_the_rank_at_theta_but_not_the_generic_rank():
    """sigma = t^2 + t: no symmetry tangents are known: the kernel basis at theta bounds the rank
    at that point only, so no functional dimension is claimed."""
    cert = make_cert([4, 3, 1], "t^2 + t")
    r = cert["result"]
    assert cert["witness"]["upper"]["kind"] == "nullspace"
    assert r["rank_at_point"] == 12
    assert r["functional_dimension"] is None and r["functional_dimension_reason"] is None
    assert check_certificate(cert) == []


@pytest.mark.parametrize(
    "field,value",
    [
        ("functional_dimension", 6),
        ("functional_dimension", 4),
        ("functional_dimension", None),
        ("functional_dimension_reason", "by inspection"),
        # issue 21: expected_dim is KTB's 6 now; 5 is dim_after_symmetries, defect 1
        ("expected_dim", 5),
        ("expected_dim_source", "Kileel-Trager-Bruna's expected dimension"),
        ("dim_after_symmetries", 6),
        ("dim_after_symmetries_source", "after nothing"),
        ("defect", 0),
        ("defect_reason", "not pinned"),
        ("generic_rank_mod_p", 6),
        ("generic_rank_mod_p_source", "certified"),
        ("target_reached", False),
    ],
)
def test_the_python_checker_rejects_a_changed_result_field(quadratic, field, value):
    bad = copy.deepcopy(quadratic)
    bad["result"][field] = value
    assert check_certificate(bad) != []


def test_a_functional_dimension_claimed_without_a_pin_is_rejected():
    cert = make_cert([4, 3, 1], "t^2 + t")
    assert cert["result"]["functional_dimension"] is None
    bad = copy.deepcopy(cert)
    bad["result"]["functional_dimension"] = bad["result"]["rank_lower"]
    bad["result"]["functional_dimension_reason"] = "claimed"
    assert check_certificate(bad) != []


def test_coqc_checks_the_functional_dimension_against_the_kernel_bounds(quadratic, coq):
    text = render_coq(quadratic, certificate.sha256(quadratic))
    assert "Theorem functional_dimension_le_rank :\n  (functional_dimension <= \\rank" in text
    assert "Theorem functional_dimension_ge_rank_upper :" in text  # pinned by the tangents
    v = coq.verdict(quadratic)
    assert v.status == "passed", v.message


@pytest.mark.parametrize("fd", [4, 6])
def test_coqc_rejects_a_changed_functional_dimension(quadratic, coq, fd):
    bad = copy.deepcopy(quadratic)
    bad["result"]["functional_dimension"] = fd
    assert check_certificate(bad) != []
    v = coq.verdict(bad)
    assert v.status != "passed"


def test_the_lean_file_states_no_functional_dimension_theorem_and_says_coq_proves_it(quadratic):
    text = render_lean(quadratic, certificate.sha256(quadratic))
    assert "functionalDimension" not in text and "functional_dimension_check" not in text
    assert "result.functional_dimension` (5): Lean checks the computations" in text
    assert "proved in Coq (`functional_dimension_le_rank`" in text


def test_without_a_functional_dimension_no_lemma_is_rendered():
    cert = make_cert([4, 3, 1], "t^2 + t")
    assert cert["result"]["functional_dimension"] is None
    assert "functional_dimension" not in render_coq(cert, "0" * 64)
    assert "functional_dimension" not in render_lean(cert, "0" * 64)
