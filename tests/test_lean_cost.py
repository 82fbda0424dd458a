"""The Lean kernel cost model (certify/lean_cost.py): its calibration on hex's published
timings, monotonicity in every argument, the memory estimate, and agreement of the figures
quoted in docs/lean-kernel.md and lean/NNCert/RankCore.lean with what the model prints."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest

from certify import lean_cost as LC

ROOT = Path(__file__).resolve().parents[1]
RANK_CORE = ROOT / "lean" / "NNCert" / "RankCore.lean"
DOC = ROOT / "docs" / "lean-kernel.md"
ARGS = ("r", "n", "lattice", "dout", "tangents", "moduli")
BEGIN, END = (
    "<!-- begin: python -m certify.lean_cost -->\n",
    "<!-- end: python -m certify.lean_cost -->",
)


def _between(text: str, begin: str, end: str) -> str:
    assert text.count(begin) == 1 and text.count(end) == 1, (begin, end)
    return text.split(begin)[1].split(end)[0]


def test_the_calibration_reproduces_hex_s_timings_within_the_stated_factor():
    # hex-rank.md: 40 x 40 plain in 0.89 s, 64 x 64 plain in 3.9 s; r^3 / 3 dotNat terms.
    assert LC.HEX_CALIBRATION == ((40, 0.89), (64, 3.9))
    for size, measured in LC.HEX_CALIBRATION:
        model = LC.hex_plain_rank_seconds(size)
        assert 1 / LC.CALIBRATION_FACTOR <= model / measured <= LC.CALIBRATION_FACTOR, size
    # 40^3 / 3 multiply-adds, not 40^3: 27-45 us per multiply-add (issue 23), not ~14 us.
    per_muladd = 0.89 / (40**3 / 3)
    assert 27e-6 <= per_muladd <= 45e-6
    assert LC.SECONDS_PER_REDUCTION * LC.R_HEX_TERM == pytest.approx(per_muladd)


def test_the_operation_counts_share_one_unit():
    # Compositions stated in the module docstring (the counts of the Lean code).
    assert LC.R_ELIM == 5 * LC.R_NAT_OP + LC.R_CELL2 == 36
    assert LC.R_ELIM2 == 7 * LC.R_NAT_OP + LC.R_CELL3 == 47
    assert LC.R_CELL3 == LC.R_CELL2 + 1
    assert LC.R_DOT == 3 * LC.R_NAT_OP + LC.R_CELL2 == 26
    assert LC.R_ROW == 3 * (LC.R_INT_MULADD + LC.R_CELL2) + 2 * LC.R_CELL1 == 203
    assert LC.R_ELIM > LC.R_DOT  # an elimination entry has five Nat operations, a term three
    assert LC.R_HEX_TERM < LC.R_DOT  # hex's direct Nat.* in List.rec is the cheap form


def test_known_values():
    assert LC.lean_rank_steps(0, 0, 0, 0, 0, 0) == 0
    assert LC.lean_rank_memory_gib(0, 0, 0, 0, 0, 0) == 0
    # r = 3, n = 4, lower only: two-column elimination 47 * 27 / 6, second pivots 36 * 9 / 4,
    # the minor read in one walk per row 12 * 3 * 4 + 10 * 9, rows and residues (203 + 24) * 12
    assert LC.lean_rank_steps(3, 4, 0, 1, 0, 0) == pytest.approx(211.5 + 81 + 144 + 90 + 2724)
    assert LC.lean_rank_retained(3, 4, 0, 1, 0, 0) == pytest.approx(40.5 + 15.75 + 24 + 18 + 312)
    # r = 0, n = 2, s = 1, L = 5, d = 1, m = 2: two passes plus the bound pass
    per_point = 203 * 2 + 24 * 2 + 26 * 2
    tangent_minor = 47 / 6 + 36 / 4 + 12 * 2 + 10
    expected = tangent_minor + 5 * per_point * 2 + (203 * 2 + 26 * 2)
    assert LC.lean_rank_steps(0, 2, 5, 1, 1, 2) == pytest.approx(expected)
    assert LC.lean_rank_cost(3, 4, 0, 1, 0, 0) == pytest.approx(3250.5 * LC.SECONDS_PER_REDUCTION)


def test_the_large_example_is_past_both_default_limits():
    lower = (335, 410, 0, 1, 0, 0)
    assert LC.lean_rank_cost(*lower) > LC.DEFAULT_LEAN_MAX_SECONDS
    assert LC.lean_rank_memory_gib(*lower) > LC.DEFAULT_LEAN_MAX_GIB
    assert f"{LC.lean_rank_memory_gib(*lower):.1f}" == "57.8"
    # a 40 x 40-sized certificate is well inside both
    assert LC.lean_rank_cost(40, 40, 0, 1, 0, 0) < LC.DEFAULT_LEAN_MAX_SECONDS
    assert LC.lean_rank_memory_gib(40, 40, 0, 1, 0, 0) < LC.DEFAULT_LEAN_MAX_GIB


GRID = {
    "r": (0, 1, 7, 40),
    "n": (0, 1, 9, 50),
    "lattice": (0, 1, 6, 30),
    "dout": (0, 1, 3),
    "tangents": (0, 1, 4, 20),
    "moduli": (1, 2, 5),  # m = 0 is the exact rational mode, priced separately (below)
}
MODEL = (LC.lean_rank_cost, LC.lean_rank_memory_gib, lambda *a: LC.packed_rank_steps(*a)[0])


@pytest.mark.parametrize("arg", ARGS)
@pytest.mark.parametrize("f", MODEL, ids=("time", "memory", "packed"))
def test_the_model_is_monotone_in_each_argument(arg: str, f):
    others = [a for a in ARGS if a != arg]
    for values in itertools.product(*(GRID[a][:3] for a in others)):
        base = dict(zip(others, values))
        costs = [f(*[({**base, arg: v})[a] for a in ARGS]) for v in GRID[arg]]
        assert costs == sorted(costs), (arg, base)
        assert all(c >= 0 for c in costs)


def test_the_exact_mode_costs_exact_q_passes():
    for r, n, lattice, dout, s in itertools.product((0, 5), (3, 8), (1, 4), (1, 2), (1, 3)):
        lower = LC.lean_rank_steps(r, n, 0, dout, 0, 0) + LC.R_ELIM2 * s**3 / 6
        lower += LC.R_ELIM * s**2 / 4 + LC.R_NTH * s * n + LC.R_CELL1 * s**2
        per_point = dout * (LC.R_ROW * n + LC.R_REDUCE * n + LC.R_DOT * s * n)
        exact = LC.lean_rank_steps(r, n, lattice, dout, s, 0)
        assert exact == pytest.approx(lower + lattice * per_point * LC.EXACT_Q_PASSES)


def test_no_tangents_means_no_upper_bound_work():
    assert LC.lean_rank_steps(5, 9, 1000, 3, 0, 4) == LC.lean_rank_steps(5, 9, 0, 0, 0, 0)
    assert LC.lean_rank_retained(5, 9, 1000, 3, 0, 4) == LC.lean_rank_retained(5, 9, 0, 0, 0, 0)


def test_the_packed_design_is_cheaper_and_its_blocks_fit():
    for sh in LC.SHAPES:
        total, block = LC.packed_rank_steps(*sh.args())
        assert block <= total < LC.lean_rank_steps(*sh.args()), sh.name
    big = LC.SHAPES[-2]
    assert big.n == 1000
    total, _ = LC.packed_rank_steps(*big.args())
    assert total * LC.SECONDS_PER_REDUCTION < LC.DEFAULT_LEAN_MAX_SECONDS


def test_the_first_tabulated_shape_is_the_generator_s_certificate():
    from certify.bundle import _lean_shape
    from tests.conftest import make_cert

    assert _lean_shape(make_cert([3, 2, 1], "t^2")) == LC.SHAPES[0].args()


def test_docs_table_is_what_the_model_prints():
    assert _between(DOC.read_text(), BEGIN, END) == LC.lean_kernel_table()


def test_docs_prose_figures_are_the_model_s():
    doc = re.sub(r"\s+", " ", DOC.read_text())
    lower, both = (335, 410, 0, 1, 0, 0), (335, 410, 1001, 1, 75, 2)
    assert (
        f"about {LC.lean_rank_cost(*lower) / 3600:.1f} h and "
        f"{LC.lean_rank_memory_gib(*lower):.0f} GiB" in doc
    )
    assert (
        f"about {LC.lean_rank_cost(*both) / 3600:.1f} h and "
        f"{LC.lean_rank_memory_gib(*both):.0f} GiB" in doc
    )
    k = LC.SHAPES[-2].args()
    tib = LC.lean_rank_memory_gib(*k) / 1024
    assert f"about {LC.lean_rank_cost(*k) / 3600:.0f} h and {tib:.1f} TiB" in doc
    assert f"about {LC.packed_rank_steps(*k)[0] * LC.SECONDS_PER_REDUCTION / 60:.0f} minutes" in doc
    k2 = LC.SHAPES[-1].args()
    assert (
        f"about {LC.packed_rank_steps(*k2)[0] * LC.SECONDS_PER_REDUCTION / 60:.0f} minutes" in doc
    )


def test_rank_core_header_quotes_the_model():
    lean = RANK_CORE.read_text()
    assert _between(lean, BEGIN, END) == LC.lean_kernel_table()
    assert "docs/lean-kernel.md" in lean


@pytest.mark.parametrize("bad", [-1, 1.5, True, "3"])
def test_counts_must_be_natural_numbers(bad):
    for f in (LC.lean_rank_cost, LC.lean_rank_memory_gib, LC.packed_rank_steps):
        for i in range(len(ARGS)):
            args = [1] * len(ARGS)
            args[i] = bad
            with pytest.raises(ValueError):
                f(*args)
    with pytest.raises(ValueError):
        LC.hex_plain_rank_seconds(-1)
