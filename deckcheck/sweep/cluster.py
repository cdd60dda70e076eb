"""Sweep chunks on a Dask distributed cluster: ``--scheduler tcp://HOST:PORT`` (or
``$DECKCHECK_DASK_SCHEDULER``), or ``--cluster local:K`` for a LocalCluster of K worker
processes. Imported only when one of them is asked for: the in-process path never loads Dask.

Results are gathered in task order (variant, then game), so the numbers equal the in-process
run's; Ctrl-C cancels the futures still pending.

Nothing here waits without a bound (issue 24, item 8): reaching the scheduler takes at most
``connect`` seconds and its first worker must join within ``worker`` seconds (``Timeouts``;
``DECKCHECK_DASK_CONNECT_TIMEOUT`` and ``DECKCHECK_DASK_WORKER_TIMEOUT``), or the sweep stops
with a message naming the timeout (exit 2; a failed job in the service). While it waits, the
progress callback is called every ``POLL`` seconds with no games, so that a service job's
cancel (raised by that callback) is heard.
"""

from __future__ import annotations

import os
import re
import socket
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from deckcheck.errors import UsageError
from deckcheck.goldfish.run import Tally
from deckcheck.i18n import _
from deckcheck.sweep.run import ChunkTask, Runner, play_task

_LOCAL = re.compile(r"^local:(?P<k>[1-9][0-9]?)$")
POLL = 0.5  # seconds between looks at a cancel while waiting on the cluster
TICK = 0.02  # seconds between looks at the futures' states
Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class Timeouts:
    """Seconds to reach the scheduler, and to wait for its first worker."""

    connect: float = 10.0
    worker: float = 30.0

    @classmethod
    def from_env(cls) -> Timeouts:
        """``DECKCHECK_DASK_CONNECT_TIMEOUT`` and ``DECKCHECK_DASK_WORKER_TIMEOUT``, else the
        defaults; a value that is not a positive number is a ``UsageError``."""
        return cls(
            _seconds("DECKCHECK_DASK_CONNECT_TIMEOUT", cls.connect),
            _seconds("DECKCHECK_DASK_WORKER_TIMEOUT", cls.worker),
        )


def _seconds(name: str, default: float) -> float:
    given = os.environ.get(name, "").strip()
    if not given:
        return default
    try:
        value = float(given)
    except ValueError:
        value = -1.0
    if not 0 < value < float("inf"):
        raise UsageError(
            _("{name}={value}: write a number of seconds above 0", name=name, value=repr(given))
        )
    return value


def _handshake(scheduler: str, host: str, port: int, seconds: float) -> None:
    """A ``UsageError`` unless the scheduler speaks within ``seconds``. A Dask scheduler writes
    its handshake as soon as it accepts a connection; distributed's ``Client`` waits for it
    with no limit (a port that accepted and never spoke hung ``sweep --scheduler`` past
    60 s, and service jobs for 6.5 minutes; issue 37). Connection errors are left to
    ``Client``, which reports them itself."""
    try:
        conn = socket.create_connection((host, port), timeout=seconds)
    except OSError:
        return
    with conn:
        conn.settimeout(seconds)
        try:
            conn.recv(1)
        except TimeoutError as exc:
            raise UsageError(
                _(
                    "the Dask scheduler {scheduler} accepted the connection but did not answer "
                    "within {seconds} s (DECKCHECK_DASK_CONNECT_TIMEOUT): is it a Dask "
                    "scheduler?",
                    scheduler=scheduler,
                    seconds=seconds,
                )
            ) from exc
        except OSError:
            return


def _client(scheduler: str | None, cluster: str | None, timeouts: Timeouts) -> Any:
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
    from distributed.comm.addressing import get_address_host_port

    try:
        # parsed before Client starts its IO loop thread: that start has a fixed 10 s limit of
        # its own, which a loaded machine missed (an AssertionError, not the address's reason)
        if scheduler is not None:
            host, port = get_address_host_port(scheduler)
            if scheduler.startswith("tcp://"):
                _handshake(scheduler, host, port, timeouts.connect)
        return Client(scheduler, timeout=f"{timeouts.connect}s")
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
                "cannot reach the Dask scheduler {scheduler} within {seconds} s "
                "(DECKCHECK_DASK_CONNECT_TIMEOUT): {error}",
                scheduler=scheduler,
                seconds=timeouts.connect,
                error=exc,
            )
        ) from exc


def _wait_for_worker(client: Any, timeouts: Timeouts, tick: Callable[[], None]) -> None:
    """Return once the cluster has a worker; ``UsageError`` after ``timeouts.worker`` s."""
    deadline = time.monotonic() + timeouts.worker
    # asks the scheduler, not ``wait_for_workers``: called again from a job's thread, that
    # one failed with "bound to a different event loop"
    while not client.nthreads():
        tick()  # a cancelled job stops here
        if time.monotonic() >= deadline:
            break
        time.sleep(min(POLL, timeouts.worker))
    else:
        return
    raise UsageError(
        _(
            "no Dask worker joined the scheduler {scheduler} within {seconds} s "
            "(DECKCHECK_DASK_WORKER_TIMEOUT): start workers with dask worker {scheduler}",
            scheduler=client.scheduler.address,
            seconds=timeouts.worker,
        )
    )


def _gather(client: Any, tasks: Sequence[ChunkTask], progress: Progress | None) -> list[Tally]:
    """The tasks' tallies in task order; ``progress`` hears each chunk as it ends, and every
    ``POLL`` seconds with no games while none does. Looks at each future's own state rather
    than ``distributed.wait``, which works on the process's default client: with two jobs on
    the cluster at once, that is the other thread's, on another event loop."""
    futures = client.map(play_task, list(tasks), pure=False)
    which = {f.key: t for f, t in zip(futures, tasks, strict=True)}
    pending = set(futures)
    quiet_since = time.monotonic()
    try:
        while pending:
            done = {f for f in pending if f.done()}
            pending -= done
            for future in done:
                if progress:
                    task = which[future.key]
                    progress(task.variant, len(task.seeds))
            now = time.monotonic()
            if done:
                quiet_since = now
            else:
                if progress and now - quiet_since >= POLL:
                    progress(tasks[0].variant, 0)
                    quiet_since = now
                time.sleep(TICK)
        results: list[Tally] = client.gather(futures)  # in task order
        return results
    except KeyboardInterrupt:
        client.cancel(futures)
        raise


@contextmanager
def dask_runner(
    scheduler: str | None, cluster: str | None, timeouts: Timeouts | None = None
) -> Iterator[Runner]:
    """A runner that maps the chunk tasks over the cluster; the client (and a local cluster)
    close when the block ends. ``timeouts``: by default ``Timeouts.from_env()``."""
    timeouts = timeouts or Timeouts.from_env()
    client = _client(scheduler, cluster, timeouts)
    local = client.cluster if cluster is not None else None
    try:

        def run(tasks: Sequence[ChunkTask], progress: Progress | None = None) -> list[Tally]:
            if not tasks:
                return []
            tick = (lambda: progress(tasks[0].variant, 0)) if progress else (lambda: None)
            _wait_for_worker(client, timeouts, tick)
            return _gather(client, tasks, progress)

        yield run
    finally:
        client.close()
        if local is not None:
            local.close()
