"""Locate the templates and the Lean/Coq libraries in a checkout or an installed wheel."""

from __future__ import annotations

from pathlib import Path

_PKG = Path(__file__).resolve().parent


def resource_dir(name: str) -> Path:
    """`templates`, `lean` or `coq`: the wheel's copy under certify/_data, else the checkout's."""
    for cand in (_PKG / "_data" / name, _PKG.parent / name):
        if cand.is_dir():
            return cand
    raise FileNotFoundError(f"nn-certify resource directory {name!r} not found")
