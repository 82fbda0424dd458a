"""The bundle's pictures, drawn once per input and kept in the user's cache.

A figure is a deterministic function of what it reads (a certificate, or the results table):
matplotlib's Agg backend with no time stamp gives the same PNG bytes for the same input, the
same nn-certify sources and the same matplotlib. `certify run` writes the figure and `certify
check` redraws it and compares bytes; drawing costs about a second (mostly importing
matplotlib), which both would pay again for every bundle. So the PNG is kept under

    <cache base>/figures/<key>.<sha256 of the PNG>.png

where the key is the sha256 of the figure's file name, its input, the sha256 of the tool's
sources (referee.tool_sources) and matplotlib's version: any change to what the drawing
depends on is a new key. A cached file whose bytes do not hash to the sha256 in its name
(a truncated or overwritten file) is ignored and redrawn. The cache is the user's own, as is
the compiled Coq library next to it; `--no-cache` (cache base None) draws afresh and writes
nothing there. A figure illustrates a certificate and certifies nothing (the claims rest on
the certificates), so the cache cannot make a false claim pass."""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as dist_version
from pathlib import Path

from certify.referee import tool_sources

SUBDIR = "figures"


@dataclass(frozen=True)
class Figure:
    """A picture of the bundle: `inputs`, the canonical text of everything `draw` reads;
    `draw(path)` writes the PNG."""

    inputs: str
    draw: Callable[[Path], None]


def _matplotlib_version() -> str:
    try:
        return dist_version("matplotlib")
    except PackageNotFoundError:  # drawing will fail with matplotlib's own error
        return "none"


def figure_key(name: str, fig: Figure) -> str:
    """sha256 of (file name, inputs, tool sources, matplotlib version)."""
    h = hashlib.sha256()
    for part in (name, fig.inputs, tool_sources()["sha256"], _matplotlib_version()):
        h.update(part.encode())
        h.update(b"\0")
    return h.hexdigest()


def _cached(folder: Path, key: str) -> bytes | None:
    """The bytes of a sound cache entry for `key` (its name's sha256 matches), or None."""
    try:
        found = sorted(folder.glob(f"{key}.*.png"))
    except OSError:
        return None
    for p in found:
        digest = p.name[len(key) + 1 : -len(".png")]
        try:
            data = p.read_bytes()
        except OSError:
            continue
        if hashlib.sha256(data).hexdigest() == digest:
            return data
    return None


def _store(folder: Path, key: str, data: bytes) -> None:
    """Atomically add the entry (a new name appears complete or not at all); a cache that
    cannot be written is passed over: the figure is drawn again next time."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{key}.", dir=folder)
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.replace(tmp, folder / f"{key}.{hashlib.sha256(data).hexdigest()}.png")
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError:
        pass


def draw_figure(name: str, fig: Figure, dest: Path, cache_base: Path | None) -> str:
    """Write figure `name` to dest: from the cache when it holds the figure of these inputs
    ("hit"), else drawn and, with a cache, stored ("drawn"); without one, "drawn"."""
    if cache_base is None:
        fig.draw(dest)
        return "drawn"
    folder = Path(cache_base) / SUBDIR
    key = figure_key(name, fig)
    data = _cached(folder, key)
    if data is not None:
        dest.write_bytes(data)
        return "hit"
    fig.draw(dest)
    _store(folder, key, dest.read_bytes())
    return "drawn"
