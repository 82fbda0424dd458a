"""ReLU networks whose hidden layers all have width 1 (issue 21, item 5): with two or more hidden
layers the functional dimension is n0 + 2 nL + 1 (claims_relu.width_one_bound: F_theta is a
plateau-slope-plateau clamp of one affine form), so for three or more hidden layers D - H is
not attainable; (1, 1, 1, 1, 1) has functional dimension 4 < 5. The bound is measured with
float Jacobians over random theta and batches, the certified value agrees, and the claim says
so; the certificates pass the Python checker and coqc."""

from __future__ import annotations

import copy

import numpy as np
import pytest

from certify.checker import check_certificate
from certify.checker.claims.relu import width_one_bound
from certify.checker.ir import ReLUNet
from tests.test_relu import make


def forward(widths: tuple[int, ...], theta: np.ndarray, X: np.ndarray) -> np.ndarray:
    """F_theta on the rows of X (float), the parameter layout of ReLUNet."""
    h, pos = X, 0
    for ell in range(len(widths) - 1):
        a, b = widths[ell], widths[ell + 1]
        W = theta[pos : pos + b * (a + 1)].reshape(b, a + 1)
        pos += b * (a + 1)
        h = h @ W[:, :a].T + W[:, a]
        if ell < len(widths) - 2:
            h = np.maximum(h, 0)
    return h


def max_float_rank(widths: tuple[int, ...], trials: int, seed: int) -> int:
    """The largest numerical rank of the batch Jacobian over random normal theta and random
    batches of 300 inputs in [-6, 6]^n0 (central differences: F is piecewise linear in each
    parameter, so they are exact away from kinks)."""
    rng = np.random.default_rng(seed)
    D = ReLUNet(widths).n_params
    best = 0
    for _ in range(trials):
        th = 2 * rng.normal(size=D)
        X = rng.uniform(-6, 6, size=(300, widths[0]))
        eps = 1e-6
        cols = [
            (forward(widths, th + eps * e, X) - forward(widths, th - eps * e, X)).ravel()
            / (2 * eps)
            for e in np.eye(D)
        ]
        J = np.stack(cols, 1)
        scale = np.abs(J).max()
        if scale > 0:
            best = max(best, int(np.linalg.matrix_rank(J, tol=1e-7 * scale)))
    return best


CHAINS = [(1, 1, 1, 1), (1, 1, 1, 1, 1), (1, 1, 1, 1, 1, 1), (2, 1, 1, 1, 1), (1, 1, 1, 1, 2),
          (2, 1, 1, 1, 2), (3, 1, 1, 1, 1)]  # fmt: skip


@pytest.mark.parametrize("widths", CHAINS)
def test_the_float_rank_over_random_theta_and_batches_reaches_exactly_the_width_one_bound(widths):
    net = ReLUNet(widths)
    bound = width_one_bound(net)
    assert bound == widths[0] + 2 * widths[-1] + 1
    assert bound == min(bound, net.n_params - net.n_hidden)
    assert max_float_rank(widths, 150, seed=sum(widths)) == bound


@pytest.mark.parametrize("widths", [(1, 1, 1), (2, 1, 3), (1, 2, 1, 1), (2, 2, 1), (1, 1, 2, 1)])
def test_architectures_that_are_not_chains_of_two_or_more_width_one_layers_have_no_such_bound(
    widths,
):
    assert width_one_bound(ReLUNet(widths)) is None


def test_d_minus_h_is_attainable_exactly_up_to_two_width_one_hidden_layers():
    for n0 in (1, 2, 3):
        for nL in (1, 2):
            for hidden in range(2, 7):
                net = ReLUNet((n0, *[1] * hidden, nL))
                bound = width_one_bound(net)
                dh = net.n_params - net.n_hidden
                assert dh == n0 + 2 * nL + hidden - 1
                assert (bound < dh) is (hidden >= 3) and (bound == dh) is (hidden == 2)


def test_the_certified_value_for_1_1_1_1_1_is_four_and_the_claim_says_d_minus_h_is_unattainable(
    coq,
):
    cert = make([1, 1, 1, 1, 1], {"seed": 1})
    r = cert["result"]
    assert (r["expected_dim"], r["rank_lower"], r["rank_upper_at_point"]) == (5, 4, 4)
    assert r["width_one_bound"] == 4 == max_float_rank((1, 1, 1, 1, 1), 150, seed=5)
    assert r["architecture_functional_dimension"] == 4 == r["functional_dimension_at_point"]
    text = cert["claim"]["text"]
    assert "n0 + 2 nL + 1 = 4 < D - H = 5 at every theta: D - H is not attainable." in text
    assert "the functional dimension of the architecture is exactly 4." in text
    assert "Argued, not kernel-checked" in text and "The certified rank 4 is below" not in text
    assert any("width_one_bound" in c for c in cert["claim"]["cites"])
    assert check_certificate(cert) == []
    assert coq.verdict(cert).status == "passed"


def test_a_two_dimensional_input_chain_certifies_its_bound_by_region_batches(coq):
    cert = make([2, 1, 1, 1, 1], {"seed": 1})
    r = cert["result"]
    assert not r["batch_covers_pieces"]
    assert r["rank_lower"] == r["width_one_bound"] == 5 < r["expected_dim"] == 6
    assert r["architecture_functional_dimension"] == 5 == r["functional_dimension_at_point"]
    text = cert["claim"]["text"]
    assert "functional dimension at theta is exactly 5, the bound for width-one" in text
    assert "n0 + 2 nL + 1 = 5 < D - H = 6" in text
    assert check_certificate(cert) == []
    assert coq.verdict(cert).status == "passed"


def test_two_width_one_hidden_layers_reach_d_minus_h_and_the_claim_adds_no_bound():
    cert = make([1, 1, 1, 1], {"seed": 1})
    r = cert["result"]
    assert r["rank_lower"] == r["expected_dim"] == r["width_one_bound"] == 4
    assert "Argued, not kernel-checked" not in cert["claim"]["text"]
    assert check_certificate(cert) == []


def test_a_changed_bound_or_functional_dimension_is_rejected_by_the_checker():
    """The result fields and the claim are rebuilt by the checker from the checked witness and
    compared exactly. (coqc checks the witness, not these derived fields.)"""
    cert = make([1, 1, 1, 1, 1], {"seed": 1})
    for field, value in (("width_one_bound", 5), ("architecture_functional_dimension", 5)):
        bad = copy.deepcopy(cert)
        bad["result"][field] = value
        assert check_certificate(bad)
    bad = copy.deepcopy(cert)
    bad["claim"]["text"] = bad["claim"]["text"].replace("not attainable", "attainable")
    assert check_certificate(bad)


def test_the_width_one_argument_has_an_entry_in_the_citation_table():
    from certify.checker.claims.relu import WIDTH_ONE_CHAIN
    from certify.referee import CITATIONS

    assert "n0 + 2 nL + 1" in CITATIONS[WIDTH_ONE_CHAIN]
