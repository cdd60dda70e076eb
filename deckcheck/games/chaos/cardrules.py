"""How ChaosTCG's rules read a card (ChaosTCG 総合ルール 2016-05-17): its ネーム (§2.1), its
append rules (§13), whether it levels up the partner (§10.3), enters (§13 [アラガミ]) or is played
from the extra deck (§10.1). The reference engine and the batch engine's encoding share them."""

from __future__ import annotations

import re

from deckcheck.sdk import Card, name_key, nfkc, per_card, word_key


def _key(name: str) -> str:
    return name_key("chaos", name)


@per_card
def key_of(card: Card) -> str:
    """The card's card name as a key (§2.1: two cards of one card name are the same card)."""
    return _key(card.name)


@per_card
def cost_parts(card: Card) -> tuple[str, ...]:
    """An extra card's ``extra_cost`` (§10.1, §4.2): its parts joined by ``&``, as keys."""
    return tuple(_key(p) for p in (card.text_of("extra_cost") or "").split("&"))


TST = "TST ゲージ"
MITSUKI = "神前美月"  # §13 [TST ゲージ]: its sets go only on a chara of this ネーム
ARAGAMI, SOLRAL = "アラガミ", "ソルラルチャージ"  # §13 append rules on how a card enters


def _quoted(text: str) -> list[str]:
    """The 「…」 parts of ``text``, left to right, in linear time (a regular expression for
    this backtracks quadratically on a long run of 「)."""
    out, start = [], text.find("「")
    while start >= 0:
        end = text.find("」", start + 1)
        if end < 0:
            break
        if end > start + 1:  # as re.findall(r"「([^」]+)」") would, without its backtracking
            out.append(text[start + 1 : end])
        start = text.find("「", end + 1)
    return out


_SPACE = re.compile(r"\s+")  # spaces are not part of a name (§2.1)


@per_card
def names(card: Card) -> frozenset[str]:
    """The ネーム of a card (§2.1): its 「…」 parts; none with [はるかさん] (§13, §11.4)."""
    if word_key("はるかさん") in appends(card):
        return frozenset()
    return frozenset(_SPACE.sub("", n).casefold() for n in _quoted(nfkc(card.name)))


@per_card
def appends(card: Card) -> frozenset[str]:
    """The keys (``word_key``) of the card's append words (§13), worked out once per card."""
    return frozenset(word_key(a) for a in card.items_of("append"))


def _has(card: Card, append: str) -> bool:
    return word_key(append) in appends(card)


def levels_up(card: Card, partner_key: str) -> bool:
    """§10.3: 「手札からパートナーと同じカード名のキャラカードを 1 枚」: a chara card only."""
    return card.type == "chara" and key_of(card) == partner_key


_ARAGAMI = word_key(ARAGAMI)


def may_enter(card: Card) -> bool:
    """§13 [アラガミ]: 「アペンドルール[アラガミ]を持つカードを登場させようとする場合それは
    何もしません」: such a card never enters, as a friend or as an extra chara."""
    return _ARAGAMI not in appends(card)


def plays_as_extra(card: Card) -> bool:
    """An extra card the pilot plays by §10.1: it has an extra cost (without one its way in is
    card text, not played), it may enter, and it has no [ソルラルチャージ] (§13: 「このカードが
    エクストラデッキにある間アペンドルール[ソルラルチャージ]の効果によってのみ…エクストラ
    デッキから他の領域に移動したりできま」)."""
    return bool(card.text_of("extra_cost")) and may_enter(card) and not _has(card, SOLRAL)


def charges(card: Card, partner: Card) -> bool:
    """§13 [ソルラルチャージ]: ``card`` in the extra deck may cover ``partner`` at the start of
    the battle phase (it shares a ネーム with the partner)."""
    return _has(card, SOLRAL) and may_enter(card) and bool(names(card) & names(partner))


def _meets(card: Card, part: str) -> bool:
    return _met(key_of(card), part)


def _met(key: str, part: str) -> bool:
    """Whether a card of ``key`` (``key_of``) meets one part of an extra card's cost: the part
    is a non-empty piece of the key."""
    return bool(part) and part in key
