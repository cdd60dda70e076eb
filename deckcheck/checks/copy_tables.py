"""The tables of the copy limit (``[copies]``, ``[[limit_overrides]]``): what the validator's
slots read of every card (slots.CardFacts), and what the copy check (copies.py) reports."""

from __future__ import annotations

import re
from typing import Literal

from pydantic import ConfigDict, Field, model_validator

from deckcheck.checks.base import Check, Strict
from deckcheck.i18n import _
from deckcheck.models import Severity


class Match(Strict):
    """Selects cards by a keyword, a keyword pattern with a number ``n``, or a word that a list
    column of the game's cards holds (``{ COLUMN = "word" }``: any key but the two below names
    a column; ``Format`` checks that its game has that list column)."""

    model_config = ConfigDict(extra="allow", frozen=True)

    keyword: str | None = None
    keyword_pattern: str | None = None

    @property
    def column(self) -> tuple[str, str] | None:
        """(column, word) when the match is by a list column's word, else None."""
        return next(iter((self.model_extra or {}).items()), None)

    @model_validator(mode="after")
    def _one(self) -> Match:
        given = [x for x in (self.keyword, self.keyword_pattern) if x is not None]
        extra = self.model_extra or {}
        if len(given) + len(extra) != 1:
            raise ValueError(
                _("give exactly one of keyword, keyword_pattern or a list column of the cards")
            )
        for column, value in extra.items():
            if not isinstance(value, str):
                raise ValueError(_("{column}: give the word as text", column=column))
        if self.keyword_pattern is not None:
            try:
                compiled = re.compile(self.keyword_pattern)
            except re.error as exc:
                raise ValueError(
                    _("keyword_pattern is not a regular expression: {error}", error=exc)
                ) from exc
            if "n" not in compiled.groupindex:
                raise ValueError(
                    _("keyword_pattern needs a named group (?P<n>...) for the limit")
                )
        return self


class Copies(Check):
    """The general copy limit. ``key``: how two cards are "the same" for counting."""

    # "name", "name+type", or a key the format's game adds (GameSpec.cards.copy_keys); the format
    # loader checks it
    key: str
    limit: int = Field(ge=0)
    sections: tuple[str, ...] = ("main",)
    # "name+type": card types that count as one type for the limit (a format that reads its
    # rulebook's 種類 as coarser than the card types groups them here)
    type_groups: dict[str, tuple[str, ...]] = Field(default_factory=dict)


class LimitOverride(Strict):
    """A word (a keyword, a list column's word) that replaces the general copy limit for its
    cards.

    ``limit = "unlimited"`` exempts them; a number (or the pattern's ``n``) is a stricter
    limit reported under this override's own rule.
    """

    match: Match
    limit: int | Literal["unlimited", "pattern"]
    rule: str | None = None
    source: str
    severity: Severity = "error"
    # ``same-name``: the limit replaces the general one for every card of the name (a rulebook
    # that says 「同一のカード名のカードは合わせて」); ``matching``: it limits only the cards that
    # carry the word, and the general limit still counts the whole name (「同名で「デッキ1枚制限」
    # を持つカード」: a printing without the keyword is not limited by it). The format's override
    # cites the rulebook section it reads (formats/*.toml).
    counts: Literal["same-name", "matching"] = "same-name"

    @model_validator(mode="after")
    def _rule_for_limits(self) -> LimitOverride:
        if self.limit != "unlimited" and self.rule is None:
            raise ValueError(_("a numeric or pattern limit needs a rule id"))
        if (self.limit == "pattern") != (self.match.keyword_pattern is not None):
            raise ValueError(
                _('limit = "pattern" goes with match.keyword_pattern, and only with it')
            )
        return self
