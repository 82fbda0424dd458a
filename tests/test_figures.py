"""A figure is drawn once per (name, input, tool sources, matplotlib) and then taken from the
user's cache; a damaged cache entry is redrawn, not trusted; without a cache nothing is kept
(certify/figures.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from certify import figures as F


def _figure(inputs: str, calls: list[str]) -> F.Figure:
    def draw(path: Path) -> None:
        calls.append(inputs)
        path.write_bytes(b"\x89PNG picture of " + inputs.encode())

    return F.Figure(inputs, draw)


def test_a_figure_is_drawn_once_then_taken_from_the_cache(tmp_path):
    calls: list[str] = []
    fig = _figure("rows-1", calls)
    assert F.draw_figure("a.png", fig, tmp_path / "1.png", tmp_path / "cache") == "drawn"
    assert F.draw_figure("a.png", fig, tmp_path / "2.png", tmp_path / "cache") == "hit"
    assert calls == ["rows-1"]
    assert (tmp_path / "1.png").read_bytes() == (tmp_path / "2.png").read_bytes()
    (entry,) = (tmp_path / "cache" / F.SUBDIR).iterdir()  # no temporary file left behind
    assert entry.name.startswith(F.figure_key("a.png", fig))


@pytest.mark.parametrize("change", ["inputs", "name", "matplotlib", "sources"])
def test_anything_the_drawing_depends_on_gives_a_new_key(monkeypatch, change):
    fig = _figure("rows-1", [])
    key = F.figure_key("a.png", fig)
    if change == "inputs":
        fig = _figure("rows-2", [])
    if change == "matplotlib":
        monkeypatch.setattr(F, "_matplotlib_version", lambda: "0.0-other")
    if change == "sources":
        monkeypatch.setattr(F, "tool_sources", lambda: {"sha256": "0" * 64, "files": 1})
    assert F.figure_key("b.png" if change == "name" else "a.png", fig) != key


@pytest.mark.parametrize("damage", ["overwritten", "truncated", "emptied"])
def test_a_damaged_cache_entry_is_redrawn_not_trusted(tmp_path, damage):
    calls: list[str] = []
    fig = _figure("rows-1", calls)
    cache = tmp_path / "cache"
    F.draw_figure("a.png", fig, tmp_path / "1.png", cache)
    (entry,) = (cache / F.SUBDIR).iterdir()
    data = entry.read_bytes()
    damaged = {"overwritten": b"forged" + data[6:], "truncated": data[:5], "emptied": b""}
    entry.write_bytes(damaged[damage])
    assert F.draw_figure("a.png", fig, tmp_path / "2.png", cache) == "drawn"
    assert calls == ["rows-1", "rows-1"]
    assert (tmp_path / "2.png").read_bytes() == data


def test_without_a_cache_every_figure_is_drawn_and_nothing_is_kept(tmp_path):
    calls: list[str] = []
    fig = _figure("rows-1", calls)
    for i in range(2):
        assert F.draw_figure("a.png", fig, tmp_path / f"{i}.png", None) == "drawn"
    assert calls == ["rows-1", "rows-1"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["0.png", "1.png"]


def test_a_cache_that_is_a_file_is_passed_over(tmp_path):
    calls: list[str] = []
    blocker = tmp_path / "cache"
    blocker.write_text("not a directory")
    fig = _figure("rows-1", calls)
    assert F.draw_figure("a.png", fig, tmp_path / "1.png", blocker) == "drawn"
    assert (tmp_path / "1.png").read_bytes().startswith(b"\x89PNG")
    assert blocker.read_text() == "not a directory"
