"""Typed dependencies for the routers (``Depends``). ``create_app`` puts the shared objects on
``app.state``; a route names what it needs, e.g. ``index: CardIndexDep``.

They are ``async`` because each is a cheap read: FastAPI would otherwise hand every one to a
thread, which costs more than the read.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Annotated, Any, TypeVar

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from deckcheck.formats.registry import FormatRegistry
from deckcheck.i18n import N_, _
from deckcheck.resolve import CardIndex
from deckcheck.service.cards import Cards
from deckcheck.service.jobs import Jobs
from deckcheck.service.problems import Problem
from deckcheck.service.settings import Settings
from deckcheck.service.store import DeckStore
from deckcheck.service.workers import Workers

T = TypeVar("T")


def _app_state(name: str, of: type[T]) -> Callable[[Request], Coroutine[Any, Any, T]]:
    """A dependency that reads ``app.state.<name>`` (``create_app`` puts it there) as ``of``."""

    async def get(request: Request) -> T:
        value: T = getattr(request.app.state, name)
        return value

    get.__name__ = f"get_{name}"
    return get


get_settings = _app_state("settings", Settings)
get_registry = _app_state("registry", FormatRegistry)
get_cards = _app_state("cards", Cards)
get_store = _app_state("store", DeckStore)
get_workers = _app_state("workers", Workers)
get_jobs = _app_state("jobs", Jobs)


async def get_card_index(cards: Annotated[Cards, Depends(get_cards)]) -> CardIndex:
    """Every card, in memory (rebuilt when the pool changed); a broken pool is a
    ``PoolError``, answered 503 by the exception handler."""
    return cards.cache.index()


SettingsDep = Annotated[Settings, Depends(get_settings)]
RegistryDep = Annotated[FormatRegistry, Depends(get_registry)]
CardsDep = Annotated[Cards, Depends(get_cards)]
CardIndexDep = Annotated[CardIndex, Depends(get_card_index)]
StoreDep = Annotated[DeckStore, Depends(get_store)]
JobsDep = Annotated[Jobs, Depends(get_jobs)]
WorkersDep = Annotated[Workers, Depends(get_workers)]


@dataclass(frozen=True)
class JobContext:
    """What a route that starts a job reads: the limits, the formats, the cards, the jobs."""

    settings: Settings
    registry: FormatRegistry
    index: CardIndex
    jobs: Jobs


async def get_job_context(
    settings: SettingsDep, registry: RegistryDep, index: CardIndexDep, jobs: JobsDep
) -> JobContext:
    return JobContext(settings, registry, index, jobs)


JobContextDep = Annotated[JobContext, Depends(get_job_context)]


# Declared as a security scheme, so the OpenAPI document says which routes need a key.
bearer = HTTPBearer(auto_error=False, description=N_("An API key from DECKCHECK_API_KEYS"))


@dataclass(frozen=True)
class Caller:
    """Who sends a request: ``owner`` is a digest of its API key (the key itself is never
    stored), None when anonymous; ``admin`` when the key is one of ``DECKCHECK_ADMIN_KEYS``."""

    owner: str | None = None
    admin: bool = False


ANONYMOUS = Caller()


@dataclass(frozen=True)
class Key(Caller):
    """A caller with a valid API key."""

    owner: str = ""


def owner_of(key: str) -> str:
    """The id a key's saved decks are stored under (SHA-256: the database never holds keys)."""
    return hashlib.sha256(key.encode()).hexdigest()


def _caller(settings: Settings, given: str) -> Key | None:
    """The caller a key names, None when it is no key of the settings. Every key is compared,
    in constant time, whichever matches."""
    given_bytes = given.strip().encode()
    user = admin = False
    for key in settings.api_keys:
        user |= hmac.compare_digest(given_bytes, key.encode())
    for key in settings.admin_keys:
        admin |= hmac.compare_digest(given_bytes, key.encode())
    if not (user or admin):
        return None
    return Key(owner_of(given.strip()), admin)


def _writable(settings: Settings) -> bool:
    return bool(settings.api_keys or settings.admin_keys)


async def require_key(
    settings: SettingsDep,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)] = None,
) -> Key:
    """Writes need ``Authorization: Bearer <key>`` with one of ``DECKCHECK_API_KEYS`` (or
    ``DECKCHECK_ADMIN_KEYS``); the caller it names."""
    if not _writable(settings):
        detail = _("writes are disabled: set DECKCHECK_API_KEYS")
        raise Problem(403, "forbidden", detail)  # i18n: machine
    if credentials is None:
        detail = _("send Authorization: Bearer <API key>")
        raise Problem(401, "unauthorized", detail)  # i18n: machine
    caller = _caller(settings, credentials.credentials)
    if caller is None:
        raise Problem(403, "forbidden", _("the API key is not valid"))  # i18n: machine
    return caller


async def optional_key(request: Request, settings: SettingsDep) -> Caller:
    """The caller of a read: anonymous without ``Authorization``; a key that is not valid is
    403 (a mistyped key would otherwise quietly show only public decks). Read from the header
    directly: such reads stay open to all, so the OpenAPI document does not list them as
    secured."""
    header = request.headers.get("authorization")
    if header is None:
        return ANONYMOUS
    scheme, _sep, given = header.partition(" ")
    caller = _caller(settings, given) if scheme.lower() == "bearer" and given.strip() else None
    if caller is None:
        raise Problem(403, "forbidden", _("the API key is not valid"))  # i18n: machine
    return caller


def _valid_key(settings: Settings, given: str) -> bool:
    return _caller(settings, given) is not None


RequireKey = Depends(require_key)
KeyDep = Annotated[Key, Depends(require_key)]
CallerDep = Annotated[Caller, Depends(optional_key)]


async def extra_queue(request: Request, settings: SettingsDep) -> int:
    """Further worker-queue places (``DECKCHECK_KEY_QUEUE``) for a request with a valid API
    key. Read from the header directly: heavy reads stay open to all, so the OpenAPI document
    should not list them as secured."""
    scheme, _, given = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() == "bearer" and given and _valid_key(settings, given):
        return settings.key_queue
    return 0


ExtraQueueDep = Annotated[int, Depends(extra_queue)]


@dataclass(frozen=True)
class SyncContext:
    """What a route answered at once in a worker process reads: the limits, the formats, the
    cards, the workers and the caller's further queue places."""

    settings: Settings
    registry: FormatRegistry
    index: CardIndex
    workers: Workers
    extra: int

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in a worker, within the synchronous answers' deadline."""
        deadline = self.settings.sync_seconds
        return await self.workers.run(fn, *args, extra=self.extra, deadline=deadline)


async def get_sync_context(
    settings: SettingsDep,
    registry: RegistryDep,
    index: CardIndexDep,
    workers: WorkersDep,
    extra: ExtraQueueDep,
) -> SyncContext:
    return SyncContext(settings, registry, index, workers, extra)


SyncContextDep = Annotated[SyncContext, Depends(get_sync_context)]

