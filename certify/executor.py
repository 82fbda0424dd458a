"""Where the certificate tasks run: in this process (``--jobs 1``), in a process pool
(``--jobs N``, the default executor "local"), or on a Dask distributed cluster
(``--executor dask --scheduler ADDRESS``; the optional extra ``nn-certify[dask]``), or on a
Dask cluster of ``--workers N`` local worker processes that the run starts and stops itself
(``--executor dask`` without ``--scheduler``).

A task is one [[certificate]] request of one spec: generate -> check -> render -> coqc
(bundle.certify_task). Its outcome is a pure function of the spec and the tool's sources, so
the bundle assembled from the outcomes (in request order, whatever order they finish in) is
byte-identical whichever executor ran them. A task that raises, or a worker that dies, fails
the whole run before any bundle is written (a CertifyError; the run's temporary directory is
removed), so nothing that looks complete is left behind."""

from __future__ import annotations

import multiprocessing
import os
import pickle
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from typing import Any

from certify.errors import CertifyError

EXECUTORS = ("local", "dask")


class ExecutorError(CertifyError):
    """The executor could not run every task (a worker died, the cluster is unreachable, a
    worker runs other nn-certify sources): no bundle is written. Exit code 1."""


def run_tasks(
    fn: Callable[..., Any],
    tasks: list[tuple[Any, ...]],
    jobs: int,
    executor: str = "local",
    scheduler: str | None = None,
    workers: int | None = None,
) -> Iterator[tuple[int, Any]]:
    """Yield (index, fn(*tasks[index])) as tasks finish. With executor "dask" and no
    `scheduler`: on a local Dask cluster of `workers` processes (default `jobs`), started
    here and shut down when the tasks are done, fail or are interrupted."""
    if executor == "dask" and not scheduler:
        yield from _dask_local(fn, tasks, workers or jobs)
    elif executor == "dask":
        yield from _dask(fn, tasks, scheduler)
    elif jobs <= 1 or len(tasks) <= 1:
        for i, t in enumerate(tasks):
            yield i, fn(*t)
    else:
        yield from _pool(fn, tasks, jobs)


def _worker_init() -> None:
    """In a pool worker, SIGTERM (the certify process stopping the pool: Ctrl-C, a failure)
    kills the running coqc (it runs in its own session), removes the task's scratch
    directories (certify/scratch.py) and ends the worker at once; SIGINT is left to the
    certify process, which stops the pool."""
    from certify import scratch
    from certify.provers import common

    def stop(signum: int, frame: Any) -> None:
        procs = list(common._LIVE)  # no lock: the interrupted thread may hold it
        for p in procs:
            common._kill(p)
        for p in procs:  # killed processes write nothing more into the scratch directories
            try:
                os.waitpid(p.pid, 0)
            except OSError:
                pass
        scratch.remove_all()
        os._exit(1)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextmanager
def _workers_skip_main() -> Iterator[None]:
    """While workers start: multiprocessing would have each one re-run the caller's script
    (the `__main__` module, by its path) before it takes a task. A plain script that calls
    api.run(..., jobs=2) without an `if __name__ == "__main__":` guard then calls it again
    inside the worker, which dies. The tasks need nothing from `__main__` (the task function
    and its arguments are certify's own), so the script's path is hidden from the workers'
    start-up data (multiprocessing.spawn.get_preparation_data reads `__main__.__file__` and
    `__main__.__spec__`) for the few statements that start them."""
    main = sys.modules.get("__main__")
    if main is None:
        yield
        return
    saved = {k: main.__dict__[k] for k in ("__file__", "__spec__") if k in main.__dict__}
    main.__dict__.pop("__file__", None)
    main.__dict__["__spec__"] = None  # read with getattr(main.__spec__, "name", None)
    try:
        yield
    finally:
        if "__spec__" not in saved:
            main.__dict__.pop("__spec__", None)
        main.__dict__.update(saved)


def _pool(
    fn: Callable[..., Any], tasks: list[tuple[Any, ...]], jobs: int
) -> Iterator[tuple[int, Any]]:
    # forkserver: workers are forked from a clean server process, never from this one (which
    # runs the progress thread); the server imports the tool once.
    ctx = multiprocessing.get_context("forkserver")
    ctx.set_forkserver_preload(["certify.bundle"])
    pool = ProcessPoolExecutor(
        max_workers=min(jobs, len(tasks)), mp_context=ctx, initializer=_worker_init
    )
    try:
        with _workers_skip_main():  # ProcessPoolExecutor starts its workers on submit
            futures = {pool.submit(fn, *t): i for i, t in enumerate(tasks)}
        pending = set(futures)
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for f in done:
                try:
                    yield futures[f], f.result()
                except BrokenProcessPool as e:
                    raise ExecutorError(f"a worker process died ({e}); no bundle written") from None
    except BaseException:
        # Ctrl-C or a failure: stop the running tasks (and their coqc), then the pool. The
        # processes are taken first: shutdown() forgets them.
        procs = list((getattr(pool, "_processes", None) or {}).values())
        for p in procs:
            p.terminate()
        pool.shutdown(wait=False, cancel_futures=True)
        for p in procs:
            p.join(timeout=10)
        raise
    pool.shutdown()


def _need_distributed() -> None:
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise ExecutorError(
            "--executor dask needs the optional extra: pip install 'nn-certify[dask]'"
        ) from None


def _dask_local(
    fn: Callable[..., Any], tasks: list[tuple[Any, ...]], workers: int
) -> Iterator[tuple[int, Any]]:
    """The tasks on a `distributed.LocalCluster` of `workers` worker processes (one thread
    each: a task is CPU-bound Python and coqc), with no dashboard and its worker spaces in a
    scratch directory of the run; closed (workers stopped, their coqc killed, the directory
    removed) however the run ends."""
    _need_distributed()
    import logging

    import dask
    from distributed import Client, LocalCluster

    from certify import scratch
    from certify.dask_plugin import StopProversOnClose

    with (
        scratch.scratch_dir("nn-certify-dask-") as space,
        dask.config.set({"temporary-directory": str(space)}),  # the scheduler's space too
    ):
        quiet = logging.getLogger("distributed")
        level = quiet.level
        quiet.setLevel(logging.ERROR)  # no INFO lines about workers starting and stopping
        cluster = client = None
        try:
            with _workers_skip_main():  # the nannies spawn the workers as the pool does
                cluster = LocalCluster(
                    n_workers=workers,
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=None,
                    local_directory=str(space),
                    silence_logs=logging.ERROR,
                )
                client = Client(cluster, set_as_default=False)
                client.register_plugin(StopProversOnClose())
            yield from _on_client(client, fn, tasks)
        finally:
            with _signals_deferred():
                if client is not None:
                    client.close(timeout=_CLOSE_SECONDS)
                if cluster is not None:
                    cluster.close(timeout=_CLOSE_SECONDS)
            quiet.setLevel(level)


_CLOSE_SECONDS = 20  # a worker that does not stop in this time is left to its nanny's end


@contextmanager
def _signals_deferred() -> Iterator[None]:
    """SIGINT and SIGTERM held back (delivered on exit) while the cluster shuts down.

    Why: a KeyboardInterrupt (or the CLI's SIGTERM twin) raised inside `Client.close` or
    `LocalCluster.close` abandons the shutdown half-way, with the event-loop thread and the
    nannies still alive, and the interpreter then waits for them (a run sent SIGTERM just
    after its last task took 10 s to exit; one once hung for over an hour, not reproduced
    since). Blocking the signals keeps the shutdown whole; a signal that arrived meanwhile is
    delivered when they are unblocked, so the run still stops as asked (and its clean-up
    runs)."""
    held = {signal.SIGINT, signal.SIGTERM}
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def _dask(
    fn: Callable[..., Any], tasks: list[tuple[Any, ...]], scheduler: str | None
) -> Iterator[tuple[int, Any]]:
    _need_distributed()
    from distributed import Client

    if not scheduler:
        raise ExecutorError("--executor dask needs --scheduler ADDRESS (e.g. tcp://host:8786)")
    try:
        # the connect timeout is Dask's own setting, distributed.comm.timeouts.connect
        # (default 30 s; e.g. DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT=5s)
        client = Client(scheduler, set_as_default=False)
    except OSError as e:
        raise ExecutorError(f"--scheduler {scheduler}: cannot connect ({e})") from None
    try:
        yield from _on_client(client, fn, tasks)
    finally:
        with _signals_deferred():
            client.close(timeout=_CLOSE_SECONDS)


def _on_client(
    client: Any, fn: Callable[..., Any], tasks: list[tuple[Any, ...]]
) -> Iterator[tuple[int, Any]]:
    from distributed import as_completed

    try:
        futures = [
            client.submit(
                _call_pickled,
                pickle.dumps((fn, t)),
                pure=False,
                key=f"nn-certify-task-{i}-{_token()}",
            )  # fmt: skip
            for i, t in enumerate(tasks)
        ]
        index = {f.key: i for i, f in enumerate(futures)}
        for f in as_completed(futures, loop=client.loop):
            try:
                res = pickle.loads(f.result())
            except CertifyError:
                raise
            except Exception as e:  # KilledWorker, CommClosedError, a worker's own error
                raise ExecutorError(
                    f"dask task {index[f.key]} failed ({type(e).__name__}: {e}); no bundle written"
                ) from None
            yield index[f.key], res
    finally:
        if "futures" in locals():
            with _signals_deferred():
                client.cancel(futures)


def _call_pickled(payload: bytes) -> bytes:
    """Run a pickled (fn, args) task on a worker and pickle its outcome: the scheduler only
    ever handles bytes, so it needs nothing of nn-certify but this module; on the worker
    unpickling imports what the task needs (every certify module imports on its own, see
    tests/test_import_contract.py)."""
    fn, args = pickle.loads(payload)
    return pickle.dumps(fn(*args))


def _token() -> str:
    import uuid

    return uuid.uuid4().hex[:12]
