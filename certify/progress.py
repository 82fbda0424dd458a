"""Progress lines, a progress bar, and phase timings.

The run's own phases (the Coq library, Lean, figures) run inside `Progress.phase`. A phase
that runs longer than `threshold` seconds gets a line when it passes the threshold, one
every `interval` seconds after that, and one when it ends, each with its elapsed time; short
phases stay silent. The certificate tasks are counted with `start` / `done` / `finish`: on
an interactive terminal a tqdm bar (certificates done of total, rate, the last one's
name), otherwise one line per finished task ("[certify] 3/16 name: coq passed"). The CLI
prefixes every line with a UTC timestamp when stderr is not a terminal, and prints nothing
with --quiet (`for_stream`). Seconds of every phase are kept for logs/timings.json, never in
the deterministic parts of a bundle."""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any


@dataclass
class Phase:
    label: str
    start: float
    seconds: float | None = None
    announced: float | None = None  # monotonic time of the last progress line
    task: bool = False  # a phase of one certificate task: on the bar, and always a done line


class Progress:
    def __init__(
        self,
        emit: Callable[[str], None] = lambda s: None,
        threshold: float = 2.0,
        interval: float = 10.0,
        bar: bool = False,
    ) -> None:
        self._emit = emit
        self._use_bar = bar
        self._bar: Any = None
        self._total = 0
        self._done = 0
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

    def emit(self, line: str) -> None:
        """Print one line (through the bar while it is shown, so the bar stays intact)."""
        if self._bar is not None:
            self._bar.write(line, file=sys.stderr)
        else:
            self._emit(line)

    def say(self, line: str) -> None:
        with self._lock:
            self.emit(line)

    def start(self, total: int) -> None:
        """`total` certificate tasks are about to run."""
        self._total, self._done = total, 0
        if self._use_bar and total:
            from tqdm import tqdm

            self._bar = tqdm(total=total, unit="task", desc="certify", file=sys.stderr,
                             dynamic_ncols=True, leave=True)  # fmt: skip

    def done(self, name: str, info: str = "") -> None:
        """A task finished (`info`: its verdicts, e.g. "coq passed")."""
        with self._lock:
            self._done += 1
            if self._bar is not None:
                self._bar.set_postfix_str(name[:40], refresh=False)
                self._bar.update(1)
            else:
                tail = f": {info}" if info else ""
                self._emit(f"[certify] {self._done}/{self._total} {name}{tail}")

    def finish(self) -> None:
        with self._lock:
            if self._bar is not None:
                self._bar.close()
                self._bar = None

    def _tick(self) -> None:
        while not self._stop.wait(min(0.25, self.threshold / 4)):
            now = time.monotonic()
            with self._lock:
                for ph in self._active.values():
                    if ph.task and self._bar is not None:
                        self._bar.set_postfix_str(f"{ph.label[:50]} {now - ph.start:.0f} s")
                        continue  # on a terminal the bar shows it; no lines
                    since = ph.announced if ph.announced is not None else ph.start
                    due = self.threshold if ph.announced is None else self.interval
                    if now - since >= due:
                        ph.announced = now
                        self.emit(f"[certify] {ph.label}: running, {now - ph.start:.0f} s")

    @contextmanager
    def phase(self, label: str, task: bool = False) -> Iterator[Phase]:
        """Time `label`; lines as the module says. A `task` phase (one phase of one
        certificate task, `step`) always gets its done line and, on a terminal, shows on
        the bar with its elapsed time instead of running lines."""
        ph = Phase(label, time.monotonic(), task=task)
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
                if ok and (task or ph.seconds >= self.threshold):
                    self.emit(f"[certify] {label}: done in {ph.seconds:.1f} s")

    def phases_done(self, task: str, seconds: dict[str, dict[str, float | None]]) -> None:
        """The completed phases of a task that ran elsewhere (a pool worker, a cluster): one
        line with the seconds of each, summed over the task's certificates (generate, once
        for the task, counted once)."""
        total: dict[str, float] = {}
        for i, secs in enumerate(seconds.values()):
            for p, sec in secs.items():
                if sec is not None and (p != "generate" or i == 0):
                    total[p] = total.get(p, 0.0) + sec
        if total:
            self.say(f"[certify] {task}: " + ", ".join(f"{PHASE_LABELS.get(p, p)} {sec:.1f} s"
                                                      for p, sec in total.items()))  # fmt: skip

    def mute(self) -> None:
        """No more lines (Ctrl-C: the interrupt message is the last thing printed)."""
        with self._lock:
            self._emit = lambda s: None
            if self._bar is not None:
                self._bar.disable = True
                self._bar = None

    def close(self) -> None:
        self.finish()
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None


PHASE_LABELS = {"coq": "coqc"}  # the seconds keys of a task (table.PHASES) as shown

# The Progress of the certificate tasks that run in this process (`live`); a pool worker's or
# a cluster worker's is None, and `step` is silent there (the run reports the task's phases
# when its outcome arrives: Progress.phases_done).
_LIVE: Progress | None = None


@contextmanager
def live(prog: Progress | None) -> Iterator[None]:
    """While the tasks run in this process, their phases (`step`) go to `prog`."""
    global _LIVE
    saved, _LIVE = _LIVE, prog
    try:
        yield
    finally:
        _LIVE = saved


@contextmanager
def step(task: str, phase: str) -> Iterator[None]:
    """One phase (generate, checker, coqc) of the certificate task `task`: a line when it
    ends, with its seconds, and its elapsed time on the bar, if the task runs in this process
    under `live`; nothing otherwise."""
    prog = _LIVE
    if prog is None:
        yield
        return
    with prog.phase(f"{task}: {phase}", task=True):
        yield


def timestamped(emit: Callable[[str], None]) -> Callable[[str], None]:
    """`emit` with a UTC timestamp in front of every line (logs, CI)."""

    def out(line: str) -> None:
        emit(f"{datetime.now(UTC).strftime('%Y-%m-%dT%H:%M:%SZ')} {line}")

    return out


def for_stream(quiet: bool, stream: Any = None) -> Progress:
    """The CLI's progress: nothing with `quiet`; a tqdm bar and plain lines on an
    interactive terminal; timestamped lines otherwise (`stream`: default stderr)."""
    stream = sys.stderr if stream is None else stream

    def say(line: str) -> None:
        print(line, file=stream, flush=True)

    if quiet:
        return Progress(lambda s: None)
    if stream.isatty():
        return Progress(say, bar=True)
    return Progress(timestamped(say))
