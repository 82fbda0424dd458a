"""The expected dimension of polynomial MLPs against exact generic ranks.

The ranks here are computed independently of the code under test: a forward-mode Jacobian of
theta -> (f_theta(x_s))_s at a random point and random samples, in numpy int64 arithmetic mod
a prime near 10^6, and its rank by FLINT (nmod_mat). A rank mod p at one point is a lower
bound on the generic rank; equality with dim_after_symmetries, an upper bound by its derivation,
pins it (up to a failure probability of order deg / p, and the pinned values below were also
reproduced with other seeds)."""

from __future__ import annotations

import random
from fractions import Fraction

import numpy as np
import pytest
from flint import nmod_mat
from hypothesis import given, settings
from hypothesis import strategies as st

from certify.checker.facts.networks import (
    dim_after_symmetries,
    dim_after_symmetries_source,
    expected_dim_source,
    ktb_formula,
)
from certify.checker.ir import MLP

P = 1_000_003  # products of two residues stay below 2^40: sums of them fit in int64


def generic_rank(widths: list[int], acts: list[list[int]], bias: bool, seed: int = 0) -> int:
    """Rank mod P of the Jacobian of theta -> (f_theta(x_s))_s at a random theta (forward
    mode: z = W hb, dz = W dhb + d(W) hb; h = sigma(z), dh = sigma'(z) dz)."""
    rng = random.Random(seed)
    b = 1 if bias else 0
    shapes = [(widths[i + 1], widths[i] + b) for i in range(len(widths) - 1)]
    n = sum(r * c for r, c in shapes)
    theta = [rng.randrange(1, P) for _ in range(n)]
    S = -(-n // widths[-1]) + 5
    h = np.array([[rng.randrange(P) for _ in range(widths[0])] for _ in range(S)], np.int64)
    dh = np.zeros((S, widths[0], n), np.int64)
    off = 0
    for ell, (r, c) in enumerate(shapes):
        W = np.array(theta[off : off + r * c], np.int64).reshape(r, c)
        if bias:
            h = np.concatenate([h, np.ones((S, 1), np.int64)], axis=1)
            dh = np.concatenate([dh, np.zeros((S, 1, n), np.int64)], axis=1)
        z = (h @ W.T) % P
        dz = np.einsum("ij,sjn->sin", W, dh) % P
        for i in range(r):
            for j in range(c):
                dz[:, i, off + i * c + j] = (dz[:, i, off + i * c + j] + h[:, j]) % P
        off += r * c
        if ell == len(shapes) - 1:
            dh = dz
            break
        val, der = np.zeros_like(z), np.zeros_like(z)
        prev, pw = np.zeros_like(z), np.ones_like(z)
        for k, ck in enumerate(acts[ell]):
            der = (der + (k * ck % P) * prev) % P
            val = (val + (ck % P) * pw) % P
            prev, pw = pw, (pw * z) % P
        h, dh = val, (der[:, :, None] * dz) % P
    return nmod_mat(dh.reshape(S * widths[-1], n).tolist(), P).rank()


def mlp(widths: list[int], acts: list[list[int]], bias: bool = False) -> MLP:
    return MLP(tuple(widths), tuple(tuple(Fraction(c) for c in a) for a in acts), bias)


SQ, CUBE = [0, 0, 1], [0, 0, 0, 1]


def test_the_oracle_reproduces_the_known_ranks_it_is_trusted_for():
    # (3,2,1) t^2: sums of two squares of ternary linear forms, the rank-2 quadrics, dim 5;
    # (2,3,1) t^3: all binary cubics, dim 4
    assert generic_rank([3, 2, 1], [SQ], False) == 5
    assert generic_rank([2, 3, 1], [CUBE], False) == 4


# (widths, activations, generic rank by the oracle): pinned, and equal to dim_after_symmetries
PINNED = [
    ([10, 20, 10, 1], [SQ, SQ], 335),  # issue 13: KTB's formula says 380
    ([3, 2, 1], [SQ], 5),
    ([4, 3, 1], [SQ], 9),
    ([2, 5, 1], [SQ], 3),  # k > m: every binary quadratic form
    ([3, 4, 2, 1], [SQ, SQ], 11),  # q1^2 + q2^2 of ternary quadratics: B, not A = 15
    ([4, 5, 2, 1], [SQ, SQ], 19),
    ([3, 3, 3, 1], [CUBE, [0, 0, 3]], 12),  # KTB's formula says 15
    ([3, 3, 2, 1], [[0, 0, 0, 0, 1], SQ], 11),  # KTB's formula says 12
    ([3, 4, 1], [[0, 0, -2]], 6),  # k > m: every ternary quadratic form
]


@pytest.mark.parametrize("widths,acts,rank", PINNED)
def test_expected_dim_of_a_quadratic_last_layer_is_the_pinned_generic_rank(widths, acts, rank):
    assert generic_rank(widths, acts, False) == rank
    assert dim_after_symmetries(mlp(widths, acts)) == rank


def test_the_issue_13_network_names_both_the_corrected_count_and_ktb_s_own_value():
    net = mlp([10, 20, 10, 1], [SQ, SQ])
    assert ktb_formula(net) == 380 and dim_after_symmetries(net) == 335
    src = dim_after_symmetries_source(net)
    assert "orthogonal group of the quadratic last hidden layer" in src
    assert src.endswith("Kileel-Trager-Bruna's formula gives 380")


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.integers(1, 4), min_size=2, max_size=3),
    st.integers(1, 5),
    st.sampled_from([[0, 0, 1], [0, 0, 5], [0, 0, 0, 1], [0, 0, 0, 0, 1], [0, 0, -1]]),
    st.sampled_from([[0, 0, 1], [0, 0, 2], [0, 0, 0, 1]]),
    st.integers(0, 10**6),
)
def test_expected_dim_never_undercuts_the_generic_rank_of_a_ktb_network(front, k, prev, last, seed):
    """An expected dimension above the generic rank is a defective case (Alexander-
    Hirschowitz); one below it would be a false count: it must never happen."""
    widths = front + [k, 1]
    acts = [prev] * (len(widths) - 3) + [last]
    net = mlp(widths, acts)
    if net.n_params > 70:
        return
    assert generic_rank(widths, acts, False, seed) <= dim_after_symmetries(net)


@pytest.mark.parametrize(
    "widths,acts,bias",
    [
        ([3, 2, 1], [SQ], True),
        ([3, 3, 2], [SQ], False),
        ([2, 3, 1], [[0, 1, 0, 1]], False),
        ([2, 2, 2, 1], [[0, 1, 1], SQ], False),
    ],
)
def test_outside_the_accounted_case_the_source_says_the_bound_is_naive_or_ktb_s(widths, acts, bias):
    """expected_dim is KTB's formula (bias-free monomial) or the naive bound, never a count of
    forms; dim_after_symmetries names the orthogonal group only for a quadratic last layer with
    biases (issue 21: the same symmetry as without biases), and never undercuts the generic
    rank."""
    net = mlp(widths, acts, bias)
    src = expected_dim_source(net)
    assert src.startswith("naive bound") or src.startswith("Kileel-Trager-Bruna's expected")
    assert "orthogonal" not in src and "forms" not in src
    after = dim_after_symmetries_source(net)
    assert ("orthogonal group" in after) == bias and "forms" not in after
    assert generic_rank(widths, acts, bias) <= dim_after_symmetries(net)


# sigma with a linear or constant term on the quadratic last layer: (widths, acts, generic
# rank, naive bound)
AFFINE = [
    ([4, 3, 1], [[0, 1, 1]], 12, 14),  # t^2 + t: rank-3 forms in (h, 1), corner forgotten
    ([3, 2, 1], [[0, 1, 1]], 7, 8),
    ([3, 3, 1], [[1, 1, 1]], 9, 10),  # t^2 + t + 1: rank-3 forms on 4 variables
    ([2, 2, 1], [[1, 1, 1]], 5, 6),
    ([4, 2, 1], [[1, 0, 1]], 8, 10),  # t^2 + 1: rank-2 forms on 4 variables, plus a constant
    ([3, 3, 2, 1], [SQ, [0, -3, 2]], 13, 14),
    ([3, 3, 3, 1], [SQ, [2, 0, 1]], 13, 16),
]


@pytest.mark.parametrize("widths,acts,rank,naive", AFFINE)
def test_a_linear_or_constant_term_keeps_a_quadratic_form_whose_dimension_is_pinned(
    widths, acts, rank, naive
):
    """The extra symmetry is not only the homogeneous square's: with sigma = c2 t^2 + c1 t +
    c0 the last layers still compute a form of rank <= k (in (h, 1) when c1 != 0), so the
    naive count overshoots; dim_after_symmetries counts the form and meets the generic rank."""
    net = mlp(widths, acts)
    assert generic_rank(widths, acts, False) == rank == dim_after_symmetries(net)
    assert ktb_formula(net) == naive
    assert dim_after_symmetries_source(net).endswith(f"the naive bound gives {naive}")


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.integers(1, 4), min_size=2, max_size=3),
    st.integers(1, 5),
    st.sampled_from([[0, 0, 1], [0, 0, 0, 1]]),
    st.tuples(st.integers(-3, 3), st.integers(-3, 3), st.sampled_from([1, -2, 3])),
    st.integers(0, 10**6),
)
def test_expected_dim_never_undercuts_the_generic_rank_for_any_quadratic_last_layer(
    front, k, prev, last, seed
):
    widths = front + [k, 1]
    acts = [prev] * (len(widths) - 3) + [list(last)]
    net = mlp(widths, acts)
    if net.n_params > 70:
        return
    assert generic_rank(widths, acts, False, seed) <= dim_after_symmetries(net)
