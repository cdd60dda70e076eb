"""The ChaosTCG partner rule, once, built from the format's ``[partner]`` table.

総合ルール 2016-05-17 §6.2: the partner is the deck's partner card if it has one, else a chara
card of the main deck that the player chooses; §6.1: a card with 「パートナーにできない」 cannot
be partner; §13: neither can a [はるかさん] card. The validator (``checks.partner_check``), odds
and hands (``--aside``, the player's choice) and goldfish all ask this module.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from deckcheck.games.chaos.tables import Partner, partner_of
from deckcheck.sdk import (
    N_,
    Aside,
    AsideError,
    Card,
    UnanswerableError,
    _,
    a_an,
    name_key,
    number_key,
    word,
    word_key,
    words,
)
from deckcheck.sdk import current_language as current

if TYPE_CHECKING:
    from deckcheck.sdk import Format


_MEMO: dict[tuple[int, int], tuple[Partner, Card, bool]] = {}


def may_partner(rule: Partner, card: Card) -> bool:
    """Whether ``card`` may be the partner under ``rule`` (memoised: the validator asks for
    every chara of every deck)."""
    hit = _MEMO.get((id(rule), id(card)))
    if hit is not None and hit[0] is rule and hit[1] is card:
        return hit[2]
    if len(_MEMO) > 100_000:  # bounded: a service sees endless cards
        _MEMO.clear()
    answer = _may_partner(rule, card)
    _MEMO[(id(rule), id(card))] = (rule, card, answer)
    return answer


def _may_partner(rule: Partner, card: Card) -> bool:
    if card.type not in rule.candidate_types:
        return False
    keywords = {word_key(k) for k in card.keywords}
    appends = {word_key(a) for a in card.items_of("append")}
    return not any(word_key(k) in keywords for k in rule.forbid_keywords) and not any(
        word_key(a) in appends for a in rule.forbid_appends
    )


def why_not(rule: Partner, card: Card) -> str:
    if card.type not in rule.candidate_types:
        return _(
            "it is {a_type} card, not one of {types}",
            a_type=a_an(word(card.game, card.type)),
            types=words(card.game, rule.candidate_types),
        )
    keywords = {word_key(k) for k in card.keywords}
    appends = {word_key(a) for a in card.items_of("append")}
    carried = [f"「{k}」" for k in rule.forbid_keywords if word_key(k) in keywords]
    carried += [f"[{a}]" for a in rule.forbid_appends if word_key(a) in appends]
    return _("it carries {what}", what=(" and " if current() == "en" else "、").join(carried))


def _is(card: Card, ref: str) -> bool:
    return number_key(card.number) == number_key(ref) or (
        name_key(card.game, card.name) == name_key(card.game, ref)
    )


def choose(rule: Partner, main: Sequence[tuple[Card, int]], choice: str | None, pick: bool) -> Card:
    """The partner of a main deck. With no partner card, ``choice`` names the chara; with no
    choice either, ``pick`` takes the chara with most copies (goldfish), else it is an error."""
    partners = [(c, n) for c, n in main if c.type in rule.partner_types]
    copies = sum(n for _, n in partners)
    if copies > 1:
        raise UnanswerableError(
            _(
                "the deck has {n} partner cards; a deck may have one ({rule}, §6.1)",
                n=copies,
                rule=rule.rule,
            )
        )
    if partners:
        chosen = partners[0][0]
        if choice is not None and not _is(chosen, choice):
            raise AsideError(
                _(
                    "the deck's partner card is {card}; --aside cannot choose another "
                    "({rule}, §6.2)",
                    card=chosen.name,
                    rule=rule.rule,
                )
            )
        if not may_partner(rule, chosen):
            raise UnanswerableError(
                _(
                    "the deck's partner card {card} cannot be partner: {why} ({rule})",
                    card=chosen.name,
                    why=why_not(rule, chosen),
                    rule=rule.rule,
                )
            )
        return chosen
    if choice is not None:
        named = [c for c, _ in main if _is(c, choice)]
        if not named:
            raise AsideError(
                _(
                    "--aside {ref} is not a card of the main deck ({rule})",
                    ref=repr(choice),
                    rule=rule.rule,
                )
            )
        allowed = [c for c in named if may_partner(rule, c)]
        if not allowed:
            raise AsideError(
                _(
                    "--aside {ref} may not be partner: {why} ({rule}: {source})",
                    ref=repr(choice),
                    why=why_not(rule, named[0]),
                    rule=rule.rule,
                    source=rule.source,
                )
            )
        return allowed[0]
    candidates = [(n, c) for c, n in main if may_partner(rule, c)]
    if not candidates:
        raise UnanswerableError(
            _("no card of the main deck may be partner ({rule})", rule=rule.rule)
        )
    if not pick:
        raise AsideError(
            _(
                "the deck has no partner card: name the chara you will choose as partner with "
                "--aside REF"
            )
        )
    return max(candidates, key=lambda nc: (nc[0], nc[1].int_of("power") or 0, nc[1].number))[1]


def set_aside(
    main: Sequence[tuple[Card, int]], fmt: Format, choice: str | None, pick: bool
) -> tuple[list[tuple[Card, int]], list[Aside[Card]]]:
    """The spec's set-aside hook: the partner leaves the deck before the deal (§6.2)."""
    rule = partner_of(fmt)
    if rule is None:
        if choice is not None:
            raise AsideError(_("format {format} has no partner rule; drop --aside", format=fmt.id))
        return list(main), []
    chosen = choose(rule, main, choice, pick)
    rest = [(c, n - (1 if c is chosen else 0)) for c, n in main]
    label = N_("partner, set aside")  # shown through the catalogue (odds.api.view)
    aside = Aside("partner", label, (chosen,), "ChaosTCG 総合ルール 2016-05-17 §6.2")
    return [(c, n) for c, n in rest if n > 0], [aside]
