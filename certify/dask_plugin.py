"""The Dask worker plugin of the run's own local cluster (certify/executor.py `_dask_local`;
imported only there: it needs the optional extra nn-certify[dask])."""

from __future__ import annotations

from typing import Any

from distributed import WorkerPlugin


class StopProversOnClose(WorkerPlugin):
    """When the worker closes (the run finished, failed or was interrupted) kill the task's
    running coqc (it runs in its own session, so the worker's end would not reach it) and
    remove the task's scratch directories, as a pool worker does on SIGTERM
    (executor._worker_init)."""

    name = "nn-certify-stop-provers"

    def teardown(self, worker: Any) -> None:
        from certify import scratch
        from certify.provers import common

        common.kill_all()
        scratch.remove_all()
