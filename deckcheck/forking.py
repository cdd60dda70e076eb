"""What a process deckcheck forks does first (the service's pools, service/workers.py, and the
goldfish worker pool, goldfish/run.py)."""

from __future__ import annotations

import os
import stat


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
