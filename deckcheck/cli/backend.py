"""Where the questions are answered: this process (``LocalBackend``) or a deckcheck service
(``RemoteBackend``, ``--server URL``). Commands talk to a ``Backend`` and never ask which.

Both raise ``deckcheck.errors`` exceptions; a service's refusal arrives as a ``ClientError``.
"""

from __future__ import annotations

import datetime
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import typer

from deckcheck.api import refs_of
from deckcheck.cli.common import asking, one_deck, open_pool, read_text, with_cards
from deckcheck.cli.options import Globals
from deckcheck.errors import UsageError
from deckcheck.i18n import _

if TYPE_CHECKING:
    from deckcheck.formats import Format
    from deckcheck.formats.registry import FormatRegistry
    from deckcheck.goldfish.policy import Policy
    from deckcheck.goldfish.replay import ReplayRequest, ReplayResult
    from deckcheck.goldfish.run import GoldfishRequest, GoldfishResult
    from deckcheck.models import DeckList, Report
    from deckcheck.odds.api import OddsRequest, OddsResult
    from deckcheck.odds.hands import HandsRequest, HandsResult
    from deckcheck.resolve import CardIndex

Progress = Callable[[int], None]
Day = datetime.date | None  # --as-of: the day whose format version applies


@dataclass(frozen=True)
class DeckFile:
    """The deck file a command asks about: ``format`` overrides its format line, ``as_of`` its
    date line (the format version in force on that day is used)."""

    path: Path
    format: str | None = None
    as_of: Day = None


class Backend(Protocol):
    # whether ``goldfish`` calls its progress callback as games finish
    reports_progress: bool

    def validate(
        self, files: list[Path], decks: list[DeckList], format: str | None, as_of: Day = None
    ) -> list[Report]:
        """One report per deck, in order; ``format`` overrides each deck's format line and
        ``as_of`` its date line (the format version in force on that day is used)."""
        ...

    def format_of(self, ref: str, override: str | None) -> Format:
        """The format a report names, for rendering it."""
        ...

    def odds(self, deck: DeckFile, req: OddsRequest) -> OddsResult: ...

    def hand(self, deck: DeckFile, req: HandsRequest) -> HandsResult: ...

    def goldfish(
        self, deck: DeckFile, policy: Path | None, req: GoldfishRequest, progress: Progress | None
    ) -> GoldfishResult: ...

    def replay(self, deck: DeckFile, policy: Path | None, req: ReplayRequest) -> ReplayResult:
        """Game ``req.game`` of a run, turn by turn (the reference engine's game)."""
        ...


class LocalBackend:
    """The library, on the card pool at ``db``."""

    reports_progress = True

    def __init__(self, db: Path | None) -> None:
        self.db = db
        self._registry: FormatRegistry | None = None

    @property
    def registry(self) -> FormatRegistry:
        if self._registry is None:  # one per command: it caches the formats it has read
            from deckcheck.formats.registry import default_registry

            self._registry = default_registry()
        return self._registry

    def validate(
        self, files: list[Path], decks: list[DeckList], format: str | None, as_of: Day = None
    ) -> list[Report]:
        from deckcheck.api import validate_decks

        with open_pool(self.db) as pool:
            index = pool.index_for(refs_of(decks))
            return validate_decks(decks, self.registry, index, format, as_of)

    def format_of(self, ref: str, override: str | None) -> Format:
        # a format file's id is not a registry id: render with the file itself (unless the
        # report used a version the file supersedes, which has a registry id)
        if override and override.endswith(".toml"):
            fmt = self.registry.get(override)
            if fmt.id == ref:
                return fmt
        return self.registry.get(ref)

    def odds(self, deck: DeckFile, req: OddsRequest) -> OddsResult:
        from deckcheck.odds.api import compute_odds, table_ref

        d, fmt, index = self._read(deck)
        table = [table_ref(req.table)] if req.table else []
        index = asking(index, self.db, refs_of([d]), fmt.game, req.want, *table)
        return compute_odds(d, fmt, index, req)

    def hand(self, deck: DeckFile, req: HandsRequest) -> HandsResult:
        from deckcheck.odds.hands import deal_hands

        d, fmt, index = self._read(deck)
        return deal_hands(d, fmt, asking(index, self.db, refs_of([d]), fmt.game, req.want), req)

    def goldfish(
        self, deck: DeckFile, policy: Path | None, req: GoldfishRequest, progress: Progress | None
    ) -> GoldfishResult:
        from deckcheck.goldfish.policy import load_policy
        from deckcheck.goldfish.run import goldfish

        cards, fmt, index = self._read(deck)
        pilot = load_policy(policy, fmt.game)
        index = self._checked(pilot, policy, cards, fmt, index)
        return goldfish(cards, fmt, index, pilot, req, progress, notice=_notice)

    def replay(self, deck: DeckFile, policy: Path | None, req: ReplayRequest) -> ReplayResult:
        from deckcheck.goldfish.policy import load_policy
        from deckcheck.goldfish.replay import replay
        from deckcheck.goldfish.run import prepare

        cards, fmt, index = self._read(deck)
        pilot = load_policy(policy, fmt.game)
        setup = prepare(cards, fmt, self._checked(pilot, policy, cards, fmt, index), pilot)
        return replay(setup, fmt, req, str(deck.path))

    def _read(self, deck: DeckFile) -> tuple[DeckList, Format, CardIndex]:
        return one_deck(deck.path, deck.format, self.db, deck.as_of)

    def _checked(
        self, pilot: Policy, path: Path | None, deck: DeckList, fmt: Format, index: CardIndex
    ) -> CardIndex:
        """``index`` with the cards a policy file names, each checked to be a card of the pool
        (``check_named``); the game's own policy is not checked."""
        if path is None:
            return index
        from deckcheck.goldfish.policy import check_named, selector_atoms
        from deckcheck.odds.known import atom_refs

        atoms = [a for found in selector_atoms(pilot, fmt.game).values() for a in found]
        index = with_cards(index, self.db, refs_of([deck]), fmt.game, atom_refs(atoms))
        check_named(pilot, fmt.game, index)
        return index


def _notice(message: str) -> None:
    """A word to the user on stderr while a command works (above a progress bar, if any)."""
    sys.stderr.write(f"deckcheck: {message}\n")  # i18n: machine (the message is translated)
    sys.stderr.flush()


class RemoteBackend:
    """A deckcheck service: deck files are sent as text, answers read back as the library's
    models, so rendering is the same either way."""

    reports_progress = False  # a job is polled, not followed game by game

    def __init__(self, server: str) -> None:
        self.server = server
        self._formats: dict[str, Format] = {}

    def validate(
        self, files: list[Path], decks: list[DeckList], format: str | None, as_of: Day = None
    ) -> list[Report]:
        from deckcheck.client import post
        from deckcheck.models import Report

        reports = []
        for path, local in zip(files, decks, strict=True):
            if local.format is None and format is None:
                raise UsageError(_("{path}: no format: line and no --format", path=path))
            data = post(self.server, "/validate", self._body(path, format, as_of))
            report = Report.model_validate(data)
            report.path = str(path)
            notes = [v for v in local.problems if v.rule == "deck/encoding"]
            report.violations[len(report.errors) : len(report.errors)] = notes  # after errors
            reports.append(report)
        if len(decks) > 1:  # a folder of lists: the same duplicate warnings as locally
            self._mark_duplicates(files, decks, reports, format, as_of)
        return reports

    def _mark_duplicates(
        self,
        files: list[Path],
        decks: list[DeckList],
        reports: list[Report],
        format: str | None,
        as_of: Day,
    ) -> None:
        """``api.validate_decks``' duplicate check, on the card numbers the service resolves
        (``/resolve``), asked only for the lists that could be the same deck as another."""
        from deckcheck.client import post
        from deckcheck.same_deck import Numbers, mark_same, may_match

        games = [r.game for r in reports]
        by_game = {game: Numbers(game, None) for game in set(games)}
        for i in may_match(decks, games):
            answer = post(self.server, "/resolve", self._body(files[i], format, as_of))
            known = by_game[games[i]].known
            known.update((e["ref"], e["number"]) for e in answer["entries"] if e["number"])
        mark_same(decks, games, reports, by_game)

    def format_of(self, ref: str, override: str | None) -> Format:
        if ref not in self._formats:
            from deckcheck.client import get
            from deckcheck.formats import Format

            found = get(self.server, f"/formats/{ref}")
            found.pop("versions", None)  # the family's dates: not a field of the format
            found.pop("placement", None)  # where the builder adds cards: read from the tables
            self._formats[ref] = Format.model_validate(found)
        return self._formats[ref]

    def odds(self, deck: DeckFile, req: OddsRequest) -> OddsResult:
        from deckcheck.odds.api import OddsResult

        fields = req.model_dump(exclude={"max_work"})  # the service sets its own
        result = OddsResult.model_validate(self._post(deck, "/odds", fields))
        result.deck = str(deck.path)
        return result

    def hand(self, deck: DeckFile, req: HandsRequest) -> HandsResult:
        from deckcheck.odds.hands import HandsResult

        result = HandsResult.model_validate(self._post(deck, "/hand", req.model_dump()))
        result.deck = str(deck.path)
        return result

    def goldfish(
        self, deck: DeckFile, policy: Path | None, req: GoldfishRequest, progress: Progress | None
    ) -> GoldfishResult:
        from deckcheck import client
        from deckcheck.goldfish.policy import read_keys
        from deckcheck.goldfish.run import GoldfishResult

        keys = read_keys(policy) if policy else None  # the service checks them
        fields = req.model_dump(include={"games", "turns", "seed", "on_play", "engine"})
        body = {**self._body(deck.path, deck.format, deck.as_of), **fields, "policy": keys}
        result = GoldfishResult.model_validate(client.goldfish(self.server, body))
        result.deck = str(deck.path)
        return result

    def replay(self, deck: DeckFile, policy: Path | None, req: ReplayRequest) -> ReplayResult:
        from deckcheck.goldfish.policy import read_keys
        from deckcheck.goldfish.replay import ReplayResult

        keys = read_keys(policy) if policy else None
        fields = {**req.model_dump(), "policy": keys}
        result = ReplayResult.model_validate(self._post(deck, "/goldfish/replay", fields))
        result.deck = str(deck.path)
        return result

    def _body(self, path: Path, format: str | None, as_of: Day) -> dict[str, Any]:
        day = {"as_of": as_of.isoformat()} if as_of else {}
        return {"deck": read_text(path), "format": format, **day}

    def _post(self, deck: DeckFile, route: str, fields: dict[str, Any]) -> Any:
        from deckcheck.client import post

        body = self._body(deck.path, deck.format, deck.as_of)
        return post(self.server, route, {**body, **fields})


def backend(ctx: typer.Context, db: Path | None) -> Backend:
    """The service named by ``--server``, else this process on the pool at ``db``."""
    root = ctx.find_object(Globals)
    server = root.server if root else None
    return RemoteBackend(server) if server else LocalBackend(db)


__all__ = ["Backend", "DeckFile", "LocalBackend", "RemoteBackend", "backend"]
