"""Pilots as data: keep rules, play priorities and switches, per game, from TOML or YAML.

The default pilot of each game (``DEFAULTS``) is documented in the README. A policy file
overrides any key; an unknown key or a bad value is an error naming the key.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from deckcheck.errors import UsageError
from deckcheck.models import Card, Game
from deckcheck.odds.conditions import Atom, Condition, ConditionError, parse_atom, parse_condition


class PolicyError(UsageError, ValueError):
    """A policy file that cannot be used; the message names the file and the key."""


class Policy(BaseModel):
    """What the pilot does. Selectors use the ``--want`` syntax (``type:paradox``, ``level<=2``);
    a list puts earlier selectors first, and ties go to the higher level, then cost."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = "default"
    game: Game | None = None
    keep: tuple[str, ...] = ()  # conditions ("SELECTOR OP K") a kept opening hand meets
    play_first: tuple[str, ...] = ()  # which members / friends / units / characters first
    level_area_first: tuple[str, ...] = ()  # rakuen: cards to put into the level area first
    partner: str | None = None  # chaos: the chara to choose when the deck has no partner card
    mulligan: bool = True
    attack_draw: bool = True  # chaos: attack with the partner to draw
    play_sets: bool = True  # chaos
    play_extras: bool = True  # chaos
    luck_drive: bool = True  # rakuen: 3 stock → draw 1
    luck_drive_when_stuck: bool = True  # rakuen: only on a turn that deployed no member
    swap_level: bool = False  # rakuen: with 4 level cards, swap one for a hand card of a new color
    gattai: bool = True  # rakuen: 合体 once a turn
    charge: bool = True  # iris
    retreat: bool = False  # iris: nothing attacks in a goldfish, so no reason to retreat
    use_commands: bool = True  # iris: strategies, tactics, enhancements
    node_per_turn: int = Field(1, ge=0, le=5)  # vision (overridden by the format's parameter)


DEFAULTS: dict[Game, Policy] = {
    Game.CHAOS: Policy(
        name="chaos default",
        keep=("type:chara|type:partner>=2",),
        play_first=("power>=5", "type:chara"),
    ),
    Game.RAKUEN: Policy(
        name="rakuen default",
        keep=("type:member>=2",),
        play_first=("kind:合理体", "level>=2", "type:member"),
        level_area_first=("type:paradox", "type:tactics"),
    ),
    Game.VISION: Policy(name="vision default", keep=(), play_first=("type:character",)),
    Game.IRIS: Policy(name="iris default", keep=(), play_first=("hp>=4", "type:unit")),
}


def read_keys(path: Path) -> dict[str, Any]:
    """A policy file's keys, read but not yet checked (the service checks them)."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise PolicyError(f"{path}: cannot read: {exc.strerror or exc}") from exc
    data: Any
    try:
        if path.suffix.lower() in (".yaml", ".yml"):
            import yaml

            data = yaml.safe_load(raw.decode("utf-8")) or {}
        else:
            data = tomllib.loads(raw.decode("utf-8"))
    except Exception as exc:  # the parsers raise several kinds; all mean "not readable"
        kind = "YAML" if path.suffix.lower() in (".yaml", ".yml") else "TOML"
        raise PolicyError(f"{path}: not valid {kind}: {exc}") from exc
    if not isinstance(data, dict):
        raise PolicyError(f"{path}: a policy is a table of keys")
    return data


def load_policy(path: Path | None, game: Game) -> Policy:
    base = DEFAULTS[game]
    if path is None:
        return base
    data = read_keys(path)
    try:
        policy = Policy.model_validate({**base.model_dump(), "name": path.stem, **data})
    except ValidationError as exc:
        lines = [f"{path}: not a valid policy:"]
        for err in exc.errors():
            key = ".".join(str(p) for p in err["loc"]) or "(top level)"
            lines.append(f"  {key}: {err['msg']}")
        raise PolicyError("\n".join(lines)) from exc
    if policy.game is not None and policy.game != game:
        raise PolicyError(f"{path}: game: the policy is for {policy.game}, the deck is {game}")
    compiled(policy, game)  # selector errors name the key too
    return policy


class Compiled:
    """A policy's selectors parsed for one game."""

    def __init__(self, policy: Policy, game: Game) -> None:
        self.policy = policy
        self.keep: list[Condition] = _conditions("keep", policy.keep, game)
        self.play_first: list[Atom] = _atoms("play_first", policy.play_first, game)
        self.level_first: list[Atom] = _atoms("level_area_first", policy.level_area_first, game)
        self._ranks: dict[tuple[int, int], tuple[int, int, int, str]] = {}
        self._alive: list[Card] = []

    def rank(self, card: Card, selectors: Sequence[Atom]) -> tuple[int, int, int, str]:
        """Sort key: first matching selector, then higher level, higher cost, number.
        Memoised per card: games share their card objects, so this is mostly a lookup."""
        key = (id(card), id(selectors))
        hit = self._ranks.get(key)
        if hit is None:
            first = next((i for i, a in enumerate(selectors) if a.matches(card)), len(selectors))
            hit = (first, -(card.level or 0), -(card.cost or 0), card.number)
            self._ranks[key] = hit
            self._alive.append(card)  # keeps the id from being reused while memoised
        return hit


def ranker(
    policy: Compiled, selectors: Sequence[Atom]
) -> Callable[[Card], tuple[int, int, int, str]]:
    """``policy.rank`` for one selector list, as a one-lookup function (for hot loops)."""
    memo: dict[int, tuple[int, int, int, str]] = {}

    def rank(card: Card) -> tuple[int, int, int, str]:
        hit = memo.get(id(card))
        if hit is None:
            hit = memo[id(card)] = policy.rank(card, selectors)
        return hit

    return rank


def compiled(policy: Policy, game: Game) -> Compiled:
    return Compiled(policy, game)


def _conditions(key: str, texts: Sequence[str], game: Game) -> list[Condition]:
    try:
        return [parse_condition(t, game) for t in texts]
    except ConditionError as exc:
        raise PolicyError(f"{key}: {exc}") from exc


def _atoms(key: str, texts: Sequence[str], game: Game) -> list[Atom]:
    try:
        return [parse_atom(t, game) for t in texts]
    except ConditionError as exc:
        raise PolicyError(f"{key}: {exc}") from exc
