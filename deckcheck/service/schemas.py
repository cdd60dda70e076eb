"""Request bodies, and how a body's deck and format are read (the limits a request obeys)."""

from __future__ import annotations

import datetime
import json
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from deckcheck import decklist
from deckcheck.formats import Format, FormatError
from deckcheck.formats.registry import FormatRegistry
from deckcheck.i18n import N_, _
from deckcheck.models import DeckList
from deckcheck.service.problems import field_problem, over_limit
from deckcheck.sweep.run import SweepRequest
from deckcheck.tune.run import TuneRequest

MAX_LINES = 500

DeckInput = Annotated[
    str | dict[str, Any],
    Field(description=N_("A deck list: the text form (format line allowed) or the JSON form.")),
]


class DeckRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    deck: DeckInput
    format: str | None = Field(
        None,
        description=N_(
            "Format id; overrides the deck's format line. /validate and /resolve read a deck "
            "that names none in the only format of its cards' game, if it has one."
        ),
    )
    as_of: datetime.date | None = Field(
        None,
        description=N_(
            "Use the format version in force on this day (YYYY-MM-DD); overrides the "
            "deck's date line; default today."
        ),
    )


class OddsBody(DeckRequest):
    want: list[str] = Field(min_length=1, max_length=10)
    turns: int = Field(5, ge=0, le=30)
    on_play: bool = True
    mulligan: bool = True
    optional_draws: bool = Field(
        False, description=N_("Also count the draws the game lets a player choose to take.")
    )
    aside: str | None = Field(
        None, description=N_("The card you choose to set aside before the deal, if the game asks.")
    )
    simulate: int | None = Field(None, ge=1, le=2_000_000)
    seed: int | None = Field(None, ge=0, le=2**63 - 1)
    table: str | None = None


class HandBody(DeckRequest):
    count: int = Field(1, ge=1, le=100)
    seed: int | None = Field(None, ge=0, le=2**63 - 1)
    want: list[str] = Field(default_factory=list, max_length=10)
    aside: str | None = Field(
        None, description=N_("The card you choose to set aside before the deal, if the game asks.")
    )


class GoldfishBody(DeckRequest):
    games: int = Field(1000, ge=1)
    turns: int = Field(10, ge=1, le=30)
    seed: int = Field(0, ge=0, le=2**63 - 1)
    on_play: bool = True
    policy: dict[str, Any] | None = Field(None, description=N_("Policy keys, as in a policy file."))
    engine: Literal["auto", "reference"] = Field(
        "auto",
        description=N_("reference: game by game, game N being the one /goldfish/replay shows."),
    )


class ReplayBody(DeckRequest):
    game: int = Field(1, ge=1, description=N_("Which game of the run, from 1."))
    turns: int = Field(10, ge=1, le=30)
    seed: int = Field(0, ge=0, le=2**63 - 1)
    on_play: bool = True
    policy: dict[str, Any] | None = Field(None, description=N_("Policy keys, as in a policy file."))


class SavedDeckBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1, max_length=200)
    format: str = Field(min_length=1, max_length=100)
    deck: DeckInput
    visibility: Literal["private", "link", "public"] | None = Field(
        None,
        description=N_(
            "private: only your key reads it; link: anyone with its id; public: "
            "listed for all. Default private when created, unchanged when replaced."
        ),
    )


def parse_deck(deck: str | dict[str, Any]) -> DeckList:
    """The body's deck list; 422 limit-exceeded over ``MAX_LINES`` lines."""
    text = deck if isinstance(deck, str) else json.dumps(deck, ensure_ascii=False)
    parsed = decklist.parse(text, None)
    if isinstance(deck, str):
        lines = sum(1 for line in deck.splitlines() if line.strip())
    else:
        lines = len(parsed.entries) + len(parsed.problems)
    if lines > MAX_LINES:
        raise over_limit(
            _("the deck has {lines} lines; the limit is {limit}", lines=lines, limit=MAX_LINES),
            MAX_LINES,
            "deck",  # i18n: machine
            _("too many lines"),
        )
    return parsed


def format_of(
    registry: FormatRegistry,
    ref: str | None,
    deck: DeckList,
    as_of: datetime.date | None = None,
) -> Format:
    """The format a body names, else the deck's own, in the version in force on ``as_of``,
    else on the deck's date line, else today. A body field at fault is a 422 that names the
    field (not the 404 of an unknown ``/formats/{id}``); files cannot be named over HTTP."""
    chosen = ref or deck.format
    if not chosen:
        raise field_problem(
            "unknown-format",  # i18n: machine
            _("the deck has no format line and the request no format"),
            "body.format",
            _("required"),
        )
    try:
        if chosen.endswith(".toml"):
            raise FormatError(_("format files cannot be named over HTTP; use a format id"))
        registry.get(chosen)
    except FormatError as exc:
        raise field_problem("unknown-format", str(exc), "body.format") from exc  # i18n: machine
    try:
        return registry.resolve(chosen, as_of or deck.date)
    except FormatError as exc:  # no version in force on that day
        where = "body.as_of" if as_of else "body.deck"
        raise field_problem("unknown-format", str(exc), where) from exc  # i18n: machine


class SweepDeck(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str | None = Field(None, max_length=200, description=N_("Names its variants."))
    deck: DeckInput


class SweepBody(SweepRequest):
    """``deckcheck sweep``'s options (``vary``, ``fill``, ``sides``, ``want``, ``turns``,
    ``games``, ``seed``, ``best``), and the deck, or several."""

    model_config = ConfigDict(extra="forbid")
    deck: DeckInput | None = None
    decks: list[SweepDeck] = Field(default_factory=list, max_length=50)
    format: str | None = Field(None, description=N_("Format id; overrides the decks' format line."))

    def request(self) -> SweepRequest:
        return SweepRequest(**self.model_dump(include=set(SweepRequest.model_fields)))


class TuneBody(TuneRequest):
    """``deckcheck tune``'s options (``want``, ``turn``, ``milestone``, ``by``, ``weights``,
    ``max_changes``, ``top``, ``games``, ``seed``, ``max_variants``), the deck, the further
    candidate cards and the cards never cut."""

    model_config = ConfigDict(extra="forbid")
    deck: DeckInput
    format: str | None = Field(None, description=N_("Format id; overrides the deck's format line."))
    candidates: list[str] = Field(
        default_factory=list,
        max_length=500,
        description=N_("Cards (numbers or names) that may be added, beside the deck's own."),
    )
    keep: list[str] = Field(
        default_factory=list, max_length=100, description=N_("Cards never cut.")
    )

    def request(self) -> TuneRequest:
        return TuneRequest(**self.model_dump(include=set(TuneRequest.model_fields)))
