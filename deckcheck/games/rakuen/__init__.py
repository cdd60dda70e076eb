"""ラクエンロジック (ルールブック Ver1.0): card types, member kinds, gates, the pilot, engine."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from pydantic import Field

from deckcheck.games.rakuen import playtest, words
from deckcheck.sdk import (
    N_,
    PLUGIN_API,
    Aside,
    Card,
    CardColumn,
    Cards,
    Construction,
    Deal,
    Draws,
    Format,
    GameSpec,
    Loss,
    Param,
    Play,
    Policy,
    Search,
    Words,
    _,
    lazy,
    nfkc,
)

# the goldfish engine's per-turn metrics and milestones (engine.py); their ids are the words
# people read (goldfish/output.py shows each through the catalogue)
METRICS = (
    N_("hand"),
    N_("level_area"),
    N_("stock"),
    N_("members"),
    N_("highest_level_deployable"),
    N_("refreshes"),
    N_("penalty_cards"),
    N_("deck"),
)
MILESTONES = (N_("first_level_2_deploy"), N_("first_level_3_deploy"), N_("first_gouritai"))


KINDS = ("定理者", "使者", "合理体")  # ch.1 §2: a member's kind


# The card columns of ラクエンロジック beyond the shared ones (ルールブック Ver1.0 ch.1 §1-§2:
# a member's power, color and world, テリトリー; a gate's 門ナンバー).
COLUMNS = (
    # the gate deck's limit per 門ナンバー (formats/rakuen-standard-1.0.toml)
    CardColumn(
        "gate_number",
        "int",
        N_("a gate card's number (1-8)"),
        checked=True,
        label=N_("Gate number (門ナンバー)"),
    ),
    CardColumn("power", "int", N_("power, a whole number"), label=N_("Power (パワー)")),
    CardColumn(
        "color",
        "text",
        N_("colour as printed (黄 赤 緑 青)"),
        Search("exact"),
        summary=True,
        label=N_("Color (色)"),
    ),
    CardColumn(
        "world",
        "text",
        N_("world as printed"),
        Search("text"),
        summary=True,
        label=N_("World (ワールド)"),
    ),
    CardColumn(
        "territory",
        "int",
        N_("circles a member occupies (1, 2 or 4)"),
        label=N_("Territory (テリトリー)"),
    ),
)


class RakuenPolicy(Policy):
    """The rakuen pilot: the common keys plus the level area order and the switches below."""

    SELECTORS: ClassVar[tuple[str, ...]] = ("play_first", "level_area_first")

    level_area_first: tuple[str, ...] = ()  # cards to put into the level area first
    luck_drive: bool = True  # 3 stock → draw 1 (ch.2 §6: any number of times a turn)
    luck_drive_when_stuck: bool = True  # only on a turn that deployed no member
    luck_drive_times: int = Field(1, ge=0, le=99)  # the most luck drives a turn (pilot's choice)
    swap_level: bool = False  # with a full level area, swap one for a hand card of a new color
    gattai: bool = True  # 合体 once a turn (ch.3 §4)
    deploy_over: bool = True  # deploy over lower-level members when a card fits no other way


def lay_out_gates(
    sections: Mapping[str, Sequence[tuple[Card, int]]], fmt: Format, rng: random.Random
) -> list[Aside[Card]]:
    """ch.2 §2: the gate deck is shuffled and its top cards go face down onto the circles."""
    gates = [card for card, n in sections.get("gate", []) for _ in range(n)]
    rng.shuffle(gates)
    from deckcheck.sdk import params_of

    laid = tuple(gates[: int(params_of(fmt)["circles"])])
    rule = N_("ラクエンロジック ルールブック Ver1.0 ch.2 §2")  # a citation; its chapter is worded
    return [Aside("gates", N_("gates laid out"), laid, rule)]


@dataclass(frozen=True)
class StockDraws(Draws):
    """ch.2 §4: the draw phase draws ``per_turn`` (2), also on the first player's first turn,
    then puts ``stock`` cards from the top of the deck into the stock, out of the hand's reach."""

    stock: int = 0

    @classmethod
    def from_params(cls, params: Mapping[str, Any]) -> StockDraws:
        return cls(
            int(params["draw_per_turn"]),
            bool(params["first_player_draws"]),
            int(params["stock_per_turn"]),
        )

    def before_main(self, turn: int, on_play: bool) -> tuple[bool, ...]:
        return super().before_main(turn, on_play) + (False,) * self.stock


# how a goldfish game is lost (engine.py, fast_core.py): the order is the batch engine's codes
LOSSES = (
    Loss(
        "deck-out",
        N_("deck-out"),
        N_(
            "deck and drop zone both empty at a refresh: deckcheck's simplification, no rulebook "
            "loss (ルールブック Ver1.0 ch.3 §6 has only the refresh)"
        ),
    ),
    Loss(
        "refresh-penalty",
        N_("second refresh penalty"),
        N_(
            "ラクエンロジック ルールブック Ver1.0 ch.3 §6 敗北判定処理, §10 (2 refresh penalty "
            "cards)"
        ),
    ),
)


def check_card(fields: dict[str, Any], tables: Mapping[str, Mapping[str, str]]) -> list[str]:
    """Import: a member's kind is one of ch.1 §2's; a gate card has a gate number (ch.1 §1
    門カード 「19 門ナンバー」, used by 門デッキ構築のルール 3), so a gate without one is refused
    rather than passing the gate-number limit unseen."""
    out: list[str] = []
    kind = fields.get("kind")
    if kind is not None and kind not in KINDS:
        allowed = ", ".join(KINDS)
        out.append(_("unknown kind {value} (use {allowed})", value=repr(kind), allowed=allowed))
    ctype = RAKUEN.cards.type_words.get(nfkc(str(fields.get("type") or "")).casefold())
    if ctype == "gate" and not str(fields.get("gate_number") or "").strip():
        out.append(
            _(
                "a gate card without a gate_number (every gate has a 門ナンバー: ラクエンロジック "
                "ルールブック Ver1.0 ch.1 §1, ch.1 §4 門デッキ構築のルール 3)"
            )
        )
    return out


RAKUEN = (  # the entry point of pyproject.toml
    GameSpec(
        id="rakuen",
        list_rank=2,  # where lists show it: outside the rulebooks (deckcheck's own order)
        plugin_api=PLUGIN_API,
        words=Words(name="ラクエンロジック", words=words.words),
        cards=Cards(
            # ルールブック Ver1.0 ch.1 §1
            card_types={
                "member": ("メンバー", "メンバーカード"),
                "tactics": ("戦術", "タクティクス", "戦術カード"),
                "paradox": ("逆理", "パラドックス", "逆理カード"),
                "gate": ("門", "ゲート", "門カード"),
            },
            kinds=KINDS,
            check_card=check_card,
            search_fields=("level", "cost", "kind"),
            # a member is deployed when its level is at most the cards of the level area
            # (ルールブック Ver1.0 ch.2 §5); chosen as the curve: deckcheck's reading
            curve=("level",),
            columns=COLUMNS,
        ),
        construction=Construction(
            section_aliases={
                "gate": "gate",
                "gates": "gate",
                "ゲート": "gate",
                "ゲートデッキ": "gate",
                "門": "gate",
                "門デッキ": "gate",
            },
            params={
                "stock_per_turn": Param(
                    int,
                    0,
                    N_("odds, goldfish: cards put to stock each turn (ch.2 §4)"),
                    label=N_("cards put to stock a turn"),
                ),
                "level_area_max": Param(
                    int,
                    4,
                    N_("goldfish: cards the level area holds (ch.2 §5)"),
                    label=N_("level area size"),
                ),
                "circles": Param(
                    int,
                    6,
                    N_("hand, goldfish: circles, one gate each (ch.2 §2)"),
                    label=N_("circles"),
                ),
                # none in ルールブック Ver1.0 (ch.1 §3 2 手札, ch.2 §4, ch.4 Q38: 「手札の上限は
                # ありません」); the format in force from 2017-02-26 gives one
                "hand_limit": Param(
                    int,
                    None,
                    N_("goldfish: cards kept at the end phase (unset: no hand limit)"),
                    0,
                    label=N_("hand limit"),
                ),
            },
        ),
        deal=Deal(
            lay_out=lay_out_gates,
            draws=StockDraws.from_params,
        ),
        play=Play(
            playtest=playtest.playtest,  # the builder's playtester: zones and turn steps
            policy=RakuenPolicy,
            default_policy=RakuenPolicy(
                name=N_("rakuen default"),
                keep=("type:member>=2",),
                play_first=("kind:合理体", "level>=2", "type:member"),
                level_area_first=("type:paradox", "type:tactics"),
            ),
            play=lazy("deckcheck.games.rakuen.engine:play"),
            play_batch=lazy("deckcheck.games.rakuen.fast:play_batch"),
            play_tape=lazy("deckcheck.games.rakuen.fast:play_tape"),
            batch_ok=lazy("deckcheck.games.rakuen.fast:batch_ok"),
            metrics=METRICS,
            milestones=MILESTONES,
            losses=LOSSES,
            notes=(
                N_("territory = 1 for members whose card data gives none (outside the card data)"),
                N_(
                    "circles: 2 rows (the mat's 6 circles read as 2 × 3: deckcheck's reading); "
                    "members "
                    "move freely in the main phase, so territories fit when they add up to at most "
                    "the "
                    "circles and no two 2 × 2 blocks overlap; the pilot deploys over members of a "
                    "lower "
                    "level only (ルールブック Ver1.0 ch.1 §2 テリトリー, ch.2 §6, ch.3 §6)"
                ),
                N_(
                    "合体 (ch.3 §4): declared only when a 合理体 in hand or deck meets its "
                    "conditions, "
                    "so "
                    "a failed 合体 never happens; refreshing the deck during its search is not "
                    "modelled"
                ),
                N_(
                    "luck drive (ch.2 §6): the rules allow any number a turn; the pilot uses at "
                    "most "
                    "luck_drive_times (default 1), and by default only on a turn with no deployment"
                ),
                N_(
                    "hand limit (the format's hand_limit; none in ルールブック Ver1.0): at the end "
                    "phase "
                    "the pilot discards, to the drop zone (p.15 「手札を捨てる」), the cards it "
                    "would "
                    "play last by its play_first order (the default pilot: tactics and paradoxes "
                    "first, "
                    "which the goldfish only puts into the level area, then members of the lowest "
                    "level and cost): deckcheck's reading of what the pilot values least"
                ),
                N_(
                    "not played: battles, logic drive, paradoxes, card text (no opponent); a deck "
                    "and "
                    "a "
                    "drop zone both empty end the game as deck-out (deckcheck's simplification)"
                ),
            ),
        ),
    )
)
