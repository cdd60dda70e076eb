"""ChaosTCG (総合ルール 2016-05-17): card types, names, the partner rule, the pilot, the engine.

The deck checks that counts cannot express (partner choice, neo-standard's single OS) are in
``checks``; the partner rule itself in ``partner``; goldfish in ``engine``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from deckcheck.games.chaos import os_table, partner, playtest, words
from deckcheck.games.chaos.titles import title_key
from deckcheck.sdk import (
    N_,
    PLUGIN_API,
    CardColumn,
    Cards,
    Construction,
    Deal,
    Draws,
    GameSpec,
    Param,
    Play,
    Policy,
    Search,
    SearchHook,
    Words,
    _,
    deck_out,
    lazy,
    nfkc,
)

# the goldfish engine's per-turn metrics and milestones (engine.py); their ids are the words
# people read (goldfish/output.py shows each through the catalogue)
METRICS = (
    N_("hand"),
    N_("partner_level"),
    N_("friends"),
    N_("extra_charas"),
    N_("sets"),
    N_("deck"),
)
MILESTONES = (N_("partner_level_2"), N_("partner_level_3"), N_("first_extra_chara"))


def _strip_os(name: str) -> str:
    text = nfkc(name)
    return text[3:].strip() if text[:3].casefold() == "os:" else text


def check_card(fields: dict[str, Any], tables: Mapping[str, Mapping[str, str]]) -> list[str]:
    """Import: a card's OS is its ``os`` column in the rulebook's spelling, else the OS of its
    title from the appendix 「作品名と OS 名」 (card_pool/chaos_os.toml)."""
    os_name = fields.get("os")
    if os_name is not None:
        fields["os"] = tables["os_names"].get(title_key(os_name), _strip_os(os_name))
    elif fields.get("title") is not None:
        fields["os"] = tables["titles"].get(title_key(fields["title"]))
        if fields["os"] is None:
            return [
                _(
                    "unknown title {title} and no os (the title is not in the "
                    "rulebook's title→OS table; give the os column)",
                    title=repr(fields["title"]),
                )
            ]
    return []


@dataclass(frozen=True)
class AttackDraws(Draws):
    """Draw 1 a turn, also on the first player's first turn (§7.3); the partner's attack draw
    (アタックドロー, §8.3) in each battle phase that allows an attack, none on the first
    player's first turn when the format says so: the draws a player may choose to take."""

    attack_draw: bool = False
    first_turn_attack: bool = True

    @classmethod
    def from_params(cls, params: Mapping[str, Any]) -> AttackDraws:
        return cls(
            int(params["draw_per_turn"]),
            bool(params["first_player_draws"]),
            bool(params["attack_draw"]),
            bool(params["first_player_first_turn_attack"]),
        )

    @property
    def optional(self) -> str:
        if not self.attack_draw:
            return ""
        return N_("the partner's attack draw (ChaosTCG 総合ルール 2016-05-17 §8.3)")

    def after_main(self, turn: int, on_play: bool) -> tuple[bool, ...]:
        attacks = not (turn == 1 and on_play and not self.first_turn_attack)
        return (True,) if self.attack_draw and attacks else ()


# The card columns of ChaosTCG beyond the shared ones (総合ルール §2: 作品名 §2.3, 攻撃力 §2.6,
# 耐久力 §2.7); the OS and append words are printed on the card.
COLUMNS = (
    CardColumn(
        "title",
        "text",
        N_("the work (作品名) a card belongs to"),
        summary=True,
        key=title_key,
        label=N_("Title (作品名)"),
    ),
    CardColumn(
        "os",
        "text",
        N_("the OS printed on the card (OS:ニトロプラス); empty: found from the title"),
        label=N_("OS"),
        summary=True,
        key=title_key,
        checked=True,  # neo-standard's single OS (checks.py)
    ),
    # limits and pure decks by append word (formats/chaos-*.toml)
    CardColumn(
        "append",
        "list",
        N_("append words, ';' between them (BETA;はるかさん)"),
        checked=True,
        label=N_("Append (アペンド)"),
    ),
    CardColumn(
        "power",
        "int",
        N_("攻撃力, a whole number"),
        Search("min"),
        summary=True,
        label=N_("Power (攻撃力)"),
    ),
    CardColumn("hp", "int", N_("耐久力, a whole number"), label=N_("HP")),
    CardColumn(
        "extra_cost",
        "text",
        N_("an extra chara's extra cost as printed"),
        label=N_("Extra cost (エクストラコスト)"),
    ),
)


def title_or_os(text: str) -> dict[str, frozenset[str]]:
    """The title/OS filter: a card whose title is ``text``, or whose OS is ``text`` or the OS
    of the title ``text`` (the rulebook appendix 「作品名と OS 名」, card_pool/chaos_os.toml)."""
    key = title_key(text)
    os_of_title = os_table.os_table().title_index().get(key)
    return {
        "title": frozenset({key}),
        "os": frozenset({key, title_key(os_of_title)} if os_of_title else {key}),
    }


class ChaosPolicy(Policy):
    """The ChaosTCG pilot: the common keys plus the partner choice and the switches below."""

    partner: str | None = None  # the chara to choose when the deck has no partner card
    attack_draw: bool = True  # attack with the partner to draw (§8.3)
    play_sets: bool = True
    play_extras: bool = True
    # §13 [ソルラルチャージ]: cover the partner at the start of the battle phase; the chara of
    # the partner area is the partner (§5.7), so the attack draw (§8.3) stays
    solral_charge: bool = False

    def aside_choice(self) -> str | None:
        return self.partner


CHAOS = (  # the entry point of pyproject.toml
    GameSpec(
        id="chaos",
        list_rank=1,  # where lists show it: outside the rulebooks (deckcheck's own order)
        plugin_api=PLUGIN_API,
        words=Words(name="ChaosTCG", words=words.words),
        cards=Cards(
            # 総合ルール §2.2
            card_types={
                "chara": ("キャラ", "キャラカード"),
                "extra": ("エクストラ", "エクストラカード"),
                "partner": ("パートナー", "パートナーカード"),
                "set": ("セット", "セットカード"),
                "event": ("イベント", "イベントカード"),
            },
            names_ignore_spaces=True,  # §2.1: spaces in a card name are not part of it
            check_card=check_card,
            card_tables=lazy("deckcheck.games.chaos.os_table:card_tables"),
            search_fields=("level", "cost"),
            # a card's level, one of its 情報 (総合ルール 2016-05-17 §3.6); chosen as the curve:
            # deckcheck's reading
            curve=("level",),
            columns=COLUMNS,
            search_hooks=(
                SearchHook(
                    "title",
                    N_("Title / OS"),
                    N_("a title (作品名) or an OS: the cards of that title, or of that OS"),
                    title_or_os,
                    aliases=("os",),
                ),
            ),
        ),
        construction=Construction(
            section_aliases={"extra": "extra", "エクストラ": "extra", "エクストラデッキ": "extra"},
            params={
                "hand_limit": Param(
                    int,
                    7,
                    N_("goldfish: cards kept at the end of a turn (§7.6)"),
                    label=N_("hand limit"),
                ),
                "friend_areas": Param(
                    int,
                    4,
                    N_("goldfish: friend areas in the arena (§5.7)"),
                    label=N_("friend areas"),
                ),
                "attack_draw": Param(
                    bool,
                    False,
                    N_("odds, goldfish: the partner's attack draw (§8.3)"),
                    label=N_("attack draw"),
                ),
                "first_player_first_turn_attack": Param(
                    bool,
                    True,
                    N_("odds, goldfish: whether the first player may attack on turn 1"),
                    label=N_("first player attacks on turn 1"),
                ),
            },
            check_tables=lazy("deckcheck.games.chaos.checks:tables"),
        ),
        deal=Deal(
            set_aside=partner.set_aside,
            draws=AttackDraws.from_params,
        ),
        play=Play(
            playtest=playtest.playtest,  # the builder's playtester: zones and turn steps
            policy=ChaosPolicy,
            default_policy=ChaosPolicy(
                name=N_("chaos default"),
                keep=("type:chara|type:partner>=2",),
                play_first=("power>=5", "type:chara"),
            ),
            play=lazy("deckcheck.games.chaos.engine:play"),
            # the same games, a chunk at a time, compiled (numba); encode.batch_ok says when
            play_batch=lazy("deckcheck.games.chaos.fast:play_batch"),
            play_tape=lazy("deckcheck.games.chaos.fast:play_tape"),
            batch_ok=lazy("deckcheck.games.chaos.encode:batch_ok"),
            metrics=METRICS,
            milestones=MILESTONES,
            losses=(
                deck_out(N_("ChaosTCG 総合ルール 2016-05-17 §1.2 (the beginning phase's draw)")),
            ),
            notes=(
                N_(
                    "ネーム (総合ルール 2016-05-17 §2.1) are the 「…」 parts of a card name; the "
                    "pilot "
                    "never plays a chara or set that ネーム重複処理 (§11.4) would send to the "
                    "控え室"
                ),
                N_(
                    "sets (§3.9): one a chara; [TST ゲージ] sets only on 神前美月, any number (§13)"
                ),
                N_(
                    "extra charas (§10.1): the covered chara stops counting, the other payers go "
                    "to "
                    "the "
                    "控え室 (hand first, then friends; never the partner); extra_cost is matched "
                    "by "
                    "name"
                ),
                N_("level-up (§10.3): only with a chara card of the partner's card name"),
                N_(
                    "[アラガミ] (§13): never enters "
                    "(「…を登場させようとする場合それは何もしません」)"
                ),
                N_(
                    "[ソルラルチャージ] (§13): never played as an extra chara (only its own rule "
                    "moves "
                    "it "
                    "out of the extra deck); off by default (policy solral_charge); when on it "
                    "covers "
                    "the partner for the battle phase and, being in the partner area, is the "
                    "partner "
                    "(§5.7 「パートナーエリアに置かれているキャラはパートナー状態」), so its "
                    "attack "
                    "draws "
                    "(アタックドロー, §8.3); back face down at the end of the turn (deckcheck's "
                    "reading: "
                    "the PDF text lost the icon)"
                ),
                N_(
                    "hand limit 7 (§7.6): the pilot discards events first (it never plays them), "
                    "then "
                    "the cards its play_first order ranks last"
                ),
                N_(
                    "not played: battles, damage, 乱入, events and card text (no opponent); "
                    "level-up "
                    "costs"
                ),
            ),
        ),
    )
)
