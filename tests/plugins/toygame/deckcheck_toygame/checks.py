"""The toy game's own check table, ``[[word_limit]]``: at most ``limit`` cards whose name holds
``word``, counted together (deckcheck's test fixture, not a real rule). The spec declares it,
so only toy formats may carry the table, and every command that reads a toy format knows it."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pydantic import Field

from deckcheck.sdk import (
    Check,
    CheckTable,
    Context,
    Row,
    Violation,
    card_counts,
    first_line,
    nfkc,
    plural,
)
from deckcheck.sdk import slots_total as total


class WordLimit(Check):
    word: str = Field(min_length=1)
    limit: int = Field(ge=0)
    sections: tuple[str, ...] = ("main",)


def word_limit_check(ctx: Context, counts: dict[str, int]) -> list[Violation]:
    out: list[Violation] = []
    for rule in WORD_LIMIT.of(ctx.fmt):
        word = nfkc(rule.word)
        found = [s for s in ctx.in_sections(rule.sections) if word in nfkc(s.card.name)]
        n = total(found)
        if n <= rule.limit:
            continue
        out.append(
            Violation(
                rule=rule.rule,
                severity=rule.severity,
                message=f"{plural(n, 'card')} named with {rule.word}; at most {rule.limit}",
                cards=card_counts(found),
                line=first_line(found),
                source=rule.source,
                fix=f"remove {plural(n - rule.limit, 'card')} named with {rule.word}",
            )
        )
    return out


def _describe(rule: WordLimit) -> Iterable[Row]:
    yield Row(rule.rule, f"at most {rule.limit} cards named with {rule.word}", rule.source)


WORD_LIMIT = CheckTable(
    name="word_limit",
    model=WordLimit,
    check=word_limit_check,
    describe=_describe,
    order=650,
)


def tables() -> tuple[CheckTable[Any], ...]:
    return (WORD_LIMIT,)
