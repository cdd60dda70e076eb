"""One game of a goldfish run, turn by turn (``deckcheck goldfish DECK --replay N``,
``POST /goldfish/replay``).

Game N is the reference engine's game N of ``deckcheck goldfish DECK --engine reference`` with
the same seed, turns and side: it is played from the N-th seed of the run's SeedSequence
(``setup.game_seeds``), as that run plays it. The batch engine (the default when it is
compiled) plays the same rules on shuffles of its own, drawn per chunk, so its game N is
another game; its statistics agree with the reference engine's within sampling error
(tests/test_fast_*.py), not game by game."""

from __future__ import annotations

from pydantic import BaseModel, Field

from deckcheck.formats import Format
from deckcheck.goldfish.common import GoldfishError
from deckcheck.goldfish.run import MAX_GAMES, MAX_TURNS, play_one
from deckcheck.goldfish.setup import Setup, game_seeds
from deckcheck.goldfish.trace import Trace
from deckcheck.i18n import _
from deckcheck.models import FormatVersion, Game


class ReplayRequest(BaseModel):
    game: int = Field(1, ge=1, le=MAX_GAMES)  # game N of the run, from 1
    turns: int = Field(10, ge=1, le=MAX_TURNS)
    seed: int = Field(0, ge=0)
    on_play: bool = True


class ReplayStep(BaseModel):
    action: str  # a tag: hand, mulligan, draw, resource, play, discard, end, …
    text: str


class ReplayTurn(BaseModel):
    turn: int  # 0: the set-up (opening hand, mulligan)
    steps: list[ReplayStep]
    state: str  # the resources at the end of the turn ("" when the game ended in it)


class ReplayResult(BaseModel):
    deck: str | None
    format: str
    game: Game
    number: int  # which game of the run
    seed: int  # the run's seed
    game_seed: int  # the game's own seed (the run's SeedSequence's word number - 1)
    turns: int
    on_play: bool
    engine: str = "reference"
    log: list[ReplayTurn]
    final: str  # the state the game ended in, or how it was lost
    loss: str | None = None
    loss_turn: int = 0
    mulligans: int = 0
    milestones: dict[str, int | None] = Field(default_factory=dict)  # first turn, None never
    metrics: list[dict[str, int]] = Field(default_factory=list)  # per turn, as the run counts
    format_version: FormatVersion | None = None


def replay(setup: Setup, fmt: Format, req: ReplayRequest, deck: str | None = None) -> ReplayResult:
    """Play game ``req.game`` of a run of seed ``req.seed`` again, written down."""
    seed = game_seeds(req.seed, req.game)[-1]
    trace = Trace()
    spec = setup.spec
    try:
        record = play_one(setup, seed, req.turns, req.on_play, trace)
    except TypeError as exc:  # a game package whose engine takes no trace (its play has 5)
        if "positional argument" not in str(exc):
            raise
        raise GoldfishError(
            _("the {game} goldfish engine cannot tell a game step by step", game=spec.id)
        ) from exc
    final = trace.turns[-1].state if not record.loss else ""
    if record.loss:
        lost = (loss.label for loss in spec.play.losses if loss.name == record.loss)
        label = next(lost, record.loss)
        final = _("lost on turn {turn}: {reason}", turn=record.loss_turn, reason=_(label))
        trace.step("end", final)
    log = [
        ReplayTurn(
            turn=t.turn,
            steps=[ReplayStep(action=s.action, text=s.text) for s in t.steps],
            state=t.state,
        )
        for t in trace.turns
    ]
    return ReplayResult(
        deck=deck,
        format=fmt.id,
        game=fmt.game,
        number=req.game,
        seed=req.seed,
        game_seed=seed,
        turns=req.turns,
        on_play=req.on_play,
        log=log,
        final=final,
        loss=record.loss,
        loss_turn=record.loss_turn,
        mulligans=record.mulligans,
        milestones={
            name: (turn or None)
            for name, turn in zip(spec.play.milestones, record.milestones, strict=True)
        },
        metrics=[dict(zip(spec.play.metrics, row, strict=True)) for row in record.metrics],
        format_version=fmt.version,
    )
