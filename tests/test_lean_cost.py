"""The Lean kernel cost model (certify/lean_cost.py, the COST MODEL of lean/NNCert/RankCore.lean):
known values, monotonicity in every argument, and agreement of the Lean docstring's numbers."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest

from certify import lean_cost as LC

ROOT = Path(__file__).resolve().parents[1]
RANK_CORE = ROOT / "lean" / "NNCert" / "RankCore.lean"
ARGS = ("r", "n", "lattice", "dout", "tangents", "moduli")


def test_the_constants_are_the_documented_ones():
    assert LC.DEFAULT_LEAN_MAX_SECONDS == 600
    assert LC.KERNEL_STEPS_PER_SECOND == 1.0e6
    assert (LC.C_ELIM, LC.C_MINOR, LC.C_ROW, LC.C_DOT, LC.EXACT_Q_PASSES) == (20, 3, 120, 25, 4)
    doc = RANK_CORE.read_text()
    for name, value in [("c_e", 20), ("c_c", 3), ("c_r", 120), ("c_d", 25), ("q_Q", 4)]:
        assert f"`{name} = {value}`" in doc, name
    assert "DEFAULT_LEAN_MAX_SECONDS = 600" in doc and "10⁶ steps per" in doc


def test_known_values():
    assert LC.lean_rank_steps(0, 0, 0, 0, 0, 0) == 0
    assert LC.lean_rank_cost(0, 0, 0, 0, 0, 0) == 0
    # r = 3, n = 4, no upper bound: 20 * 27 / 3 + 3 * 9 * 4 / 2 + 120 * 12
    assert LC.lean_rank_steps(3, 4, 0, 1, 0, 0) == pytest.approx(180 + 54 + 1440)
    # r = 0, n = 2, s = 1, L = 5, d = 1, m = 0: 20/3 + 3 * 2 / 2 + 5 * (240 + 50) * 4
    assert LC.lean_rank_steps(0, 2, 5, 1, 1, 0) == pytest.approx(20 / 3 + 3 + 5 * 290 * 4)
    # the same with m = 2 moduli: two passes plus the bound pass
    assert LC.lean_rank_steps(0, 2, 5, 1, 1, 2) == pytest.approx(20 / 3 + 3 + 5 * 290 * 2 + 290)
    # the examples of the RankCore.lean docstring
    assert LC.lean_rank_cost(101, 120, 0, 1, 0, 0) == pytest.approx(10.16, abs=0.01)
    assert LC.lean_rank_cost(335, 410, 0, 1, 0, 0) == pytest.approx(336.1, abs=0.1)
    upper = LC.lean_rank_cost(335, 410, 1001, 1, 75, 2) - LC.lean_rank_cost(335, 410, 0, 1, 0, 0)
    assert upper == pytest.approx(1644.6, abs=0.1)
    assert LC.lean_rank_cost(400, 410, 0, 1, 0, 0) < LC.DEFAULT_LEAN_MAX_SECONDS
    assert LC.lean_rank_cost(420, 430, 0, 1, 0, 0) > LC.DEFAULT_LEAN_MAX_SECONDS
    assert LC.lean_rank_cost(1000, 1010, 0, 1, 0, 0) == pytest.approx(8303, rel=0.01)


def test_the_docstring_examples_are_the_model_s_numbers():
    doc = RANK_CORE.read_text()
    assert "r = 101, n = 120, lower only:\n≈ 1.0 · 10⁷ steps ≈ 10 s" in doc
    assert re.search(r"r = 335, n = 410 \(widths 10, 20, 10, 1, t²\): ≈ 3\.4 · 10⁸ steps", doc)
    assert "adds ≈ 1.6 · 10⁹ steps\n(≈ 27 min)" in doc


GRID = {
    "r": (0, 1, 7, 40),
    "n": (0, 1, 9, 50),
    "lattice": (0, 1, 6, 30),
    "dout": (0, 1, 3),
    "tangents": (0, 1, 4, 20),
    "moduli": (1, 2, 5),  # m = 0 is the exact rational mode, priced separately (below)
}


@pytest.mark.parametrize("arg", ARGS)
def test_the_cost_is_monotone_in_each_argument(arg: str):
    others = [a for a in ARGS if a != arg]
    for values in itertools.product(*(GRID[a][:3] for a in others)):
        base = dict(zip(others, values))
        costs = [LC.lean_rank_cost(**base, **{arg: v}) for v in GRID[arg]]
        assert costs == sorted(costs), (arg, base)
        assert all(c >= 0 for c in costs)


def test_the_exact_mode_costs_exact_q_passes_and_no_bound_pass():
    for r, n, lattice, dout, s in itertools.product((0, 5), (3, 8), (1, 4), (1, 2), (1, 3)):
        lower = LC.lean_rank_steps(r, n, 0, dout, 0, 0) + LC.C_ELIM * s**3 / 3
        lower += LC.C_MINOR * s**2 * n / 2
        per_point = dout * (LC.C_ROW * n + LC.C_DOT * s * n)
        exact = LC.lean_rank_steps(r, n, lattice, dout, s, 0)
        assert exact == pytest.approx(lower + lattice * per_point * LC.EXACT_Q_PASSES)
        one = LC.lean_rank_steps(r, n, lattice, dout, s, 1)
        assert one == pytest.approx(lower + lattice * per_point + per_point)


def test_no_tangents_means_no_upper_bound_work():
    assert LC.lean_rank_steps(5, 9, 1000, 3, 0, 4) == LC.lean_rank_steps(5, 9, 0, 0, 0, 0)


@pytest.mark.parametrize("bad", [-1, 1.5, True, "3"])
def test_counts_must_be_natural_numbers(bad):
    for i in range(len(ARGS)):
        args = [1] * len(ARGS)
        args[i] = bad
        with pytest.raises(ValueError):
            LC.lean_rank_cost(*args)
