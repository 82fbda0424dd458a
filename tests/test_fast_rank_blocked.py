"""rank_blocked / sub_matmul_mod (checker/fast/rank.py) against the unblocked reference
(rank_mod_np, rank_core.nonsingular_mod) on random small instances, and rejection of
tampered rank certificates by the vectorised path."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from certify.checker.fast import rank as fast
from certify.checker.kernel import rank_core as RC

PRIMES = [2, 3, 7, 65521, 2147483629, 2147483647]


@st.composite
def low_rank(draw):
    p = draw(st.sampled_from(PRIMES))
    m = draw(st.integers(0, 150))
    n = draw(st.integers(0, 150))
    k = draw(st.integers(0, 12))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    if k and m and n and draw(st.booleans()):
        A = rng.integers(0, p, size=(m, k), dtype=np.int64)
        B = rng.integers(0, p, size=(k, n), dtype=np.int64)
        M = fast.matmul_mod(A, B, p)
    else:
        M = rng.integers(0, p, size=(m, n), dtype=np.int64)
        if m and n and draw(st.booleans()):
            M[:, : n // 2] = 0  # zero columns force skipped panel columns
    return p, M


@settings(max_examples=60, deadline=None)
@given(low_rank())
def test_rank_blocked_matches_reference(case):
    p, M = case
    assert fast.rank_blocked(M, p) == fast.rank_mod_np(M, p)


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(PRIMES), st.integers(1, 40), st.integers(0, 2**32 - 1), st.booleans())
def test_nonsingular_matches_pure_python(p, r, seed, singular):
    rng = np.random.default_rng(seed)
    M = rng.integers(0, p, size=(r, r), dtype=np.int64)
    if singular and r > 1:
        M[r - 1] = (M[0] * 3 + M[r // 2]) % p
    want = RC.nonsingular_mod(p, r, M.tolist())
    assert (fast.rank_blocked(M, p) == r) == want
    assert fast.nonsingular_np(M, p) == want


@settings(max_examples=20, deadline=None)
@given(st.sampled_from(PRIMES), st.integers(1, 64), st.integers(0, 2**32 - 1))
def test_sub_matmul_mod_exact(p, k, seed):
    rng = np.random.default_rng(seed)
    C = rng.integers(0, p, size=(9, 13), dtype=np.int64)
    A = np.full((9, k), p - 1, dtype=np.int64) if seed % 3 == 0 else rng.integers(0, p, (9, k))
    B = rng.integers(0, p, size=(k, 13), dtype=np.int64)
    got = fast.sub_matmul_mod(C.astype(np.float64), A, B.astype(np.float64), p)
    want = (C - fast.matmul_mod(A, B, p)) % p
    assert got.astype(np.int64).tolist() == want.tolist()


def test_large_singular_minor_rejected():
    """Above the blocked threshold: a dependent row (or column) makes the minor singular."""
    p = 2147483647
    rng = np.random.default_rng(1)
    M = rng.integers(0, p, size=(300, 300), dtype=np.int64)
    assert fast.nonsingular_np(M, p)
    S = M.copy()
    S[250] = (S[3] * 7 + S[100] * 11) % p
    assert not fast.nonsingular_np(S, p)
    S = M.copy()
    S[:, 299] = (S[:, 0] + S[:, 70]) % p
    assert not fast.nonsingular_np(S, p)
    assert fast.rank_blocked(S, p) == 299


def _cert():
    from certify.families import generate_certificate
    from certify.spec import parse_spec

    spec = parse_spec(
        {"name": "fastrank", "network": {"family": "mlp", "widths": [4, 10, 5, 1],
                                         "activation": "t^2", "bias": False},
         "parameters": {"seed": 1}, "certificate": [{"kind": "rank"}]}, "<test>",
    )  # fmt: skip
    return generate_certificate(spec, spec.certificates[0])


def test_tampered_rank_certificates_rejected():
    """95 parameters: the generic ranks (98 x 95 Jacobians) go through rank_blocked (two
    panels; the 35 x 35 minor through the unblocked path). A wrong recorded rank, a repeated
    row of the minor, a composite prime (lower or generic) are rejected."""
    import copy

    from certify.checker import check_certificate

    cert = _cert()
    assert check_certificate(cert) == []
    bad = copy.deepcopy(cert)
    bad["witness"]["generic"]["ranks"][0] += 1
    assert check_certificate(bad)
    bad = copy.deepcopy(cert)
    low = bad["witness"]["lower"]
    low["rows"][-1] = list(low["rows"][0])  # a repeated row: a singular minor
    assert check_certificate(bad)
    bad = copy.deepcopy(cert)
    bad["witness"]["lower"]["prime"] = 2147483647 - 1  # not a prime
    assert check_certificate(bad)
    bad = copy.deepcopy(cert)
    bad["witness"]["generic"]["prime"] = 2147483629 * 1 + 2  # composite
    assert check_certificate(bad)
