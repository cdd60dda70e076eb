"""``deckcheck tune DECK``: the legal changes of a deck that raise a goal, found by search."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from deckcheck.cli.common import asking, one_deck, open_pool, read_text
from deckcheck.cli.options import DbOption, DeckArgument, FormatOption, JsonOption
from deckcheck.cli.outputs import show
from deckcheck.cli.sweep import _runner
from deckcheck.errors import UsageError
from deckcheck.i18n import N_, _
from deckcheck.text import as_written

if TYPE_CHECKING:
    from rich.console import Console

    from deckcheck.models import Card, DeckList
    from deckcheck.pool.store import CardPool
    from deckcheck.resolve import CardIndex
    from deckcheck.tune.run import TuneResult

HELP = N_(
    "Search the legal changes of a deck (copies moved between cards) for the ones that raise"
    " a goal: odds by a turn (counted exactly) or a goldfish milestone by a turn (raced on"
    " shared shuffles), or a weighted sum.\n\nExit status: 0 done, 2 bad deck or option."
)
Many = Annotated[list[str], typer.Option()]


def tune(
    deck: DeckArgument,
    want: Annotated[
        list[str], typer.Option("--want", "-w", help=N_("Odds condition (repeat: all hold)."))
    ] = [],  # noqa: B006
    turn: Annotated[int | None, typer.Option("--turn", min=0, max=30)] = None,
    milestone: Annotated[
        list[str], typer.Option("--milestone", help=N_("A goldfish milestone (repeat)."))
    ] = [],  # noqa: B006
    by: Annotated[int | None, typer.Option("--by", min=1, max=30)] = None,
    weight: Annotated[
        list[float],
        typer.Option("--weight", help=N_("Weights of the odds term, then each milestone.")),
    ] = [],  # noqa: B006
    max_changes: Annotated[int, typer.Option("--max-changes", min=1, max=8)] = 2,
    candidates: Annotated[
        Path | None,
        typer.Option("--candidates", dir_okay=False, help=N_("A file of cards, one a line.")),
    ] = None,
    search: Annotated[
        list[str], typer.Option("--from", help=N_("Pool search FILTER:VALUE (repeat: all hold)."))
    ] = [],  # noqa: B006
    keep: Annotated[list[str], typer.Option("--keep", help=N_("A card never cut (repeat)."))] = [],  # noqa: B006
    top: Annotated[int, typer.Option("--top", min=1, max=50)] = 5,
    max_variants: Annotated[
        int, typer.Option("--max-variants", min=2, max=4096, help=N_("Most variants raced."))
    ] = 256,
    games: Annotated[int, typer.Option("--games", "-n", min=0, max=1_000_000)] = 4000,
    seed: Annotated[int, typer.Option("--seed", min=0)] = 0,
    workers: Annotated[int, typer.Option("--workers", "-j", min=1, max=64)] = 1,
    scheduler: Annotated[
        str | None, typer.Option("--scheduler", envvar="DECKCHECK_DASK_SCHEDULER")
    ] = None,
    cluster: Annotated[str | None, typer.Option("--cluster")] = None,
    format: FormatOption = None,
    as_json: JsonOption = False,
    db: DbOption = None,
) -> None:
    from deckcheck.tune.run import TuneRequest
    from deckcheck.tune.run import tune as run_tune

    req = TuneRequest(
        want=want, turn=turn, milestone=milestone, by=by, weights=weight,
        max_changes=max_changes, top=top, games=games, seed=seed,
        max_variants=max_variants,
    )  # fmt: skip
    the_deck, fmt, index = one_deck(deck, format, db)
    with open_pool(db) as pool:
        extra = _searched(pool, fmt.game, search) + _listed(candidates)
        refs = [*(e.ref for e in the_deck.entries), *extra, *keep]
        index = pool.index_for(refs)
    index = asking(index, db, refs, fmt.game, want)  # the goal may name any card of the pool
    cards = _cards(the_deck, index, fmt.game, extra)
    kept = [_card(index, fmt.game, ref, "--keep") for ref in keep]
    with _tune_runner(workers, scheduler, cluster) as runner:
        result = run_tune(the_deck, fmt, index, cards, kept, req, runner)
    _show(result, as_json)


def _show(result: TuneResult, as_json: bool) -> None:
    def render(out: Console) -> None:
        from deckcheck.tune.output import render

        render(out, result)

    show(result, as_json, render)


def _tune_runner(workers: int, scheduler: str | None, cluster: str | None):  # type: ignore[no-untyped-def]
    """``--workers`` processes here, or the sweep's runners (in-process, a Dask cluster)."""
    from contextlib import nullcontext

    if workers > 1 and scheduler is None and cluster is None:
        from deckcheck.tune.race import pool_runner

        return nullcontext(pool_runner(workers))
    return _runner(scheduler, cluster)


def _card(index: CardIndex, game: str, ref: str, option: str) -> Card:
    card = index.resolve(game, ref).card
    if card is None:
        raise UsageError(
            _(
                "{option} {ref}: no such {game} card in the pool",
                option=option,
                ref=as_written(ref),
                game=game,
            )
        )
    return card


def _cards(deck: DeckList, index: CardIndex, game: str, extra: Sequence[str]) -> list[Card]:
    from deckcheck.tune.space import default_candidates

    more = [_card(index, game, ref, "--candidates") for ref in extra]
    return default_candidates(deck, index, game, more)


def _listed(path: Path | None) -> list[str]:
    """A candidates file: one card (number or name) a line; ``#`` starts a comment."""
    if path is None:
        return []
    lines = (line.split("#", 1)[0].strip() for line in read_text(path).splitlines())
    return [line for line in lines if line]


def _searched(pool: CardPool, game: str, terms: Sequence[str]) -> list[str]:
    """The numbers of the cards a pool search finds: ``name:TEXT``, ``type:TYPE`` and the
    game's own filters (``FILTER:VALUE``), all of them at once."""
    if not terms:
        return []
    from deckcheck.pool.search import parse_filters

    name, type_, pairs = None, None, []
    for term in terms:
        key, sep, value = term.partition(":")
        if not sep or not value.strip():
            raise UsageError(_("--from {term}: write FILTER:VALUE", term=as_written(term)))
        if key == "name":
            name = value.strip()
        elif key == "type":
            type_ = value.strip()
        else:
            pairs.append((key, value.strip()))
    filters: dict[str, str | int | None] = dict(parse_filters(pairs, game))
    found = pool.search(game, name, type_, limit=200, offset=0, samples=False, **filters)
    if not found:
        raise UsageError(_("--from {terms}: no cards found", terms=as_written(" ".join(terms))))
    return [c.number for c in found]
