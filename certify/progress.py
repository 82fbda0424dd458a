"""Progress lines and phase timings.

Every phase (generation, checker, render, each prover call) runs inside `Progress.phase`.
A phase that runs longer than `threshold` seconds gets a line when it passes the threshold,
one every `interval` seconds after that, and one when it ends, each with its elapsed time;
short phases stay silent. Seconds of every phase are kept for logs/timings.json, never in
the deterministic parts of a bundle."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any


@dataclass
class Phase:
    label: str
    start: float
    seconds: float | None = None
    announced: float | None = None  # monotonic time of the last progress line


class Progress:
    def __init__(
        self,
        emit: Callable[[str], None] = lambda s: None,
        threshold: float = 2.0,
        interval: float = 10.0,
    ) -> None:
        self.emit = emit
        self.threshold = threshold
        self.interval = interval
        self._active: dict[int, Phase] = {}
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.timings: dict[str, Any] = {"library": {}, "certificates": {}}

    def record(self, name: str, phase: str, seconds: float | None) -> None:
        """Seconds of `phase` (generate, checker, render, coq, lean) of certificate `name`."""
        self.timings["certificates"].setdefault(name, {})[phase] = seconds

    def say(self, line: str) -> None:
        with self._lock:
            self.emit(line)

    def _tick(self) -> None:
        while not self._stop.wait(min(0.25, self.threshold / 4)):
            now = time.monotonic()
            with self._lock:
                for ph in self._active.values():
                    since = ph.announced if ph.announced is not None else ph.start
                    due = self.threshold if ph.announced is None else self.interval
                    if now - since >= due:
                        ph.announced = now
                        self.emit(f"[certify] {ph.label}: running, {now - ph.start:.0f} s")

    @contextmanager
    def phase(self, label: str) -> Iterator[Phase]:
        ph = Phase(label, time.monotonic())
        with self._lock:
            self._active[id(ph)] = ph
            if self._thread is None:
                self._thread = threading.Thread(target=self._tick, daemon=True)
                self._thread.start()
        ok = False
        try:
            yield ph
            ok = True
        finally:
            ph.seconds = time.monotonic() - ph.start
            with self._lock:
                del self._active[id(ph)]
                if ok and ph.seconds >= self.threshold:
                    self.emit(f"[certify] {label}: done in {ph.seconds:.1f} s")

    def mute(self) -> None:
        """No more lines (Ctrl-C: the interrupt message is the last thing printed)."""
        with self._lock:
            self.emit = lambda s: None

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None
