"""The mlp-identifiable Coq and Lean files check the instance's own network, weights and
activation, and tie the witness's copy to them: a certificate whose witness is about another
network fails coqc, not only the Python checker (issue 13, item 7)."""

from __future__ import annotations

import copy

import pytest

from certify.bundle import render_certificate
from certify.checker import check_certificate
from certify.checker.kernel import compind as KC
from certify.families import generate_certificates
from certify.spec import parse_spec


def _mlp_cert(widths, activation, weights) -> dict:
    data = {
        "name": "m",
        "network": {"family": "mlp", "widths": widths, "activation": activation},
        "parameters": {"weights": weights},
        "certificate": [{"kind": "mlp-identifiable"}],
    }
    spec = parse_spec(data, "<test>")
    return generate_certificates(spec, spec.certificates[0])[0]


@pytest.fixture(scope="module")
def z2z() -> dict:
    return _mlp_cert([1, 3, 1], "t^2 + t", [[[1], [2], [3]], [[3, -3, 1]]])


@pytest.fixture(scope="module")
def width_one() -> dict:
    return _mlp_cert([2, 1, 1], "t^3 + t^2", [[[2, -3]], [[5]]])


def test_the_rendered_files_state_the_hypotheses_on_the_instance_terms(z2z):
    r = render_certificate(z2z)
    assert "Definition inst_theta : list Z := [1; 2; 3; 3; (-3); 1]." in r.coq_text
    assert "check_mlp_hypotheses inst_widths inst_sigma inst_theta 1%nat = true /\\" in r.coq_text
    assert "theta_0 = inst_theta." in r.coq_text
    assert (
        "theorem fact_0 : NNCert.checkMlpHypotheses inst_widths inst_sigma inst_theta 1 = true ∧ "
        "inst_bias = false ∧ inst_acts = List.replicate inst_acts.length inst_sigma ∧ "
        "widths_0 = inst_widths ∧ sigma_0 = inst_sigma ∧ theta_0 = inst_theta := by decide +kernel"
    ) in r.lean_text


@pytest.mark.parametrize("cert_name", ["z2z", "width_one"])
def test_an_untampered_certificate_passes_coqc(cert_name, request, coq):
    cert = request.getfixturevalue(cert_name)
    v = coq.verdict(cert)
    assert v.status == "passed", v.message


def test_a_witness_copy_of_other_weights_fails_coqc_though_its_own_check_would_pass(z2z, coq):
    bad = copy.deepcopy(z2z)
    bad["witness"]["facts"][0]["theta"] = [1, 2, 4, 3, -3, 1]
    fact = bad["witness"]["facts"][0]
    # the witness copy alone satisfies the hypotheses: only the tie to the instance rejects it
    assert KC.check_mlp_hypotheses(fact["widths"], [(0, 1), (1, 1), (1, 1)], fact["theta"], 1)
    assert check_certificate(bad)
    assert coq.verdict(bad).status == "failed"


def test_a_witness_copy_of_another_activation_fails_coqc(z2z, coq):
    bad = copy.deepcopy(z2z)
    bad["witness"]["facts"][0]["sigma"] = ["0", "1", "0", "1"]
    assert check_certificate(bad)
    assert coq.verdict(bad).status == "failed"


def test_instance_weights_that_differ_from_the_witness_fail_coqc(z2z, coq):
    bad = copy.deepcopy(z2z)
    bad["instance"]["theta"] = ["1", "2", "5", "3", "-3", "1"]
    assert check_certificate(bad)
    assert coq.verdict(bad).status == "failed"


def test_an_instance_that_is_a_subnetwork_fails_coqc_even_with_a_matching_witness(z2z, coq):
    bad = copy.deepcopy(z2z)
    bad["instance"]["theta"] = ["1", "2", "2", "3", "-3", "1"]
    bad["witness"]["facts"][0]["theta"] = [1, 2, 2, 3, -3, 1]
    assert check_certificate(bad)
    assert coq.verdict(bad).status == "failed"


def test_a_prop33_fact_about_another_activation_fails_coqc(width_one, coq):
    bad = copy.deepcopy(width_one)
    assert bad["witness"]["facts"][1]["kind"] == "prop33"
    bad["witness"]["facts"][1]["sigma"] = ["0", "1", "1"]  # t^2 + t passes Prop. 3.3 itself
    assert KC.check_prop33([(0, 1), (1, 1), (1, 1)])
    assert check_certificate(bad)
    assert coq.verdict(bad).status == "failed"


def test_an_instance_with_biases_fails_coqc(z2z, coq):
    bad = copy.deepcopy(z2z)
    bad["instance"]["network"]["bias"] = True
    assert check_certificate(bad)
    assert coq.verdict(bad).status == "failed"
