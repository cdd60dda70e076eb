"""What the worker processes run: module-level functions of picklable arguments, each returning
plain JSON data. The card index goes along only as the few cards a deck names.

A job's work gets its ``Progress`` first; when the job's ``ref.scheduler`` names a Dask
scheduler, its goldfish chunks are played on that cluster (``deckcheck.sweep.cluster``) and the
code here only waits for them, in a thread of the service."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from deckcheck.resolve import CardIndex

if TYPE_CHECKING:
    from deckcheck.formats import Format
    from deckcheck.goldfish.policy import Policy
    from deckcheck.goldfish.replay import ReplayRequest
    from deckcheck.goldfish.run import GoldfishRequest
    from deckcheck.goldfish.setup import Setup
    from deckcheck.models import DeckList
    from deckcheck.odds.api import OddsRequest
    from deckcheck.service.jobstore import JobRef, Progress
    from deckcheck.sweep.run import Runner, SweepRequest
    from deckcheck.tune.run import TuneRequest


def goldfish(
    progress: Progress | None,
    deck: DeckList,
    fmt: Format,
    policy: Policy,
    req: GoldfishRequest,
    setup: Setup,
) -> dict[str, Any]:
    """Play a prepared deck; a background job's ``progress`` receives progress and cancels.
    On a cluster, the chunks ``simulate`` would play are played there: the same numbers; a
    cancel drops the chunks still pending, and the result with them."""
    from deckcheck.goldfish.run import goldfish as run

    if progress is not None and progress.ref.scheduler:
        from deckcheck.goldfish.run import result_of
        from deckcheck.sweep.run import chunk_tasks

        tick = progress
        tasks = chunk_tasks(0, setup, req.games, req.seed, req.turns, req.on_play)
        with _runner(progress.ref) as runner:
            tallies = runner(tasks, lambda _, games: tick(games))
        return result_of(deck, fmt, policy, req, setup, tallies, False).model_dump(mode="json")
    result = run(deck, fmt, CardIndex(), policy, req, progress, setup)  # the setup has the cards
    return result.model_dump(mode="json")


def replay(
    progress: Progress | None, setup: Setup, fmt: Format, req: ReplayRequest
) -> dict[str, Any]:
    """One game of a run, written down (``/goldfish/replay``)."""
    from deckcheck.goldfish.replay import replay as run

    return run(setup, fmt, req).model_dump(mode="json")


def sweep(
    progress: Progress,
    decks: list[tuple[str | None, DeckList]],
    fmt: Format,
    index: CardIndex,
    req: SweepRequest,
) -> dict[str, Any]:
    """A sweep job: the ``SweepResult`` as JSON; chunks in-process or on the cluster."""
    from deckcheck.sweep.run import sweep as run

    with _runner(progress.ref) as runner:
        result = run(
            decks,
            fmt,
            index,
            req,
            runner,
            lambda _, games: progress(games),
            progress.total,
            lambda: progress(0),  # a cancel is heard between variants
        )
    return result.model_dump(mode="json")


@contextmanager
def _runner(ref: JobRef) -> Iterator[Runner]:
    if not ref.scheduler:  # in-process: Dask is never imported
        from deckcheck.sweep.run import in_process

        yield in_process
        return
    from deckcheck.sweep.cluster import Timeouts, dask_runner

    with dask_runner(ref.scheduler, None, Timeouts(*ref.timeouts)) as run:
        yield run


def odds(deck: DeckList, fmt: Format, index: CardIndex, req: OddsRequest) -> dict[str, Any]:
    from deckcheck.odds.api import compute_odds

    return compute_odds(deck, fmt, index, req).model_dump(mode="json")


def tune(
    progress: Progress,
    deck: DeckList,
    fmt: Format,
    index: CardIndex,
    candidates: list[str],
    keep: list[str],
    req: TuneRequest,
) -> dict[str, Any]:
    """A tune job: the ``TuneResult`` as JSON; goldfish rounds in-process or on the
    cluster, each round's games counted (a cancel is heard between tasks)."""
    from deckcheck.tune.run import tune as run
    from deckcheck.tune.space import default_candidates

    extra = [c for ref in candidates if (c := index.resolve(fmt.game, ref).card) is not None]
    kept = [c for ref in keep if (c := index.resolve(fmt.game, ref).card) is not None]
    cards = default_candidates(deck, index, fmt.game, extra)
    with _runner(progress.ref) as runner:

        def counted(chunks: Any, _hears: Any = None) -> Any:
            progress(0)  # a cancel is heard before each round
            return runner(chunks, lambda _, games: progress(games))

        result = run(deck, fmt, index, cards, kept, req, counted, progress.total)
    return result.model_dump(mode="json")
