"""Every keyword form printed on VISION's cards, and what the goldfish does with it: modelled
(with its source), not relevant to solitaire play (with the reason), or not modelled yet (with
what a user loses). A form is a keyword with its number written X (抵抗(3) → 抵抗(X)): ``form``.
docs/goldfish.md and docs/goldfish.ja.md print the same table; tests/test_vision_keywords.py
checks that every form in card_pool/vision/cards.csv has a row."""

from __future__ import annotations

import re

from deckcheck.sdk import N_, _, _p

MODELLED = N_("modelled")
IRRELEVANT = N_("not relevant to solitaire play")
NOT_YET = N_("not modelled yet")

_COUNT = re.compile(r"\([0-9X]+\)")

_COMBAT = N_(
    "acts only in combat against the opponent's characters or on the opponent's cards; the "
    "goldfish attacks an empty board (deckcheck's reading: the sources deckcheck cites do "
    "not give its text)"
)
_RESIST = N_(
    "acts only against the cards of that class that the opponent plays: the glossary "
    "deckcheck cites has no entry for it (deckcheck's reading of its name and cards)"
)

# (form, status, source or reason), in the order of the cards' counts
ROWS: tuple[tuple[str, str, str], ...] = (
    ("抵抗(X)", IRRELEVANT, N_(
        "キーワード用語集 「抵抗(X)」: the opponent pays X more to negate the card's play; no "
        "opponent plays in a goldfish")),
    ("世界呪符", MODELLED, N_(
        "キーワード用語集 「世界呪符」: set on your field, one played a turn")),
    ("Union", MODELLED, N_(
        "the card data's mark of 【連結】 (キーワード用語集 「連結」): one named card per part "
        "removed from 冥界, hand or field; its name counts as each linked name; a part "
        "given by a condition, not a name, is not played")),
    ("装備", MODELLED, N_(
        "キーワード用語集 「装備」: set on one of your characters, one per character")),
    ("伝説", MODELLED, N_(
        "キーワード用語集 「神器」: the only characters a 神器 card may be set on")),
    ("先制", IRRELEVANT, _COMBAT),
    ("速攻", MODELLED, N_(
        "「Phantom Magic Vision 総合ルール」 §10.2: the character enters active, so it attacks "
        "the turn it comes into play (its マナチャージ waits for the next turn: the pilot "
        "charges at the start of the main phase)")),
    ("呪符", MODELLED, N_(
        "キーワード用語集 「呪符」: set on a character, any number; its +N adds to the host")),
    ("警戒", IRRELEVANT, _COMBAT),
    ("装備/場", MODELLED, N_(
        "キーワード用語集 「装備/場」: set on your field, one there; the pilot's field_commands "
        "plays these commands in the main phase")),
    ("マナチャージ(X)", MODELLED, N_(
        "「Phantom Magic Vision 総合ルール」 §10.12.2.a: sleep the character, the deck's top X "
        "cards become sleeping nodes; not the turn it enters asleep; by the pilot's "
        "mana_charge policy, instead of its attack; a card set on a character gives it the "
        "ability (キーワード用語集: a set card's text is its host's). A variable X counts as 0")),
    ("幻想生物", MODELLED, N_(
        "キーワード用語集 「幻想生物」: a spell set asleep that is a character from then on")),
    ("加護(X)", IRRELEVANT, _COMBAT),
    ("奇襲", MODELLED, N_(
        "東方VISIONオンライン rules, 戦術: does not count toward the one character a turn")),
    ("貫通", IRRELEVANT, _COMBAT),
    ("人形", MODELLED, N_(
        "東方VISIONオンライン rules, 戦術: its own once-a-turn play (dolls_per_turn), and "
        "「人形を持つキャラクターは攻撃できない」")),
    ("隠密", IRRELEVANT, _COMBAT),
    ("自分ターン1枚制限", MODELLED, N_(
        "キーワード用語集 「ターン1枚制限」: one of that name a turn, only in your turn")),
    ("ラストワード", MODELLED, N_(
        "キーワード用語集 「ラストワード」: played only while its 術者 is on your field")),
    ("相手ターン制限", MODELLED, N_(
        "played only in the opponent's turn, which a goldfish does not play: never played "
        "(deckcheck's reading of the name, as キーワード用語集 「相手ターン1枚制限」)")),
    ("デッキ1枚制限", MODELLED, N_(
        "キーワード用語集 「デッキ1枚制限」: a construction limit (vision/deck-limit); no "
        "effect in play")),
    ("ターン1枚制限", MODELLED, N_(
        "キーワード用語集 「ターン1枚制限」: one of that name played a turn")),
    ("即死", IRRELEVANT, _COMBAT),
    ("神器", MODELLED, N_(
        "キーワード用語集 「神器」: set only on a character with 伝説")),
    ("ラストスペル", IRRELEVANT, N_(
        "キーワード用語集 「ラストスペル」: with its 術者 on your field it may be played at "
        "command timing; the goldfish plays spells in your main phase either way")),
    ("自分ターン制限", MODELLED, N_(
        "played only in your turn (deckcheck's reading of the name, as キーワード用語集 "
        "「自分ターン1枚制限」): the goldfish plays only your turns, so no limit acts")),
    ("封術", NOT_YET, N_(
        "its text is not in the sources deckcheck cites; the card is played as if it had "
        "no such keyword, so a limit it puts on your plays would be missed")),
    ("変身", NOT_YET, N_(
        "the sources deckcheck cites do not say how a 変身 card enters play; it is played "
        "as an ordinary card from the hand, which may be wrong for its 14 cards")),
    ("壱符", IRRELEVANT, N_(
        "キーワード用語集 「壱符」: acts when the character becomes 決死, which only the "
        "opponent's damage causes; the card is played as an ordinary character")),
    ("弐符", MODELLED, N_(
        "キーワード用語集 「弐符」: enters only by 壱符's spell break, so never played from the "
        "hand; a deck warning (vision/spell-break)")),
    ("リーダー", MODELLED, N_(
        "キーワード用語集 「リーダー」: at most the format's leaders on your field")),
    ("オーバードライブ", MODELLED, N_(
        "キーワード用語集 「オーバードライブ」: its play removes 1 or more cards of its 術者 "
        "(a character named after it, or a spell of the same 術者) from 冥界, else the card "
        "itself is removed; the pilot plays it only with one there and removes one, the first "
        "in 冥界 (deckcheck's reading)")),
    ("相手ターン1枚制限", MODELLED, N_(
        "キーワード用語集 「ターン1枚制限」: 「自分ターンの間にプレイ出来ず」: never played")),
    ("耐性:人間", IRRELEVANT, _RESIST),
    ("耐性:妖怪", IRRELEVANT, _RESIST),
    ("耐性:幽霊", IRRELEVANT, _RESIST),
    ("耐性:魔界人", IRRELEVANT, _RESIST),
    ("耐性:魔法使い", IRRELEVANT, _RESIST),
    ("耐性:神", IRRELEVANT, _RESIST),
    ("耐性:死神", IRRELEVANT, _RESIST),
    ("耐性:人間、幽霊、死神", IRRELEVANT, _RESIST),
    ("装備を/場", MODELLED, N_(
        "read as 装備/場 (one card's printing in the card list; deckcheck's reading)")),
    ("このカードはデッキに入れることが出来ない", MODELLED, N_(
        "the card's own text: a construction rule (vision/deck-limit, limit 0)")),
)  # fmt: skip


def form(keyword: str) -> str:
    """A keyword's form: its count written X."""
    return _COUNT.sub("(X)", keyword)


def shown(form: str) -> str:
    """A form as people read it: the card data's English 「Union」 in the game's word."""
    return _p("vision", "Union") if form == "Union" else form


def table() -> list[tuple[str, str, str]]:
    """The rows in the language of the moment."""
    return [(shown(f), _(status), _(why)) for f, status, why in ROWS]
