"""What the VISION goldfish engines read off one card (its keywords as the glossary names them),
worked out once per card: ``facts``. Shared by the reference engine (engine.py) and the batch
engine's encoder (encode.py), so both read a card the same way."""

from __future__ import annotations

import re
from dataclasses import dataclass

from deckcheck.sdk import Card, is_blank, nfkc, per_card

_NUMBER = re.compile(r"[0-9]+")
_BONUS = re.compile(r"\+[0-9]+")
_MANA = re.compile(r"マナチャージ\(([0-9]+)\)")
# played only in the opponent's turn (glossary 「ターン1枚制限」: 相手ターン1枚制限
# 「自分ターンの間にプレイ出来ず」), which goldfish does not play
_THEIR_TURN = frozenset(("相手ターン制限", "相手ターン1枚制限"))
_ONCE_A_TURN = frozenset(("ターン1枚制限", "自分ターン1枚制限"))  # one of that name a turn


def _named(option: str) -> bool:
    """``PREFIX「NAME」`` (e.g. 夢符「…」), checked without a regular expression: the one this
    replaces backtracked quadratically on long text (tests/test_regex_time.py)."""
    start = option.find("「")
    return (
        start >= 0
        and option.endswith("」")
        and len(option) > start + 2
        and not any(c in "「」+" for c in option[:start])
        and "」" not in option[start + 1 : -1]
    )


@dataclass(frozen=True, slots=True)
class Facts:
    """What the engine reads off one card, worked out once."""

    role: str  # character, creature (幻想生物: a spell that becomes a character), spell, command
    node: int  # 必要ノード: the nodes in play it needs
    cost: int  # コスト: the active nodes it sleeps
    attack: int  # a character's printed attack (0 when not a number)
    bonus: int  # a set-on-character spell's or a command's +N attack
    on_character: bool  # 装備 / 呪符: set on one of your characters, so it needs one
    equip: bool  # 装備: at most one on a character (glossary 「装備」)
    on_field: bool  # 世界呪符, 装備/場: set on your field, not put in 冥界
    world: bool  # 世界呪符: one played a turn (glossary 「世界呪符」)
    field_equip: bool  # 装備/場: one on your field (glossary 「装備/場」)
    once_a_turn: bool  # ターン1枚制限: one of its name played a turn (glossary)
    upkeep: int  # 維持コスト: paid each maintenance phase or the card is 破棄
    mana: int  # マナチャージ(X): X cards from the deck's top become sleeping nodes (CR §10.12)
    surprise: bool  # 奇襲: does not count toward the characters of the turn (ONL 戦術)
    doll: bool  # a 人形 character: its own once-a-turn play (ONL 戦術)
    # 人形 on a character or a 幻想生物 (a character once in play): ONL 戦術
    # 「人形を持つキャラクターは攻撃できない」
    no_attack: bool
    legend: bool  # 伝説: the only characters a 神器 may be set on
    sacred: bool  # 神器: set only on a 伝説 character (キーワード用語集 「神器」)
    leader: bool  # 【リーダー】: one on the field
    haste: bool  # 速攻: attacks the turn it comes into play (else it enters asleep)
    never: bool  # 弐符 (spell break only), opponent's-turn only, or a 連結 deckcheck cannot read
    # 必要ノード and コスト printed 「-」: 「プレイする事ができません」 (東方VISIONオンライン
    # rules, カードのプレイ); only a spell its 術者 makes free (ラストワード) is played.
    # deckcheck's reading: ONL カードの種類's 術者 rule 「ノードとコストの条件を無視できます」
    # lifts it, as every 「-」 ラストワード card (all 28 of them) needs it to be playable at all
    dash: bool
    user: str  # 術者, NFKC ('' for none): on the field, the spell is free (ONL カードの種類)
    needs_user: bool  # ラストワード: its 術者 must be in play
    links: tuple[tuple[str, ...], ...]  # 連結: one card per part, any of its alternatives
    # its name, NFKC, and a 連結 card's linked names, which its name is also treated as
    # (キーワード用語集 「連結」 (自動α); a part by condition names nothing). deckcheck's
    # reading: each alternative of 「A」または「B」 counts
    names: tuple[str, ...]
    # オーバードライブ: its play removes 1+ cards of its 術者 from 冥界, or the card itself is
    # removed (キーワード用語集 「オーバードライブ」); the pilot plays it only when one is there
    overdrive: bool


def _links(link: str | None) -> tuple[tuple[tuple[str, ...], ...], bool]:
    """A 【連結(A+B…)】 text as parts of name needles ("X または Y": alternatives), and whether it
    is readable. 「A」 alone: a card whose name contains A; 夢符「…」: that card's full name."""
    if not link:
        return (), True
    inner = nfkc(link).removeprefix("【連結(").removesuffix(")】")
    parts: list[tuple[str, ...]] = []
    for part in inner.split("+"):
        options: list[str] = []
        for option in part.split("または"):
            option = option.strip()
            inner_name = option[1:-1]
            if option[:1] == "「" and option[-1:] == "」" and inner_name and "」" not in inner_name:
                options.append(inner_name)  # 「A」 alone
            elif _named(option):
                options.append(option)
            else:  # a condition (「人形」を持つ…4枚), not a name: the engine cannot play it
                return (), False
        parts.append(tuple(options))
    return tuple(parts), True


@per_card  # the engines ask millions of times
def facts(card: Card) -> Facts:
    words = {nfkc(k) for k in card.keywords}
    links, readable = _links(card.text_of("link"))
    attack = nfkc(card.text_of("attack") or "")
    spell = card.type == "spell"
    creature = spell and "幻想生物" in words
    mana = [int(m[1]) for w in words if (m := _MANA.fullmatch(w))]
    on_character = card.type != "character" and bool(words & {"装備", "呪符"})
    world = spell and "世界呪符" in words
    # 装備を/場: one card's printing of 装備/場 in the card list (deckcheck's reading)
    field_equip = card.type != "character" and bool(words & {"装備/場", "装備を/場"})
    dash = card.text_of("dash") == "-"
    found = Facts(
        role="creature" if creature else card.type,
        node=card.int_of("node") or 0,
        cost=card.cost or 0,
        attack=int(attack) if _NUMBER.fullmatch(attack) else 0,
        bonus=int(attack) if _BONUS.fullmatch(attack) else 0,
        on_character=on_character,
        equip=on_character and "装備" in words,
        on_field=world or field_equip,
        world=world,
        field_equip=field_equip,
        once_a_turn=bool(words & _ONCE_A_TURN),
        upkeep=card.int_of("upkeep") or 0,
        mana=sum(mana),
        surprise=card.type == "character" and "奇襲" in words,
        doll=card.type == "character" and "人形" in words,
        no_attack=(card.type == "character" or creature) and "人形" in words,
        legend=(card.type == "character" or creature) and "伝説" in words,
        sacred=on_character and "神器" in words,
        leader="リーダー" in words,
        # glossary 「幻想生物」: スリープ状態でセットする, like a character (CR §10.2); one that
        # prints 速攻 attacks at once (deckcheck's reading: the printed keyword wins)
        haste="速攻" in words,
        # the blank card (deckcheck.blank, outside the rulebooks) is never played
        never="弐符" in words
        or not readable
        or bool(words & _THEIR_TURN)
        or is_blank(card)
        or (dash and not (spell and card.text_of("user"))),
        dash=dash,
        user=nfkc(card.text_of("user") or ""),
        needs_user="ラストワード" in words,
        links=links,
        names=(nfkc(card.name), *(n for part in links for n in part)),
        overdrive="オーバードライブ" in words,
    )
    return found


def fuels(f: Facts, other: Card) -> bool:
    """Whether ``other`` in 冥界 may be removed for オーバードライブ card ``f`` (キーワード用語集
    「オーバードライブ」: a character whose name contains its 術者, or a spell of the same 術者)."""
    if other.type == "character":
        return bool(f.user) and any(f.user in n for n in facts(other).names)
    return other.type == "spell" and bool(f.user) and facts(other).user == f.user
