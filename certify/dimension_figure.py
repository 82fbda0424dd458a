"""figures/dimensions.png: the dimension atlas of a bundle's rank certificates, and a panel
per layered family (mlp, relu) for each sweep of one hidden width.

* Atlas (left): per rank certificate the certified dimension d_cert (the functional
  dimension where the certificate pins it, else the certified lower bound rank_lower on the
  generic rank) against the expected dimension d_exp. Both axes are logarithmic when the
  dimensions span a factor of 10 or more, else linear; the diagonal d_cert = d_exp is
  drawn. Points below it (d_cert < d_exp: a defect where pinned, else a lower bound that
  does not reach d_exp) are numbered; certificates at the same point share one number. The
  numbers are placed by a greedy search over offsets around each point that avoids the
  other numbers and the points (matplotlib alone), and a table (right) names them.
* Sweeps (below, one small panel each): rank rows of one family, activation, bias and
  depth whose widths differ in one hidden layer only, with at least three widths: d_exp
  (open markers, dashed) and d_cert (filled) against that width, each gap d_exp - d_cert > 0
  written above its width. At most `MAX_SWEEPS` panels, the longest sweeps first.

Deterministic: the same rows give byte-identical PNG bytes (Agg backend, no metadata, fixed
order everywhere, no randomness), which `certify check` relies on: it redraws and compares."""

from __future__ import annotations

import math
from collections.abc import Iterable
from pathlib import Path
from typing import Any

MAX_TABLE_ROWS = 24  # numbered points named in the table; the rest: "… and N more"
MAX_SWEEPS = 8
SWEEP_COLUMNS = 4


def is_rank_row(r: dict[str, Any]) -> bool:
    """A results row of a kind whose result carries the dimension columns (the registry
    line's `dimensions`), with an expected dimension to draw against."""
    from certify.checker import registry

    entry = registry.lookup(r.get("family"), r.get("kind"))
    return entry is not None and entry.dimensions and isinstance(r["expected_dim"], int)


def certified_dimension(r: dict[str, Any]) -> int:
    """The functional dimension where pinned, else the certified lower bound rank_lower."""
    fd = r["functional_dimension"]
    return fd if isinstance(fd, int) else r["rank_lower"]


def _status(r: dict[str, Any]) -> str:
    if certified_dimension(r) >= r["expected_dim"]:
        return "meets"
    return "defect" if isinstance(r["functional_dimension"], int) else "lower"


STYLE = {  # status -> (legend label, marker, colour)
    "meets": ("certified = expected", "o", "tab:blue"),
    "defect": ("defective (pinned below expected)", "X", "tab:red"),
    "lower": ("lower bound below expected", "v", "tab:orange"),
}


def layered_widths(r: dict[str, Any]) -> tuple[int, ...] | None:
    """d_0, ..., d_L of a layered network's row (its `widths` cell "2-3-1"), else None (a
    ResNet's cell reads "width 2, depth 3", a DAG's counts its nodes)."""
    parts = str(r.get("widths") or "").split("-")
    if len(parts) < 3 or not all(p.isdigit() for p in parts):
        return None
    return tuple(int(p) for p in parts)


def sweeps(table: Iterable[dict[str, Any]]) -> list[tuple[str, int, list[dict[str, Any]]]]:
    """(title, varying hidden layer index, rows sorted by that width) for every set of >= 3
    rank rows of one family, activation, bias and depth whose widths agree except at one
    hidden layer; longest first, then by title. A row may belong to several sweeps."""
    groups: dict[tuple[Any, ...], dict[int, dict[str, Any]]] = {}
    for r in table:
        w = layered_widths(r) if is_rank_row(r) else None
        if w is None:
            continue
        for i in range(1, len(w) - 1):
            key = (r["family"], str(r["activation"]), str(r["bias"]), i, w[:i] + (0,) + w[i + 1 :])
            groups.setdefault(key, {}).setdefault(w[i], r)  # first row of each width
    out = []
    for (family, act, bias, i, w), by_width in groups.items():
        if len(by_width) < 3:
            continue
        shape = "-".join("H" if j == i else str(x) for j, x in enumerate(w))
        bias_text = {"True": ", bias", "False": ", no bias"}.get(bias, "")
        title = f"{family} {shape}, {act}{bias_text}"
        out.append((title, i, [by_width[k] for k in sorted(by_width)]))
    out.sort(key=lambda s: (-len(s[2]), s[0]))
    return out[:MAX_SWEEPS]


def _place_numbers(
    ax: Any, fig: Any, spots: list[tuple[float, float, str]], points: list[tuple[float, float]]
) -> None:
    """Write each text next to its data point (x, y) at the first offset (in points, tried
    in a fixed order: right, left, above, below, the diagonals, then farther out, with a
    leader line) whose box overlaps no text already placed, no numbered marker and stays
    inside the axes; where none is free, the first with the fewest collisions."""
    renderer = fig.canvas.get_renderer()
    inside = ax.get_window_extent(renderer)
    trans = ax.transData
    marker_boxes = []
    from matplotlib.transforms import Bbox

    for x, y in points:
        px, py = trans.transform((x, y))
        marker_boxes.append(Bbox.from_extents(px - 4, py - 4, px + 4, py + 4))
    placed: list[Any] = []
    dirs = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, 1), (1, -1), (-1, -1)]
    for x, y, text in spots:
        best: tuple[int, Any, Any] | None = None  # (collisions, text, box): fewest, first
        for radius in (7, 13, 20, 28, 38, 50, 64):
            for dx, dy in dirs:
                t = ax.annotate(text, (x, y), xytext=(dx * radius, dy * radius),
                                textcoords="offset points", fontsize=7,
                                ha="left" if dx > 0 else "right" if dx < 0 else "center",
                                va="bottom" if dy > 0 else "top" if dy < 0 else "center",
                                arrowprops={"arrowstyle": "-", "color": "0.5", "lw": 0.5}
                                if radius > 13 else None)  # fmt: skip
                box = t.get_window_extent(renderer).expanded(1.05, 1.1)
                out = not (inside.contains(box.x0, box.y0) and inside.contains(box.x1, box.y1))
                hits = 100 * out + 10 * sum(box.overlaps(b) for b in placed)
                hits += sum(box.overlaps(b) for b in marker_boxes)
                if best is None or hits < best[0]:
                    if best is not None:
                        best[1].remove()
                    best = (hits, t, box)
                else:
                    t.remove()
                if hits == 0:
                    break
            if best is not None and best[0] == 0:
                break
        assert best is not None
        placed.append(best[2])


def log_axes(pts: list[dict[str, Any]]) -> bool:
    """Logarithmic atlas axes: the dimensions span a factor of 10 or more."""
    dims = [d for r in pts for d in (r["expected_dim"], certified_dimension(r))]
    return max(dims, default=1) / max(1, min(dims, default=1)) >= 10


def _atlas(ax: Any, fig: Any, pts: list[dict[str, Any]]) -> list[tuple[int, list[dict[str, Any]]]]:
    """Draw the atlas on `ax`; return the numbered points (number, rows at that point)."""
    dims = [d for r in pts for d in (r["expected_dim"], certified_dimension(r))]
    lo, hi = max(1, min(dims, default=1)), max(dims, default=1)
    log = log_axes(pts)
    if log:
        ax.set_xscale("log")
        ax.set_yscale("log")
        a, b = lo / 1.5, hi * 1.5
    else:
        a, b = 0, hi + 1
    ax.plot([a, b], [a, b], color="0.6", lw=1, zorder=1)
    for status, (label, marker, colour) in STYLE.items():
        xs = [(r["expected_dim"], certified_dimension(r)) for r in pts if _status(r) == status]
        if xs:
            ax.scatter([x for x, _ in xs], [y for _, y in xs], marker=marker, c=colour, s=36,
                       label=f"{label} ({len(xs)})", zorder=3, linewidths=0.5,
                       edgecolors="white")  # fmt: skip
    at: dict[tuple[int, int], list[dict[str, Any]]] = {}
    for r in pts:
        if _status(r) != "meets":
            at.setdefault((r["expected_dim"], certified_dimension(r)), []).append(r)
    numbered = [(n, at[k]) for n, k in enumerate(sorted(at), start=1)]
    ax.set_xlim(a, b)
    ax.set_ylim(a, b)
    ax.set_xlabel("expected dimension" + (" (log scale)" if log else ""))
    ax.set_ylabel("certified dimension" + (" (log scale)" if log else ""))
    ax.set_title(f"Certified vs expected dimension ({len(pts)} rank certificates)", fontsize=10)
    ax.grid(True, alpha=0.3, which="both" if log else "major")
    if pts:
        ax.legend(fontsize=7, loc="upper left")
    return numbered


def _table(ax: Any, numbered: list[tuple[int, list[dict[str, Any]]]]) -> None:
    ax.axis("off")
    if not numbered:
        ax.text(0, 1, "every certified dimension\nreaches the expected one", fontsize=8,
                va="top", family="monospace")  # fmt: skip
        return
    lines = ["#   expected certified  certificate"]
    rows = [(n, r) for n, rs in numbered for r in rs]
    for n, r in rows[:MAX_TABLE_ROWS]:
        mark = "" if _status(r) == "defect" else " (lower bound)"
        name = r["name"] if len(r["name"]) <= 32 else r["name"][:15] + "…" + r["name"][-16:]
        lines.append(f"{n:<3} {r['expected_dim']:>8} {certified_dimension(r):>9}  {name}{mark}")
    if len(rows) > MAX_TABLE_ROWS:
        lines.append(f"… and {len(rows) - MAX_TABLE_ROWS} more (results.csv)")
    ax.set_title("Below the diagonal", fontsize=10, loc="left")
    ax.text(0, 1, "\n".join(lines), fontsize=7, va="top", family="monospace",
            transform=ax.transAxes)  # fmt: skip


def _sweep(ax: Any, title: str, i: int, rows: list[dict[str, Any]]) -> None:
    xs = [layered_widths(r)[i] for r in rows]  # type: ignore[index]
    exp = [r["expected_dim"] for r in rows]
    cert = [certified_dimension(r) for r in rows]
    ax.plot(xs, exp, "--", marker="o", mfc="white", color="0.35", lw=1, ms=5, label="expected")
    ax.plot(xs, cert, "-", marker="o", color="tab:blue", lw=1.2, ms=4, label="certified")
    for x, e, c, r in zip(xs, exp, cert, rows):
        if c < e:
            colour = STYLE[_status(r)][2]
            ax.plot([x], [c], marker=STYLE[_status(r)][1], color=colour, ms=6, zorder=4)
            ax.annotate(f"−{e - c}", (x, e), xytext=(0, 4), textcoords="offset points",
                        ha="center", va="bottom", fontsize=7, color=colour)  # fmt: skip
    ax.set_title(title, fontsize=8)
    ax.set_xticks(xs)
    ax.set_xlabel(f"hidden width d_{i} = H", fontsize=7)
    ax.set_ylabel("dimension", fontsize=7)
    ax.tick_params(labelsize=7)
    top = max(exp + cert)
    ax.set_ylim(min(exp + cert) - 1, top + max(1.0, 0.12 * top))
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=6, loc="upper left")


def draw_dimensions(table: list[dict[str, Any]], out: Path) -> None:
    """Write figures/dimensions.png for these results rows (module docstring)."""
    import matplotlib.pyplot as plt

    fig = figure(table)
    fig.savefig(out, format="png", metadata={"Software": None})
    plt.close(fig)


def figure(table: list[dict[str, Any]]) -> Any:
    """The matplotlib Figure of draw_dimensions (its first axes: the atlas)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    pts = [r for r in table if is_rank_row(r)]
    series = sweeps(pts)
    rows_of_sweeps = math.ceil(len(series) / SWEEP_COLUMNS)
    fig = plt.figure(figsize=(11, 5.2 + 2.6 * rows_of_sweeps), dpi=100)
    grid = fig.add_gridspec(1 + rows_of_sweeps, SWEEP_COLUMNS,
                            height_ratios=[5.2] + [2.6] * rows_of_sweeps)  # fmt: skip
    ax = fig.add_subplot(grid[0, :2])
    tab = fig.add_subplot(grid[0, 2:])
    for k, (title, i, rows) in enumerate(series):
        _sweep(fig.add_subplot(grid[1 + k // SWEEP_COLUMNS, k % SWEEP_COLUMNS]), title, i, rows)
    numbered = _atlas(ax, fig, pts)
    _table(tab, numbered)
    fig.tight_layout(h_pad=1.5)
    fig.canvas.draw()  # the final layout, in which the numbers' boxes are measured
    spots = [(float(rs[0]["expected_dim"]), float(certified_dimension(rs[0])), str(n))
             for n, rs in numbered]  # fmt: skip
    points = sorted({(float(r["expected_dim"]), float(certified_dimension(r))) for r in pts})
    _place_numbers(ax, fig, spots, points)
    return fig
