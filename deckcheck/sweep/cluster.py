"""Sweep chunks on a Dask distributed cluster: ``--scheduler tcp://HOST:PORT`` (or
``$DECKCHECK_DASK_SCHEDULER``), or ``--cluster local:K`` for a LocalCluster of K worker
processes. Imported only when one of them is asked for: the in-process path never loads Dask.

Results are gathered in task order (variant, then game), so the numbers equal the in-process
run's; Ctrl-C cancels the futures still pending.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from deckcheck.errors import UsageError
from deckcheck.goldfish.run import Tally
from deckcheck.i18n import _
from deckcheck.sweep.run import ChunkTask, Runner, play_task

_LOCAL = re.compile(r"^local:(?P<k>[1-9][0-9]?)$")


def _client(scheduler: str | None, cluster: str | None) -> Any:
    try:
        from distributed import Client, LocalCluster
    except ImportError as exc:  # pragma: no cover - the cluster extra is not installed
        raise UsageError(_("Dask is not installed: pip install 'deckcheck[cluster]'")) from exc
    if cluster is not None:
        found = _LOCAL.match(cluster)
        if found is None:
            raise UsageError(
                _("--cluster {cluster}: write local:K (K worker processes)", cluster=repr(cluster))
            )
        local = LocalCluster(
            n_workers=int(found["k"]),
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
        )
        return Client(local)
    try:
        return Client(scheduler, timeout="10s")
    except ValueError as exc:  # distributed's address parser: "notaurl", "tcp://[::1"
        raise UsageError(
            _(
                "--scheduler {scheduler}: not a scheduler address: {error}",
                scheduler=repr(scheduler),
                error=exc,
            )
        ) from exc
    except (OSError, TimeoutError) as exc:
        raise UsageError(
            _(
                "cannot reach the Dask scheduler {scheduler}: {error}",
                scheduler=scheduler,
                error=exc,
            )
        ) from exc


@contextmanager
def dask_runner(scheduler: str | None, cluster: str | None) -> Iterator[Runner]:
    """A runner that maps the chunk tasks over the cluster; the client (and a local cluster)
    close when the block ends."""
    client = _client(scheduler, cluster)
    local = client.cluster if cluster is not None else None
    try:

        def run(
            tasks: Sequence[ChunkTask], progress: Callable[[int, int], None] | None = None
        ) -> list[Tally]:
            from distributed import as_completed

            futures = client.map(play_task, list(tasks), pure=False)
            which = {f.key: t for f, t in zip(futures, tasks, strict=True)}
            try:
                for future in as_completed(futures):
                    if progress:
                        task = which[future.key]
                        progress(task.variant, len(task.seeds))
                results: list[Tally] = client.gather(futures)  # in task order
                return results
            except KeyboardInterrupt:
                client.cancel(futures)
                raise

        yield run
    finally:
        client.close()
        if local is not None:
            local.close()
