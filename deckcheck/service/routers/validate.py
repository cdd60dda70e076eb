"""``/validate`` (a deck's verdict) and ``/resolve`` (its lines as cards, for editors).

Both run in the deck checks' own thread pool (``service.validating``), never on the event loop,
so ``/health`` and other requests answer while they work."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response
from pydantic import Field

from deckcheck import suggest
from deckcheck.api import check_suggestions, validate_capped
from deckcheck.bare_counts import settled
from deckcheck.formats import Format
from deckcheck.formats.guess import guess
from deckcheck.formats.registry import FormatRegistry
from deckcheck.i18n import N_, _
from deckcheck.models import Card, DeckEntry, DeckList, Report
from deckcheck.plugins import name_key
from deckcheck.resolve import CardIndex, Resolution
from deckcheck.service.deps import CardIndexDep, RegistryDep
from deckcheck.service.problems import field_problem, over_limit
from deckcheck.service.schemas import DeckRequest, format_of, parse_deck
from deckcheck.service.validating import checks_of
from deckcheck.slots import copy_limit
from deckcheck.validate import game_hints

router = APIRouter(tags=["decks"])


class ValidateBody(DeckRequest):
    suggest: int = Field(
        suggest.NAMES,
        ge=0,
        le=1000,
        description=N_(
            'How many unknown card names (the deck\'s first ones) get "did you mean" '
            "suggestions; the work they take must fit the service's limit."
        ),
    )


def _format(
    body: DeckRequest, registry: FormatRegistry, deck: DeckList, index: CardIndex
) -> tuple[Format, str | None]:
    """The format the body or the deck names; else the only format of the game of the deck's
    cards (formats.guess), with what the report says of it; else the 422 that says how."""
    if body.format or deck.format:
        return format_of(registry, body.format, deck, body.as_of), None
    found = guess(deck, registry, index)
    if found.format is None:
        raise field_problem(
            "unknown-format",  # i18n: machine
            _("the deck has no format line and the request no format ({hint})", hint=found.hint()),
            "body.format",
            _("required"),
        )
    return format_of(registry, found.format, deck, body.as_of), found.assumption()


def _verdict(body: ValidateBody, registry: FormatRegistry, index: CardIndex) -> bytes:
    deck = parse_deck(body.deck)  # a 1 MiB body's parse is work too: here, not on the loop
    fmt, guessed = _format(body, registry, deck, index)
    names = body.suggest
    try:  # the suggestions' work is weighed before any of it is done
        check_suggestions(deck, fmt.game, index, names)
    except suggest.SuggestLimit as exc:
        raise over_limit(str(exc), exc.limit, "suggest") from exc  # i18n: machine
    report = validate_capped(deck, fmt, index, names)
    if guessed is not None:
        report.assumptions.insert(0, guessed)
    # serialised here too: a report of 499 violations is ~200 KB of JSON
    return report.model_dump_json().encode()


@router.post(
    "/validate",
    response_model=None,
    responses={
        200: {"model": Report, "description": "The verdict"},
        429: {"description": "Busy: retry later"},
    },
)
async def validate_deck(
    request: Request, body: ValidateBody, registry: RegistryDep, index: CardIndexDep
) -> Response:
    lane = checks_of(request.app.state, body.deck, body.suggest)
    verdict = await lane.run(_verdict, body, registry, index)
    return Response(verdict, media_type="application/json")


def _entries(body: DeckRequest, registry: FormatRegistry, index: CardIndex) -> dict[str, Any]:
    deck = parse_deck(body.deck)
    fmt, _guessed = _format(body, registry, deck, index)
    try:  # the suggestions' work is weighed before any of it is done, as /validate does
        check_suggestions(deck, fmt.game, index)
    except suggest.SuggestLimit as exc:
        raise over_limit(str(exc), exc.limit, "suggest") from exc  # i18n: machine
    deck = settled(deck, fmt, index)  # NAME 3 lines whose NAME is no card: not card lines
    with suggest.per_deck():
        entries = [_entry(index, fmt, e) for e in deck.entries]
    # the unreadable lines' hint shows one of the deck's cards, as /validate and the CLI do
    found = (index.found(fmt.game, e.ref).card for e in deck.entries)
    card = next((c for c in found if c is not None), None)
    problems = game_hints(deck.problems, fmt, card) if deck.problems else []
    return {
        "format": fmt.id,
        "game": fmt.game,
        "entries": entries,
        "problems": [p.model_dump(mode="json") for p in problems],
    }


def _entry(index: CardIndex, fmt: Format, e: DeckEntry) -> dict[str, Any]:
    game = fmt.game
    found = index.found(game, e.ref)
    card = found.card
    return {
        "section": e.section,
        "count": e.count,
        "ref": e.ref,
        "line": e.line,
        "number": card.number if card else None,
        "name": card.name if card else e.ref,
        "type": card.type if card else None,
        "card": card.model_dump(mode="json") if card else None,  # all its facts, as /cards gives
        "printings": [c.model_dump(mode="json") for c in _printings(index, game, e.ref, found)],
        "suggestions": index.resolve(game, e.ref).suggestions if found.unknown else [],
        # the most copies the format allows of this card (an override's, else the format's)
        "limit": copy_limit(fmt, card) if card else None,
    }


def _printings(index: CardIndex, game: str, ref: str, found: Resolution) -> list[Card]:
    """The printings of the name ``ref`` is (``found``: what it resolved to), when it has
    several: an editor lets the player pick one, whether they differ in what legality depends
    on (an ambiguous line) or only in what play does (cost, node…: the lowest number stood for
    them)."""
    if found.ambiguous:
        return found.ambiguous
    if found.card is None or name_key(game, ref) != name_key(game, found.card.name):
        return []  # a number, an alias, or no card
    printings = index.by_name.get((game, name_key(game, ref)), [])
    return printings if len(printings) > 1 else []


@router.post("/resolve", responses={429: {"description": "Busy: retry later"}})
async def resolve(
    request: Request, body: DeckRequest, registry: RegistryDep, index: CardIndexDep
) -> dict[str, Any]:
    """The deck list's lines as cards (number, name, type), for editors such as the web
    page; unresolved lines keep their reference and say why. Each line also has
    ``printings`` (a name with several printings: each card, to pick one) and
    ``suggestions`` (an unknown name: the names the CLI suggests)."""
    return await checks_of(request.app.state, body.deck).run(_entries, body, registry, index)
