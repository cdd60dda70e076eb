"""Forking deckcheck's worker processes (the service's pools, service/workers.py; the goldfish
worker pool, goldfish/run.py; tune's race, tune/race.py): what the parent does around the fork,
and what a forked process does first."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager

from deckcheck.collector import frozen


@contextmanager
def shared_on_fork() -> Iterator[None]:
    """Processes forked inside share the parent's objects without copying their pages.

    A forked child's first full collection writes to every object the parent handed it (the
    cycle collector's bookkeeping lives in each object's header), so the kernel copies each
    page they sit on. Measured on the 2-core VM in a process with the service, numba and
    pandas loaded (354 MB resident), a child that ran one collection cost 284 ms of CPU, and
    16 ms when the parent's objects were frozen first (issue 35). So the parent's objects
    leave the collector's reach (``gc.freeze``, the way Python's documentation gives for
    forking servers) across the fork, and come back in the parent after it. The child keeps
    them frozen: they are the modules, tables and caches it was forked to use, still freed by
    reference counting; only their cycles are no longer collected there. A caller that froze
    objects itself is left as it was (the service freezes its start-up objects for its whole
    life: service/app.py)."""
    with frozen():
        yield


def drop_inherited_sockets() -> None:
    """In a forked worker: point each socket it inherited (past the standard streams, which
    are sockets under systemd) at ``/dev/null``.

    A worker held a copy of every connection the service had open when it forked. When the
    service closed an idle keep-alive connection, the copy kept it open: no FIN went out, the
    browser sent its next request on it, and nobody ever answered (the builder's "Compare
    copies" stayed at "Starting…"). It held the listening socket too, and with it the port.
    The descriptor numbers stay taken, so an inherited socket object closed later closes
    ``/dev/null``, not a file this worker has opened since. The pool's own channels are pipes,
    not sockets. Without ``/proc/self/fd`` or ``/dev/fd`` nothing is dropped."""
    for listing in ("/proc/self/fd", "/dev/fd"):
        try:
            fds = [int(fd) for fd in os.listdir(listing)]
            break
        except OSError:
            continue
    else:
        return
    null = os.open(os.devnull, os.O_RDWR)
    try:
        for fd in fds:
            if fd <= 2 or fd == null:
                continue
            try:
                is_socket = stat.S_ISSOCK(os.fstat(fd).st_mode)
            except OSError:  # the listing's own descriptor, closed since
                continue
            if is_socket:
                os.dup2(null, fd, inheritable=False)
    finally:
        os.close(null)
