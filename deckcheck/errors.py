"""One exception tree for everything deckcheck reports to a user.

Each class carries its CLI exit status, its HTTP status and its RFC 9457 problem type, so the
CLI's ``main`` and the service's one exception handler map every error in one place each::

    DeckcheckError                 exit 2   HTTP 422  invalid-request
    ├── UsageError                 exit 2   HTTP 422  invalid-request   (options, requests)
    │   ├── UnknownGame            exit 2   HTTP 404  unknown-game
    │   └── AsideError             exit 2   HTTP 422  unanswerable      (--aside not allowed)
    ├── InputError                 exit 2   HTTP 422  bad-deck          (deck files and lists)
    ├── FormatError                exit 2   HTTP 404  unknown-format    (formats/*.toml)
    ├── UnanswerableError          exit 2   HTTP 422  unanswerable      (odds, hands, goldfish)
    ├── PoolError                  exit 2   HTTP 503  pool-unavailable  (the card database)
    ├── RemoteError                exit 2   HTTP 502  upstream          (--server answers)
    └── GameContractError          exit 70  HTTP 500  internal          (a game's code vs its spec)

Database driver errors (sqlite3, SQLAlchemy) are ordinary trouble, not bugs: ``as_user_error``
turns them into a ``PoolError``; text that cannot be encoded because it holds a lone surrogate
(input that is not Unicode) into a ``UsageError``. Anything else that escapes is a bug in
deckcheck: exit 70, HTTP 500.
"""

from __future__ import annotations

import errno
import sqlite3
import sys
from typing import ClassVar

from deckcheck.i18n import DEFAULT, N_, _, current

EXIT_OK, EXIT_ILLEGAL, EXIT_INPUT, EXIT_BUG = 0, 1, 2, 70


class DeckcheckError(Exception):
    """Base of every error whose message is meant for the user."""

    exit_code: ClassVar[int] = EXIT_INPUT
    http_status: ClassVar[int] = 422
    problem: ClassVar[str] = "invalid-request"


class UsageError(DeckcheckError):
    """An option or request that cannot be used as given."""


class UnknownGame(UsageError):
    http_status = 404
    problem = "unknown-game"


class AsideError(UsageError):
    """``--aside`` names a card the game does not let the player set aside before the deal
    (the game's spec says why), or the game sets none aside."""

    problem = "unanswerable"


class InputError(DeckcheckError):
    """A deck file or deck list that cannot be read."""

    problem = "bad-deck"


class FormatError(DeckcheckError):
    """A format that is unknown or cannot be used; the message names the file and the key."""

    http_status = 404
    problem = "unknown-format"


class UnanswerableError(DeckcheckError):
    """A question (odds, hands, goldfish) the deck cannot answer as asked."""

    problem = "unanswerable"


class PoolError(DeckcheckError):
    """The card database cannot be opened, read or written."""

    http_status = 503
    problem = "pool-unavailable"


class RemoteError(DeckcheckError):
    """A ``--server`` that cannot be reached or answers with an error."""

    http_status = 502
    problem = "upstream"


class MissingExtra(UsageError):
    """A command that needs an optional part of the install (pyproject's extras) that is not
    installed: the light install validates, odds and goldfish need ``[sim]``, and so on."""


# The packages of the optional parts (pyproject.toml's extras): top-level module → extra.
EXTRA_OF = {
    "numpy": "sim",
    "numba": "sim",
    "llvmlite": "sim",
    "pandas": "sim",
    "yaml": "sim",
    "matplotlib": "plots",
    "fastapi": "service",
    "starlette": "service",
    "uvicorn": "service",
    "sqlalchemy": "service",
    "httpx": "service",
    "swagger_ui_bundle": "service",
    "pydantic_settings": "service",
    "dask": "cluster",
    "distributed": "cluster",
}


def missing_extra(exc: BaseException) -> MissingExtra | None:
    """``exc`` as a ``MissingExtra`` when it is the import of an extra's package that is not
    installed; the message says what to install."""
    if not isinstance(exc, ModuleNotFoundError) or not exc.name:
        return None
    extra = EXTRA_OF.get(exc.name.partition(".")[0])
    if extra is None:
        return None
    return MissingExtra(
        _(
            "this needs deckcheck's optional part [{extra}] ({module} is not installed): "
            "pip install 'deckcheck[{extra}]'",
            extra=extra,
            module=exc.name,
        )
    )


def as_user_error(exc: BaseException) -> DeckcheckError | None:
    """``exc`` as the error a user should see, or None when it is a bug in deckcheck."""
    if isinstance(exc, DeckcheckError):
        return exc
    if (missing := missing_extra(exc)) is not None:
        return missing
    if isinstance(exc, sqlite3.Error) or _is_sqlalchemy_error(exc):
        return PoolError(database_trouble(exc))
    if isinstance(exc, UnicodeEncodeError) and exc.reason == "surrogates not allowed":
        # Only input makes lone surrogates: an argument that is not UTF-8 (Python reads its
        # bytes as \udcXX), a JSON \ud800 escape. Nothing can write them out.
        bad = exc.object[exc.start : exc.end]
        return UsageError(
            _(
                "text that is not valid Unicode (a lone surrogate, {bad}), in an argument or a "
                "file: use UTF-8 text",
                bad=repr(bad),
            )
        )
    return None


def database_trouble(exc: BaseException) -> str:
    """One line saying what is wrong with a database and what to do about it. A locked or
    read-only database is fine as it is, so only a damaged one is worth rebuilding."""
    first = (str(exc).splitlines() or [""])[0]  # SQLAlchemy appends the SQL and a URL
    text = first.lower()
    if "locked" in text or "busy" in text:
        return _("the database is locked by another process; try again when it is done")
    if "readonly" in text or "read-only" in text:
        return _(
            "the database is read-only; writing needs write access to the file and its folder"
        )
    if "malformed" in text or "not a database" in text or "corrupt" in text:
        return _(
            "the database is damaged ({error}); rebuild the card pool with "
            "`deckcheck pool init --force`",
            error=first,
        )
    return _("cannot use the database: {cls}: {error}", cls=type(exc).__name__, error=first)


def _is_sqlalchemy_error(exc: BaseException) -> bool:
    # Only when SQLAlchemy is already loaded: importing it here would slow every CLI start.
    sa_exc = sys.modules.get("sqlalchemy.exc")
    return sa_exc is not None and isinstance(exc, sa_exc.SQLAlchemyError)


class GameContractError(DeckcheckError):
    """A game's code broke what its spec declares (an engine ended a game with a loss reason
    the spec does not list): a bug in that game's package, reported by name, not a traceback."""

    exit_code = EXIT_BUG
    http_status = 500
    problem = "internal"


# The operating system's reasons, in the catalogue: its own text (strerror) is English here.
_OS_REASONS = {
    errno.ENOENT: N_("no such file or folder"),
    errno.EACCES: N_("permission denied"),
    errno.EPERM: N_("operation not permitted"),
    errno.EISDIR: N_("it is a folder"),
    errno.ENOTDIR: N_("a part of the path is not a folder"),
    errno.ENOSPC: N_("no space left on the device"),
    errno.EROFS: N_("the file system is read-only"),
    errno.ELOOP: N_("too many symbolic links"),
    errno.ENAMETOOLONG: N_("the name is too long"),
    errno.EEXIST: N_("it already exists"),
}


def os_reason(exc: OSError) -> str:
    """Why the operating system refused: in English its own words (as deckcheck always
    printed them); in another language the catalogue's, for the reasons it has."""
    known = _OS_REASONS.get(exc.errno) if exc.errno is not None else None
    return _(known) if known and current() != DEFAULT else str(exc.strerror or exc)
