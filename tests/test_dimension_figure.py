"""figures/dimensions.png (certify/dimension_figure.py): log axes when the dimensions span
decades, numbered points below the diagonal whose labels do not overlap, one panel per
sweep of one hidden width, and byte-identical PNG bytes for the same rows (certify check
redraws and compares)."""

from __future__ import annotations

import io

import pytest

from certify import dimension_figure as D


def row(name, widths, exp, cert, act="t^2", pinned=True, family="mlp"):
    return {"name": name, "kind": "rank", "family": family, "widths": widths, "activation": act,
            "bias": False, "expected_dim": exp, "functional_dimension": cert if pinned else "",
            "rank_lower": cert, "defect": exp - cert if pinned else ""}  # fmt: skip


# The demo's Alexander-Hirschowitz rows (t^2 and t^4 sweeps), two that meet a large expected
# dimension, a lower bound, and a row that is not a rank certificate.
ROWS = [
    row("ah-w4x1x1", "4-1-1", 4, 4), row("ah-w4x2x1", "4-2-1", 8, 7),
    row("ah-w4x3x1", "4-3-1", 10, 9), row("ah-w4x4x1", "4-4-1", 10, 10),
    row("ah-w3x4x1-t4", "3-4-1", 12, 12, "t^4"), row("ah-w3x5x1-t4", "3-5-1", 15, 14, "t^4"),
    row("ah-w3x6x1-t4", "3-6-1", 15, 15, "t^4"), row("ah-w5x7x1-t3", "5-7-1", 35, 34, "t^3"),
    row("ah-w4x9x1-t4", "4-9-1", 35, 34, "t^4"), row("wide", "4-10-5-1", 111, 111),
    row("deep", "2-3-2-1", 10, 8, pinned=False), row("ah-w5x14x1-t4", "5-14-1", 70, 69, "t^4"),
    {"name": "orbit", "kind": "orbit", "family": "tanh", "widths": "1-2-1", "activation": "tanh",
     "bias": "", "expected_dim": "", "functional_dimension": "", "rank_lower": "", "defect": ""},
]  # fmt: skip


def test_sweeps_are_the_rank_rows_that_differ_in_one_hidden_width():
    got = {title: (i, [r["name"] for r in rows]) for title, i, rows in D.sweeps(ROWS)}
    assert got == {
        "mlp 4-H-1, t^2, no bias": (1, ["ah-w4x1x1", "ah-w4x2x1", "ah-w4x3x1", "ah-w4x4x1"]),
        "mlp 3-H-1, t^4, no bias": (1, ["ah-w3x4x1-t4", "ah-w3x5x1-t4", "ah-w3x6x1-t4"]),
    }  # the t^3 and the other t^4 rows have fewer than three widths; the first sweep is longest
    assert list(got)[0] == "mlp 4-H-1, t^2, no bias"


def test_log_axes_exactly_when_the_dimensions_span_a_factor_of_ten():
    assert D.log_axes([row("a", "2-2-1", 3, 3), row("b", "3-3-1", 30, 29)])
    assert not D.log_axes([row("a", "2-2-1", 3, 3), row("b", "3-3-1", 29, 28)])


def _boxes(fig, ax):
    r = fig.canvas.get_renderer()
    nums = [t for t in ax.texts if t.get_text().isdigit()]
    return nums, [t.get_window_extent(r) for t in nums]


def test_every_point_below_the_diagonal_is_numbered_once_without_overlapping_labels():
    import matplotlib.pyplot as plt

    fig = D.figure(ROWS)
    try:
        ax = fig.axes[0]
        assert ax.get_xscale() == "log" and ax.get_yscale() == "log"  # 4 .. 111
        nums, boxes = _boxes(fig, ax)
        # below the diagonal: (8,7) (10,9) (15,14) (35,34) twice (10,8) (70,69): 6 points
        assert sorted(int(t.get_text()) for t in nums) == [1, 2, 3, 4, 5, 6]
        for i, a in enumerate(boxes):
            for b in boxes[i + 1 :]:
                assert not a.overlaps(b)
        table = "\n".join(t.get_text() for t in fig.axes[1].texts)
        assert "ah-w5x7x1-t3" in table and "ah-w4x9x1-t4" in table  # one number, two rows
        assert "deep (lower bound)" in table and "wide" not in table
        assert len(fig.axes) == 2 + 2  # atlas, table, two sweep panels
    finally:
        plt.close(fig)


@pytest.mark.parametrize("rows", [ROWS, ROWS[:1], []], ids=["demo-like", "one", "none"])
def test_the_png_is_byte_identical_for_the_same_rows(tmp_path, rows):
    D.draw_dimensions(rows, tmp_path / "a.png")
    D.draw_dimensions(list(rows), tmp_path / "b.png")
    a = (tmp_path / "a.png").read_bytes()
    assert a[:8] == b"\x89PNG\r\n\x1a\n" and a == (tmp_path / "b.png").read_bytes()
    if rows:
        other = [dict(r) for r in rows]
        other[0]["functional_dimension"] = other[0]["rank_lower"] = 2  # now below the diagonal
        D.draw_dimensions(other, tmp_path / "c.png")
        assert (tmp_path / "c.png").read_bytes() != a


def test_a_png_has_no_time_stamp_or_software_text_chunk(tmp_path):
    D.draw_dimensions(ROWS, tmp_path / "a.png")
    data = io.BytesIO((tmp_path / "a.png").read_bytes())
    data.read(8)
    kinds = []
    while chunk := data.read(8):
        n = int.from_bytes(chunk[:4], "big")
        kinds.append(chunk[4:].decode())
        data.read(n + 4)
    assert "tIME" not in kinds and "tEXt" not in kinds
