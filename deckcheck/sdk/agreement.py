"""Two engines of a game, held to each other (part of the SDK's testing kit: a game package's
tests use it through ``deckcheck.sdk.testing``, deckcheck's own through ``tests/agreement.py``).

- ``same_games``: the exact test. Both engines play the same games from one tape of random
  numbers (goldfish/shuffles.py, ``common.Tape``): every per-game record must be identical.
- ``chunks_agree``: where the streams cannot be shared (each engine's production random
  source: numba's generator, ``random.Random``), the same distribution: means and the
  10th, 50th and 90th percentiles of every metric on every turn, the mulligans and the
  milestones, within sampling error. ``production_chunks`` plays both engines' games for it.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple, cast

import numpy as np
from numpy.typing import NDArray

from deckcheck.formats import Format
from deckcheck.goldfish.batch import TapeEngine
from deckcheck.goldfish.common import Record, Tape
from deckcheck.goldfish.policy import Compiled, Policy
from deckcheck.goldfish.run import Chunk, GoldfishRequest, goldfish, play_chunk, records_chunk
from deckcheck.goldfish.setup import Setup
from deckcheck.models import DeckList
from deckcheck.resolve import CardIndex

Z = 4.5  # standard errors


def tapes(games: int, rows: int, width: int, seed: int) -> NDArray[np.uint32]:
    """(games, rows, width) uniform 32-bit numbers: one row per shuffle of a game."""
    rng = np.random.default_rng(seed)
    return rng.integers(0, 1 << 32, size=(games, rows, width), dtype=np.uint32)


def reference_chunk(setup: Setup, tape: NDArray[np.uint32], turns: int, on_play: bool) -> Chunk:
    """The reference engine's games, game ``g`` shuffling from ``tape[g]``, as a Chunk."""
    policy = Compiled(setup.policy, setup.game)
    records = (setup.spec.play.play(setup, policy, Tape(row), turns, on_play) for row in tape)
    return records_chunk(setup, 0, tape.shape[0], turns, records)


def same_games(
    play_tape: TapeEngine, setup: Setup, games: int, turns: int, on_play: bool, seed: int,
    rows: int = 4, picked: Sequence[int] | None = None,
) -> Chunk:  # fmt: skip
    """Play ``games`` games on both engines from one tape; assert every record is the same
    (each metric on each turn, milestones, mulligans, loss and its turn). Returns the batch
    engine's chunk, for what a caller checks the games exercised.

    ``picked``: play only these games of the ``games``-game tape (each game reads its own
    rows, so game ``g`` plays as it does among all of them): the few games of a long run that
    take a rare path, found once, at the cost of the few."""
    width = sum(n for _, n in setup.drawable)
    tape = tapes(games, rows, width, seed)
    if picked is not None:
        tape = tape[list(picked)]
    fast = Chunk(0, *play_tape(setup, tape, turns, on_play))
    slow = reference_chunk(setup, tape, turns, on_play)
    for name in ("metrics", "milestones", "mulligans", "loss", "loss_turn"):
        a, b = getattr(fast, name), getattr(slow, name)
        assert a.shape == b.shape, name
        differ = np.flatnonzero((a != b).reshape(len(a), -1).any(axis=1))
        if len(differ):
            g = int(differ[0])
            where = f" (game {picked[g]} of the tape)" if picked is not None else ""
            raise AssertionError(_first_difference(name, fast, slow, g) + where)
    return fast


def stacked_games(
    play_tape: TapeEngine, setup: Setup, turns: int, on_play: bool = True
) -> tuple[Chunk, Record]:
    """One game on both engines from a stacked deck: a tape of 2**32 - 1 makes every
    Fisher–Yates step keep its card (j = i), so both draw ``setup.drawable`` from its end, as
    tests/test_goldfish.Stacked does for the reference. Asserts the records are identical and
    returns the batch engine's chunk and the reference's record."""
    width = sum(n for _, n in setup.drawable)
    tape = np.full((1, 2, width), (1 << 32) - 1, dtype=np.uint32)
    fast = Chunk(0, *play_tape(setup, tape, turns, on_play))
    policy = Compiled(setup.policy, setup.game)
    # the engines return the core's Record (the contract types it by what the core reads)
    record = cast(Record, setup.spec.play.play(setup, policy, Tape(tape[0]), turns, on_play))
    slow = records_chunk(setup, 0, 1, turns, iter([record]))
    for name in ("metrics", "milestones", "mulligans", "loss", "loss_turn"):
        a, b = getattr(fast, name), getattr(slow, name)
        assert a.shape == b.shape and (a == b).all(), _first_difference(name, fast, slow, 0)
    return fast, record


def _first_difference(name: str, fast: Chunk, slow: Chunk, g: int) -> str:
    """Where game ``g`` first differs: the record field, and for metrics the turn and rows."""
    out = f"game {g}: {name} differs: batch {getattr(fast, name)[g].tolist()}"
    out += f", reference {getattr(slow, name)[g].tolist()}"
    if name == "metrics":
        turn = int(np.flatnonzero((fast.metrics[g] != slow.metrics[g]).any(axis=1))[0])
        out = (
            f"game {g}: metrics differ first on turn {turn + 1}: batch "
            f"{fast.metrics[g, turn].tolist()}, reference {slow.metrics[g, turn].tolist()}"
        )
    return out


def agree(a: NDArray[Any], b: NDArray[Any]) -> None:
    """Means per column agree within ``Z`` standard errors of their difference, and so do the
    10th, 50th and 90th percentiles: the q-quantile of each sample lies between the other's
    quantiles at q ∓ Z standard errors of a proportion (sample quantiles of small counts). The
    samples may differ in size (``production_chunks``)."""
    a, b = a.astype(float).reshape(len(a), -1), b.astype(float).reshape(len(b), -1)
    se = np.sqrt(a.var(axis=0) / len(a) + b.var(axis=0) / len(b)) + 1e-9
    assert (np.abs(a.mean(axis=0) - b.mean(axis=0)) <= Z * se + 1e-12).all(), "means"
    qs = (0.1, 0.5, 0.9)
    spreads = [Z * math.sqrt(q * (1 - q) * (1 / len(a) + 1 / len(b))) for q in qs]
    # each sample's quantiles in one call (one partition of its columns for all of them):
    # per q, its own q and the other's bounds q - spread, q + spread
    levels = [*qs, *(max(q - s, 0.0) for q, s in zip(qs, spreads, strict=True))]
    levels += [min(q + s, 1.0) for q, s in zip(qs, spreads, strict=True)]
    at_a, low_a, high_a = np.split(np.quantile(a, levels, axis=0, method="inverted_cdf"), 3)
    at_b, low_b, high_b = np.split(np.quantile(b, levels, axis=0, method="inverted_cdf"), 3)
    for i, q in enumerate(qs):
        for at, low, high in ((at_a[i], low_b[i], high_b[i]), (at_b[i], low_a[i], high_a[i])):
            assert ((low <= at) & (at <= high)).all(), f"p{round(q * 100)}"


def chunks_agree(fast: Chunk, slow: Chunk) -> None:
    """A batch engine's chunk against the reference engine's: every metric on every turn, the
    mulligans, the milestones' rates and their turns, the losses. The two may hold different
    numbers of games (``production_chunks``), never different turns or columns."""
    assert fast.metrics.shape[1:] == slow.metrics.shape[1:]
    assert fast.milestones.shape[1:] == slow.milestones.shape[1:]
    agree(fast.metrics, slow.metrics)
    agree(fast.mulligans, slow.mulligans)
    agree(fast.milestones > 0, slow.milestones > 0)
    agree(fast.milestones, slow.milestones)
    for code in range(1, int(max(fast.loss.max(), slow.loss.max(), 0)) + 1):
        agree(fast.loss == code, slow.loss == code)
    agree(fast.loss_turn, slow.loss_turn)


# the batch engine's games per reference game in ``production_chunks``
BATCH_PER_REFERENCE = 10


def production_chunks(
    setup: Setup, games: int, turns: int, on_play: bool = True
) -> tuple[Chunk, Chunk]:
    """The batch engine's and the reference engine's games of ``setup``, each on its own
    production random numbers (game seeds 1, 2, ...), for ``chunks_agree``: as strict a
    comparison as ``games`` games of each. Every test ``agree`` makes stands on the sum
    1/(batch games) + 1/(reference games), which ``games`` of each make 2/``games``; the batch
    engine plays k = ``BATCH_PER_REFERENCE`` games for each of the reference's, so the
    reference (pure Python: nearly all of the time) plays only (1 + 1/k)/2 of ``games`` (0.55)
    for the same sum: the same tolerances, and the same standard errors where the two engines'
    games spread alike, as they must to agree."""
    k = BATCH_PER_REFERENCE
    reference = math.ceil(games * (1 + 1 / k) / 2)
    fast = play_chunk(setup, 0, range(1, k * reference + 1), turns, on_play)
    assert fast.compiled, "the batch engine does not play this set-up"
    slow = play_chunk(
        dataclasses.replace(setup, fast=False), 0, range(1, reference + 1), turns, on_play
    )
    return fast, slow


def _none(turn: int) -> int:
    return 0


# --- deck-out: games long enough to draw the last card, and the turn the rules give ----------


class DeckOut(NamedTuple):
    """When the rules end a game by deck-out: the turn, and the cards the deck still held."""

    turn: int
    left: int


def deck_out_turn(
    cards: int, required: Callable[[int], int], optional: Callable[[int], int] = _none
) -> DeckOut:
    """The turn whose required draw meets a deck too small for it, worked out from the rules
    alone (no engine): ``cards`` in the deck after the deal; in turn ``t`` the rules draw
    ``required(t)`` cards (fewer left loses), then ``optional(t)`` more while any are left (a
    draw an empty deck skips, such as a draw a card effect grants)."""
    for turn in range(1, 1000):
        need = required(turn)
        if cards < need:
            return DeckOut(turn, cards)
        cards -= need
        cards -= min(cards, optional(turn))
    raise AssertionError("the deck never runs out")  # i18n: machine (a test harness)


def decks_out(chunk: Chunk, out: DeckOut, code: int = 1, deck: int | None = None) -> None:
    """Every game of ``chunk`` lost by loss ``code`` (1 + its index in the spec's losses:
    1 is deck-out) on ``out.turn``, having played each turn before it and none from it on;
    with ``deck`` (the deck metric's column), the deck held ``out.left`` cards at the end of
    the turn before. A batch engine that decks out a draw early or late fails here even where
    the reference agrees with it."""
    turn, turns = out.turn, chunk.metrics.shape[1]
    assert 1 < turn <= turns, f"the games stop at turn {turns}, before the deck-out on {turn}"
    lost = {(c, t): n for c, t, n in _counts(chunk.loss, chunk.loss_turn)}
    assert lost == {(code, turn): len(chunk.loss)}, f"(loss, turn): games {lost}"
    assert (chunk.metrics[:, : turn - 1] >= 0).all(), "a turn before the deck-out not played"
    assert (chunk.metrics[:, turn - 1 :] == -1).all(), "a turn played from the deck-out on"
    if deck is not None:
        left = chunk.metrics[:, turn - 2, deck]
        assert (left == out.left).all(), f"deck before the deck-out: {set(left.tolist())}"


def _counts(a: NDArray[Any], b: NDArray[Any]) -> list[tuple[int, int, int]]:
    """(a, b, games) for each pair of values the games hold."""
    rows, n = np.unique(np.stack([a, b], axis=1), axis=0, return_counts=True)
    return [(int(x), int(y), int(k)) for (x, y), k in zip(rows, n, strict=True)]


def same_results_any_workers(
    parsed: DeckList, fmt: Format, index: CardIndex, policy: Policy
) -> None:
    """A batch run is the same with 1 or 2 workers from one seed (chunks are seeded by their
    first game, never by the worker), and another seed plays other games."""
    runs = [
        goldfish(
            parsed, fmt, index, policy, GoldfishRequest(games=30_000, turns=8, seed=5, workers=w)
        )
        for w in (1, 2)
    ]
    assert all(run.engine == "batch" for run in runs)
    assert runs[0].summary == runs[1].summary
    assert runs[0].per_turn == runs[1].per_turn
    assert runs[0].milestones == runs[1].milestones
    other = goldfish(parsed, fmt, index, policy, GoldfishRequest(games=3000, turns=8, seed=6))
    assert other.per_turn != runs[0].per_turn
