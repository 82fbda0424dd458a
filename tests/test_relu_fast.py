"""The vectorised exact ReLU paths (issue 23 item 2) against their references on random small
instances: the region batch (families/relu/witness.region_design vs region_design_reference,
output for output), its building blocks (fast.py vs model.py), the incremental echelon basis vs
maximal_minor, and the checker's integer paths (checker/fast/relu.py) vs the kernel twin
(kernel/relu.py), with rational theta and points and with magnitudes beyond int64."""

from __future__ import annotations

import random
from fractions import Fraction

import numpy as np
import pytest

from certify.algebra.modp import maximal_minor, residue
from certify.checker.facts.relu_net import (
    affine_rank,
    count_patterns,
    forward,
    pattern,
    regions_spanned,
    scaling_tangents,
)
from certify.checker.fast import relu as RF
from certify.checker.kernel import relu as KL
from certify.checker.kernel.arith import acts_mod, rats_mod
from certify.families.relu import fast as FR
from certify.families.relu import model as M
from certify.families.relu import witness as W
from certify.families.relu.spec import ReLUNet

P = 2147483647
SHAPES = [(2, 3, 2), (2, 3, 3, 1), (3, 4, 2), (3, 5, 5, 2), (4, 6, 6, 3), (2, 1, 3, 2),
          (2, 1), (3, 2), (2, 1, 1)]  # fmt: skip


def rand_rat(rng: random.Random, span: int, dens: tuple[int, ...] = (1, 1, 2, 3, 4)) -> Fraction:
    return Fraction(rng.randint(-span, span), rng.choice(dens))


def rand_theta(rng: random.Random, widths, rational: bool, span: int = 4) -> list[Fraction]:
    n = sum(d * (p + 1) for p, d in zip(widths, widths[1:]))
    out = []
    for _ in range(n):
        v = Fraction(0)
        while v == 0:
            v = rand_rat(rng, span) if rational else Fraction(rng.randint(-span, span))
        out.append(v)
    return out


def pairs(xs) -> list[tuple[int, int]]:
    return [(Fraction(v).numerator, Fraction(v).denominator) for v in xs]


def unnormalised(xs, rng: random.Random) -> list[tuple[int, int]]:
    """(num, den) pairs not in lowest terms, as the kernels allow."""
    out = []
    for v in xs:
        k = rng.randint(1, 3)
        out.append((Fraction(v).numerator * k, Fraction(v).denominator * k))
    return out


@pytest.mark.parametrize("widths", SHAPES)
@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("rational", [False, True])
def test_region_design_equals_the_reference_output_for_output(widths, seed, rational):
    rng = random.Random(f"rd/{widths}/{seed}/{rational}")
    net = ReLUNet(tuple(widths))
    theta = tuple(rand_theta(rng, widths, rational))
    tag = f"t{seed}"
    assert W.region_design(net, theta, P, tag) == W.region_design_reference(net, theta, P, tag)


@pytest.mark.parametrize("seed", range(4))
def test_region_design_equals_the_reference_at_a_small_prime(seed):
    # a small prime makes rank deficits mod p and dropped points (p | a denominator) likely
    rng = random.Random(f"small-p/{seed}")
    widths = (3, 4, 3, 2)
    net = ReLUNet(widths)
    theta = tuple(rand_theta(rng, widths, True))
    assert W.region_design(net, theta, 101, "s") == W.region_design_reference(net, theta, 101, "s")


@pytest.mark.parametrize("seed", range(20))
def test_region_simplex_and_signs_equal_model(seed):
    rng = random.Random(f"simplex/{seed}")
    widths = rng.choice(SHAPES)
    theta = rand_theta(rng, widths, seed % 2 == 1, span=rng.choice([3, 9, 40]))
    ils = FR.int_layers(widths, theta)
    pts = [tuple(rand_rat(rng, 12, (1, 1, 3, 7)) for _ in range(widths[0])) for _ in range(12)]
    X, q = FR.scaled_points(pts)
    signs = FR.hidden_signs(ils, X, q)
    for x, sg in zip(pts, signs):
        pres = [a for pre in forward(widths, theta, x)[1] for a in pre]
        assert [int(np.sign(a)) for a in pres] == sg.tolist()
        if not sg.all():
            assert M.region_simplex(widths, theta, x) is None
            continue
        got = FR.region_simplex(ils, widths, theta, x, sg > 0)
        assert got == M.region_simplex(widths, theta, x)
        assert FR.split_pattern(widths, sg > 0) == pattern(forward(widths, theta, x)[1])


def test_region_simplex_takes_the_small_step_path_in_a_thin_region():
    # a thin region: |x0 - x1| < 1/100, so no unit step stays inside and eps steps are needed
    widths = (2, 2, 1)
    theta = [Fraction(100), Fraction(-100), Fraction(1), Fraction(-100), Fraction(100),
             Fraction(1), Fraction(1), Fraction(1), Fraction(0)]  # fmt: skip
    x = (Fraction(1, 3), Fraction(1, 3))
    ils = FR.int_layers(widths, theta)
    X, q = FR.scaled_points([x])
    sg = FR.hidden_signs(ils, X, q)[0]
    got = FR.region_simplex(ils, widths, theta, x, sg > 0)
    assert got == M.region_simplex(widths, theta, x)
    assert any(c.denominator > 1 for z in got[1:] for c in z)


@pytest.mark.parametrize("seed", range(12))
def test_breakpoints_equal_model(seed):
    rng = random.Random(f"bp/{seed}")
    widths = rng.choice([(1, 3, 2), (1, 4, 4, 1), (1, 3, 3, 3, 2)])
    theta = rand_theta(rng, widths, seed % 2 == 1)
    assert FR.breakpoints(widths, theta) == M.breakpoints(widths, theta)


@pytest.mark.parametrize("seed", range(12))
def test_pattern_rows_mod_equals_jacobian_rows_modp(seed):
    rng = random.Random(f"rows/{seed}")
    widths = rng.choice(SHAPES)
    theta = rand_theta(rng, widths, True)
    p = rng.choice([P, 65521, 101])
    th_m = [residue(t, p) for t in theta]
    if any(t is None for t in th_m):
        return
    x = [rand_rat(rng, 9, (1, 5)) for _ in range(widths[0])]
    pat = pattern(forward(widths, theta, x)[1])
    zs = [[residue(c, p) for c in x], [rng.randrange(p) for _ in range(widths[0])]]
    got = FR.pattern_rows_mod(widths, th_m, pat, zs, p)
    want = [r for z in zs for r in M.jacobian_rows_modp(widths, th_m, z, pat, p)]
    assert got.tolist() == want


@pytest.mark.parametrize("seed", range(15))
@pytest.mark.parametrize("probe", [False, True])
def test_echelon_picks_maximal_minors_rows_block_by_block(seed, probe):
    rng = random.Random(f"ech/{seed}")
    p = rng.choice([P, 7, 65521])
    n = rng.randint(1, 12)
    base = [[rng.randrange(p) for _ in range(n)] for _ in range(rng.randint(1, 6))]
    rows = []
    for _ in range(rng.randint(1, 20)):  # combinations of a few rows: many dependent ones
        cs = [rng.randrange(p) if rng.random() < 0.6 else 0 for _ in base]
        rows.append([sum(c * b[j] for c, b in zip(cs, base)) % p for j in range(n)])
    R, C = maximal_minor(rows, p, n)
    ech = FR.Echelon(p, n)
    got, pos = [], 0
    while pos < len(rows):
        k = rng.randint(1, 4)
        block = np.array(rows[pos : pos + k], dtype=np.int64)
        got += [pos + i for i in ech.add(block, probe=probe)]
        pos += k
    assert got == R and ech.rank == len(R)
    # the basis is reduced: identity on the pivots, and it spans every row added
    assert sorted(ech.piv) == sorted(set(ech.piv))
    for r in rows:
        v = np.array(r, dtype=np.int64)
        red = (v[ech.free] - FR._mm(v[ech.piv][None, :], ech.E, p)[0]) % p
        assert not red.any()
    if R and len(R) < n:
        assert FR.pivot_columns(np.array([rows[i] for i in R], dtype=np.int64), p) == C


def test_echelon_probe_takes_no_dependent_row_and_misses_none_here():
    # 300 rows of rank 40 over 60 columns, in blocks: the probes keep exactly the greedy basis
    rng = random.Random("probe")
    base = [[rng.randrange(P) for _ in range(60)] for _ in range(40)]
    coeffs = [[rng.randrange(3) for _ in range(rng.randint(1, 40))] for _ in range(300)]
    rows = np.array([[sum(c * b[j] for c, b in zip(cs, base)) % P for j in range(60)]
                     for cs in coeffs], dtype=np.int64)  # fmt: skip
    a, b = FR.Echelon(P, 60), FR.Echelon(P, 60)
    got_a = a.add(rows[:7]) + [7 + i for i in a.add(rows[7:])]
    got_b = b.add(rows[:7], probe=True) + [7 + i for i in b.add(rows[7:], probe=True)]
    assert got_a == got_b == maximal_minor(rows.tolist(), P, 60)[0]
    assert a.rank == b.rank == 40


def batches(rng: random.Random, widths, m: int, span: int):
    return [[rand_rat(rng, span, (1, 1, 2, 9)) for _ in range(widths[0])] for _ in range(m)]


@pytest.mark.parametrize("seed", range(16))
def test_checker_integer_paths_equal_the_kernel_twin(seed):
    rng = random.Random(f"twin/{seed}")
    widths = list(rng.choice(SHAPES))
    big = seed % 4 == 3  # magnitudes beyond int64: the object-dtype path
    theta_f = rand_theta(rng, widths, seed % 2 == 1, span=10**7 if big else 5)
    batch_f = batches(rng, widths, rng.randint(1, 6), 10**6 if big else 6)
    if seed % 5 == 0:  # a point on a bent hyperplane of the first layer
        row = theta_f[: widths[0]]
        if row[0] != 0:
            z = [Fraction(0)] + [Fraction(1)] * (widths[0] - 1)
            z[0] = -(sum(r * c for r, c in zip(row[1:], z[1:])) + theta_f[widths[0]]) / row[0]
            batch_f.append(z)
    th = unnormalised(theta_f, rng)
    batch = [unnormalised(z, rng) for z in batch_f]
    assert RF.batch_nonzero(widths, th, batch) == KL.batch_nonzero(widths, th, batch)
    assert RF.batch_patterns(widths, th, batch) == KL.batch_patterns(widths, th, batch)
    inst = KL.ReluInstance(widths, th)
    good = scaling_tangents(widths, theta_f)
    if good:
        assert RF.tangents_vanish(widths, th, batch, good) == KL.tangents_vanish_relu(
            inst, batch, good
        )
        bad = [list(t) for t in good]
        bad[rng.randrange(len(bad))][rng.randrange(len(theta_f))] += 1
        assert RF.tangents_vanish(widths, th, batch, bad) == KL.tangents_vanish_relu(
            inst, batch, bad
        )
    rnd = [[rng.randint(-3, 3) for _ in theta_f] for _ in range(2)]
    assert RF.tangents_vanish(widths, th, batch, rnd) == KL.tangents_vanish_relu(inst, batch, rnd)
    p = rng.choice([P, 101])
    if all(d % p for _, d in th) and all(d % p for z in batch for _, d in z):
        inv_t = [pow(d, -1, p) for _, d in th]
        inv_b = [[pow(d, -1, p) for _, d in z] for z in batch]
        th_m, b_m = rats_mod(p, th, inv_t), acts_mod(p, batch, inv_b)
        pats = KL.batch_patterns(widths, th, batch)
        labels = [(rng.randrange(len(batch)), rng.randrange(widths[-1])) for _ in range(5)]
        got = RF.relu_rows_mod(p, widths, pats, th_m, b_m, labels)
        assert got.tolist() == KL.relu_rows_mod(p, widths, pats, th_m, b_m, labels)


def test_scaling_tangents_vanish_and_a_perturbed_one_does_not():
    rng = random.Random("scaling")
    widths = [3, 5, 4, 2]
    theta = rand_theta(rng, widths, True)
    batch = [pairs(z) for z in batches(rng, widths, 8, 6)]
    ts = scaling_tangents(widths, theta)
    assert RF.tangents_vanish(widths, pairs(theta), batch, ts)
    ts[2][0] += 1
    assert not RF.tangents_vanish(widths, pairs(theta), batch, ts)


@pytest.mark.parametrize("seed", range(8))
def test_pattern_counts_and_spanned_equal_the_fraction_reference(seed):
    rng = random.Random(f"span/{seed}")
    widths = rng.choice(SHAPES)
    theta = rand_theta(rng, widths, seed % 2 == 1)
    batch = [tuple(z) for z in batches(rng, widths, rng.randint(1, 10), 4)]
    if seed % 3 == 0:  # whole simplices, so some groups span
        ils = FR.int_layers(widths, theta)
        X, q = FR.scaled_points(batch[:2])
        for x, sg in zip(batch[:2], FR.hidden_signs(ils, X, q)):
            if sg.all():
                batch += FR.region_simplex(ils, widths, theta, x, sg > 0)
    pats = [pattern(forward(widths, theta, z)[1]) for z in batch]
    assert count_patterns(widths, theta, batch) == len(set(pats))
    groups: dict = {}
    for z, pt in zip(batch, pats):
        groups.setdefault(pt, []).append(z)
    want = all(affine_rank(g) == widths[0] for g in groups.values())
    assert regions_spanned(widths, theta, batch) == want
