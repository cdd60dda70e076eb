"""Pilots as data: keep rules, play priorities and switches, per game, from TOML or YAML.

The default pilot of each game (its spec's ``default_policy``) is documented in docs/goldfish.md.
A policy file
overrides any key; an unknown key or a bad value is an error naming the key.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, ValidationError

from deckcheck import plugins
from deckcheck.errors import UsageError
from deckcheck.files import read_limited
from deckcheck.i18n import _
from deckcheck.models import Card
from deckcheck.odds.conditions import Atom, Condition, ConditionError, parse_atom, parse_condition
from deckcheck.odds.known import check_atoms
from deckcheck.resolve import CardIndex

# A policy is a page of keys; anything larger is no policy file (and /dev/zero never ends).
MAX_POLICY_BYTES = 1 << 20


class PolicyError(UsageError, ValueError):
    """A policy file that cannot be used; the message names the file and the key."""


class Policy(BaseModel):
    """What the pilot does, the keys every game shares. Each game's spec subclasses it with its
    own switches (``games/<game>/``). Selectors use the ``--want`` syntax (``type:TYPE``,
    ``level<=2``); a list puts earlier selectors first, and ties go to the higher level, then
    cost."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    # the keys that hold selector lists, parsed once per game by ``Compiled``
    SELECTORS: ClassVar[tuple[str, ...]] = ("play_first",)

    name: str = "default"
    game: str | None = None
    keep: tuple[str, ...] = ()  # conditions ("SELECTOR OP K") a kept opening hand meets
    play_first: tuple[str, ...] = ()  # which cards to play first
    mulligan: bool = True

    def aside_choice(self) -> str | None:
        """The card the pilot chooses to set aside before the deal, if the game asks."""
        return None


def default_policy(game: str) -> Policy:
    return _pilot(game, plugins.get(game).play.default_policy)


def _pilot(game: str, policy: object) -> Policy:
    """A game's policy, which must be a ``Policy`` (its spec's ``policy`` subclasses it): the
    contract types it by a protocol, the pilots' code reads the common keys."""
    if not isinstance(policy, Policy):
        raise TypeError(
            _(
                "game {game}: its policy is a {cls}, not a Policy",
                game=repr(game),
                cls=type(policy).__name__,
            )
        )
    return policy


def policy_from_keys(
    game: str, keys: Mapping[str, Any], where: str, name: str | None = None
) -> Policy:
    """The game's default pilot with ``keys`` replaced (and ``name``, when given); errors name
    ``where`` and the key."""
    spec = plugins.get(game)
    base = spec.play.default_policy.model_dump()
    try:
        named = {"name": name} if name else {}
        found = spec.play.policy.model_validate({**base, **named, **keys})
    except ValidationError as exc:
        lines = [_("{where}: not a valid policy:", where=where)]
        for err in exc.errors():
            key = ".".join(str(p) for p in err["loc"]) or _("(top level)")
            lines.append(f"  {key}: {err['msg']}")
        raise PolicyError("\n".join(lines)) from exc
    policy = _pilot(game, found)
    if policy.game is not None and policy.game != game:
        raise PolicyError(
            _(
                "{where}: game: the policy is for {policy_game}, the deck is {game}",
                where=where,
                policy_game=policy.game,
                game=game,
            )
        )
    compiled(policy, game)  # selector errors name the key too
    return policy


def read_keys(path: Path) -> dict[str, Any]:
    """A policy file's keys, read but not yet checked (the service checks them)."""
    raw = read_limited(path, MAX_POLICY_BYTES, PolicyError, "a policy file")
    data: Any
    try:
        if path.suffix.lower() in (".yaml", ".yml"):
            import yaml

            data = yaml.safe_load(raw.decode("utf-8")) or {}
        else:
            data = tomllib.loads(raw.decode("utf-8"))
    except Exception as exc:  # the parsers raise several classes; all mean "not readable"
        syntax = "YAML" if path.suffix.lower() in (".yaml", ".yml") else "TOML"
        raise PolicyError(
            _("{path}: not valid {syntax}: {error}", path=path, syntax=syntax, error=exc)
        ) from exc
    if not isinstance(data, dict):
        raise PolicyError(_("{path}: a policy is a table of keys", path=path))
    return data


def load_policy(path: Path | None, game: str) -> Policy:
    if path is None:
        return default_policy(game)
    return policy_from_keys(game, read_keys(path), str(path), path.stem)


class Compiled:
    """A policy's selectors parsed for one game."""

    def __init__(self, policy: Policy, game: str) -> None:
        self.policy = policy
        self.keep: list[Condition] = _conditions("keep", policy.keep, game)
        self.atoms: dict[str, list[Atom]] = {
            key: _atoms(key, getattr(policy, key), game) for key in policy.SELECTORS
        }
        self.play_first: list[Atom] = self.atoms["play_first"]
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


def compiled(policy: Policy, game: str) -> Compiled:
    return Compiled(policy, game)


def selector_atoms(policy: Policy, game: str) -> dict[str, list[Atom]]:
    """Every selector atom of the policy, by its key (``keep``'s conditions' atoms too)."""
    found = Compiled(policy, game)
    return {"keep": [a for c in found.keep for a in c.atoms], **found.atoms}


def check_named(policy: Policy, game: str, index: CardIndex) -> None:
    """A ``PolicyError`` naming the key when a selector names a card, keyword or column value
    no card of ``game`` has (``odds.known``'s test, with its suggestions): a misspelt card in
    ``keep`` or ``play_first`` matched nothing, silently, as issue 23's misspelt odds did.
    ``index`` must know the whole pool's names and values, not only a deck's."""
    for key, atoms in selector_atoms(policy, game).items():
        try:
            check_atoms(atoms, game, index)
        except ConditionError as exc:
            raise PolicyError(f"{key}: {exc}") from exc


def _conditions(key: str, texts: Sequence[str], game: str) -> list[Condition]:
    try:
        return [parse_condition(t, game) for t in texts]
    except ConditionError as exc:
        raise PolicyError(f"{key}: {exc}") from exc


def _atoms(key: str, texts: Sequence[str], game: str) -> list[Atom]:
    try:
        return [parse_atom(t, game) for t in texts]
    except ConditionError as exc:
        raise PolicyError(f"{key}: {exc}") from exc
