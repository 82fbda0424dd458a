"""The shared rank core and the reverse-mode rows: the pure-Python twin, its vectorised
production path (checker/fast/rank.py), an independent oracle (FLINT) and Coq (vm_compute) agree."""

from __future__ import annotations

import random

import numpy as np
import pytest
from flint import nmod_mat
from hypothesis import given, settings
from hypothesis import strategies as st

from certify.checker.fast import rank as fast
from certify.checker.kernel import rank_core as RC
from certify.checker.kernel import resnet as KR
from certify.checker.kernel.arith import ARITH_Z, arith_mod, ints_mod, unit_vec, zeros
from certify.checker.kernel.net import n_params, net_eval, net_row

PRIMES = [2, 3, 7, 101, 2147483647]


def _matrix(rng: random.Random, r: int, p: int, singular: bool) -> list[list[int]]:
    M = [[rng.randrange(p) for _ in range(r)] for _ in range(r)]
    if singular and r >= 2:
        i, j = rng.sample(range(r), 2)
        a = rng.randrange(p)
        M[i] = [(a * x) % p for x in M[j]]  # row i = a * row j
    return M


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 10**9), st.integers(0, 7), st.sampled_from(PRIMES), st.booleans())
def test_elimination_decides_nonsingularity_exactly_as_flint_rank(seed, r, p, singular):
    M = _matrix(random.Random(seed), r, p, singular)
    full = r == 0 or nmod_mat(M, p).rank() == r
    assert RC.nonsingular_mod(p, r, M) == full
    assert fast.nonsingular_np(np.array(M, dtype=np.int64).reshape(r, r), p) == full


@pytest.mark.parametrize("p", [7, 101, 2147483647])
@pytest.mark.parametrize("r, rank_drop", [(40, 0), (40, 1), (150, 0), (150, 3), (300, 0), (300, 1)])
def test_blocked_elimination_decides_nonsingularity_exactly_as_flint_rank(p, r, rank_drop):
    rng = np.random.default_rng(r * 7 + rank_drop + p % 13)
    if rank_drop:
        k = r - rank_drop
        M = fast.matmul_mod(
            rng.integers(0, p, size=(r, k), dtype=np.int64),
            rng.integers(0, p, size=(k, r), dtype=np.int64),
            p,
        )
    else:
        M = rng.integers(0, p, size=(r, r), dtype=np.int64)
    want = nmod_mat(M.tolist(), p).rank() == r
    for block, rows in ((4, 37), (16, 2048), (64, 2048)):
        assert fast.nonsingular_blocked(M, p, block=block, rows=rows) == want
    assert fast.nonsingular_np(M, p) == want


def test_blas_products_mod_p_are_exact():
    p = 2147483647
    rng = np.random.default_rng(3)
    A = rng.integers(p - 1000, p, size=(5, 3000), dtype=np.int64)
    B = rng.integers(0, p, size=(3000, 4), dtype=np.int64)
    assert fast.matmul_mod_blas(A, B, p).tolist() == fast.matmul_mod(A, B, p).tolist()


def test_the_prime_test_of_the_fast_path_is_exact_below_2_31():
    from flint import fmpz

    for q in [*range(0, 3000), *range(2**31 - 2000, 2**31), 3215031751 - 2]:
        assert fast.is_prime_31(q) == bool(q > 1 and fmpz(q).is_prime()), q


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 10**9), st.integers(2, 6), st.sampled_from([4, 6, 8, 9, 12, 15]))
def test_elimination_never_accepts_a_matrix_singular_mod_a_composite_modulus(seed, r, q):
    """Chio's identity: every fraction-free step multiplies det by a power of the pivot, so a
    'nonsingular' answer means det != 0 mod q whatever q is (primality only matters for
    completeness)."""
    rng = random.Random(seed)
    M = [[rng.randrange(q) for _ in range(r)] for _ in range(r)]
    from sympy import Matrix

    if RC.nonsingular_mod(q, r, M):
        assert Matrix(M).det() % q != 0
    assert RC.nonsingular_mod(q, r, M) == fast.nonsingular_np(np.array(M, dtype=np.int64), q)


def _random_mlp(rng: random.Random) -> tuple[list[int], list[list[int]], bool, list[int]]:
    widths = [rng.randint(1, 3) for _ in range(rng.randint(2, 4))]
    bias = rng.random() < 0.5
    acts = [[rng.randint(-3, 3) for _ in range(rng.randint(2, 4))] for _ in widths[2:]]
    theta = [rng.randint(-4, 4) for _ in range(n_params(widths, bias))]
    return widths, acts, bias, theta


@pytest.mark.parametrize("seed", range(40))
def test_reverse_mode_rows_equal_forward_mode_directional_derivatives(seed):
    rng = random.Random(seed)
    widths, acts, bias, theta = _random_mlp(rng)
    x = [rng.randint(-3, 3) for _ in range(widths[0])]
    ar, n = ARITH_Z, len(theta)
    for k in range(widths[-1]):
        row = net_row(ar, widths, acts, bias, theta, x, k)
        zero = zeros(ar, len(x))
        fw = [net_eval(ar, widths, acts, bias, theta, unit_vec(ar, n, c), x, zero)[1][k]
              for c in range(n)]  # fmt: skip
        assert row == fw
    w, depth, outer = rng.randint(1, 3), rng.randint(1, 3), rng.random() < 0.5
    racts = [[rng.randint(-3, 3) for _ in range(rng.randint(2, 4))] for _ in range(depth)]
    rth = [rng.randint(-3, 3) for _ in range(depth * KR.layer_size(w, outer))]
    x = [rng.randint(-3, 3) for _ in range(w)]
    for k in range(w):
        row = KR.resnet_row(ar, w, outer, racts, rth, x, k)
        zero = zeros(ar, w)
        fw = [KR.resnet_dual(ar, w, outer, racts, rth, unit_vec(ar, len(rth), c), x, zero)[1][k]
              for c in range(len(rth))]  # fmt: skip
        assert row == fw


@pytest.mark.parametrize("seed", range(40))
def test_vectorised_rows_equal_the_twin_rows_mod_p(seed):
    rng = random.Random(seed)
    p = rng.choice([101, 2147483647])
    widths, acts, bias, theta = _random_mlp(rng)
    th_m, acts_m = ints_mod(p, theta), [ints_mod(p, a) for a in acts]
    X = [[rng.randint(-20, 20) for _ in range(widths[0])] for _ in range(5)]
    ar = arith_mod(p)
    for k in range(widths[-1]):
        got = fast.mlp_rows_np(p, widths, acts_m, bias, th_m, fast.as_mod(X, p, widths[0]), k)
        want = [net_row(ar, widths, acts_m, bias, th_m, ints_mod(p, x), k) for x in X]
        assert got.tolist() == want
    w, depth, outer = rng.randint(1, 3), rng.randint(1, 3), rng.random() < 0.5
    racts = [ints_mod(p, [rng.randint(-3, 3) for _ in range(3)]) for _ in range(depth)]
    rth = ints_mod(p, [rng.randint(-3, 3) for _ in range(depth * KR.layer_size(w, outer))])
    X = [[rng.randint(-9, 9) for _ in range(w)] for _ in range(4)]
    for k in range(w):
        got = fast.resnet_rows_np(p, w, outer, racts, rth, fast.as_mod(X, p, w), k)
        want = [KR.resnet_row(ar, w, outer, racts, rth, ints_mod(p, x), k) for x in X]
        assert got.tolist() == want


def test_matmul_mod_is_exact_near_the_prime_bound():
    p = 2147483647
    rng = np.random.default_rng(0)
    A = rng.integers(p - 1000, p, size=(7, 40000), dtype=np.int64)
    B = rng.integers(p - 1000, p, size=(40000, 3), dtype=np.int64)
    want = [[sum(int(a) * int(b) for a, b in zip(A[i], B[:, j])) % p for j in range(3)]
            for i in range(7)]  # fmt: skip
    assert fast.matmul_mod(A, B, p).tolist() == want


def test_exactness_from_residues_needs_coprime_moduli_whose_product_exceeds_the_bound():
    assert RC.moduli_ok([2147483647, 2147483629])
    assert not RC.moduli_ok([6, 9])  # gcd 3
    assert not RC.moduli_ok([2**31])
    assert RC.prod_z([3, 5, 7]) == 105
    assert RC.kill_bound([[2, 3]], [[1, -4], [5, 0]]) == 14
    assert RC.kills_mod(7, [[1, 2, 3]], [[1, 3, 0]]) is True  # 1 + 6 = 7
    assert RC.kills_mod(7, [[1, 2, 3]], [[1, 1, 0]]) is False
