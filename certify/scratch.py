"""Scratch directories that never outlive the run: Ctrl-C, SIGTERM or a failure removes them.

Every temporary directory nn-certify makes while it runs (the provers' scratch copies, a
task's Coq workspace, a cache entry being built) is made by `scratch_dir` or registered with
`register`. An exception (KeyboardInterrupt included) leaves the `with` block and removes
it; a pool worker stopped by SIGTERM, which ends with os._exit and so runs no `finally`,
calls `remove_all()` first (certify/executor.py)."""

from __future__ import annotations

import shutil
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

_LIVE: set[Path] = set()
_LOCK = threading.Lock()


def register(path: Path) -> Path:
    """Remember `path` as scratch: `remove_all()` removes it unless `release(path)` ran."""
    with _LOCK:
        _LIVE.add(Path(path))
    return Path(path)


def release(path: Path) -> None:
    """`path` is no longer scratch (it was renamed into place or already removed)."""
    with _LOCK:
        _LIVE.discard(Path(path))


@contextmanager
def scratch_dir(prefix: str, dir: Path | None = None) -> Iterator[Path]:
    """A fresh directory (tempfile.mkdtemp in `dir`, default $TMPDIR), removed on exit."""
    path = register(Path(tempfile.mkdtemp(prefix=prefix, dir=dir)))
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)
        release(path)


def remove_all() -> None:
    """Remove every registered scratch directory (no lock: a signal handler may call this
    while the interrupted thread holds it)."""
    for path in list(_LIVE):
        shutil.rmtree(path, ignore_errors=True)
        _LIVE.discard(path)
