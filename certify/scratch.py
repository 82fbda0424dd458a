"""Scratch directories that never outlive the run: Ctrl-C, SIGTERM or a failure removes them.

Every temporary directory nn-certify makes while it runs (the provers' scratch copies, a
task's Coq workspace, a cache entry being built) is made by `scratch_dir` or registered with
`register`. An exception (KeyboardInterrupt included) leaves the `with` block and removes
it; a pool worker stopped by SIGTERM, which ends with os._exit and so runs no `finally`,
calls `remove_all()` first (certify/executor.py), and so does a worker of the run's own Dask
cluster when it closes (certify/dask_plugin.py). A directory is registered before it is
made, so a Ctrl-C at any point leaves none that nobody knows of, and whatever a second
Ctrl-C cut short in a `finally` is removed when the interpreter exits (atexit)."""

from __future__ import annotations

import atexit
import os
import secrets
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
    """A fresh directory (mode 0700, like tempfile.mkdtemp) in `dir` (default $TMPDIR: the
    directory tempfile.gettempdir() picks), removed on exit."""
    path = _make(prefix, Path(dir) if dir is not None else Path(tempfile.gettempdir()))
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)
        release(path)


def _make(prefix: str, parent: Path) -> Path:
    """mkdir parent/prefix<16 random hex digits>, registered first: an interrupt between
    the mkdir and the caller's `try` leaves a directory that `remove_all` knows of (and one
    interrupted before its mkdir is a name rmtree ignores). A name
    that exists already (2^-64 per try) belongs to someone else: released, never removed."""
    for _ in range(100):
        path = register(parent / f"{prefix}{secrets.token_hex(8)}")
        try:
            os.mkdir(path, 0o700)
            return path
        except FileExistsError:
            release(path)
    raise FileExistsError(f"no fresh scratch directory name {prefix}* in {parent}")


def remove_all() -> None:
    """Remove every registered scratch directory (no lock: a signal handler may call this
    while the interrupted thread holds it)."""
    for path in list(_LIVE):
        shutil.rmtree(path, ignore_errors=True)
        _LIVE.discard(path)


atexit.register(remove_all)  # a `finally` cut short by a second Ctrl-C: removed at exit
