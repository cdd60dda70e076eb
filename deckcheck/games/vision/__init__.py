"""東方 Phantom Magic VISION: card types, the pilot and the goldfish engine. The only seed is the
keyword glossary, so the play parameters come from the format file as assumptions."""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import Field

from deckcheck.games.vision import playtest, words
from deckcheck.games.vision.layout import METRICS, MILESTONES
from deckcheck.games.vision.names import vision_copy_name
from deckcheck.sdk import (
    N_,
    PLUGIN_API,
    CardColumn,
    Cards,
    Construction,
    GameSpec,
    Param,
    Play,
    Policy,
    Search,
    Words,
    deck_out,
    lazy,
)

# The words people read for the goldfish metrics and milestones of layout.py (which imports
# nothing: the compiled loop's cache key): goldfish/output.py shows each id through the
# catalogue; node_K through "node_{k}".
WORDS = (
    N_("nodes"),
    N_("active"),
    N_("asleep"),
    N_("characters"),
    N_("playable"),
    N_("played"),
    N_("free"),
    N_("lost"),
    N_("damage"),
    N_("deck"),
    N_("first_character"),
    N_("opponent_at_0"),
    N_("node_{k}"),
    N_("first_free_spell"),
    N_("first_upkeep_loss"),
)

NODE_READY = ("maintenance", "never")  # the format's node_ready (see formats/vision-standard.toml)


# The card columns of VISION beyond the shared ones (キーワード用語集, card_pool/vision/build.py):
# 術者 (the caster a spell belongs to), 種族, 必要ノード, グレイズ, 攻撃力/耐久力 as printed (a
# spell's modifier is ``+3``, a variable value ``X``), the sets it was printed in, a Union
# card's 【連結…】 requirement, and an upkeep cost paid each turn or the card leaves.
COLUMNS = (
    CardColumn(
        "user",
        "text",
        N_("術者: the character a spell belongs to"),
        Search("text"),
        label=N_("User (術者)"),
        summary=True,
        by_name=True,  # searching 霊夢 finds the spells whose 術者 is 霊夢 (issue 32)
    ),
    CardColumn("class", "text", N_("種族 as printed"), Search("text"), label=N_("Class (種族)")),
    CardColumn(
        "node",
        "int",
        N_("必要ノード, a whole number"),
        Search("max"),
        label=N_("Node (必要ノード)"),
        summary=True,
    ),
    CardColumn(
        "graze", "int", N_("グレイズ, a whole number"), Search("min"), label=N_("Graze (グレイズ)")
    ),
    CardColumn(
        "attack",
        "text",
        N_("攻撃力 as printed (a spell's modifier: +3)"),
        label=N_("Attack (攻撃力)"),
    ),
    CardColumn("toughness", "text", N_("耐久力 as printed"), label=N_("Toughness (耐久力)")),
    CardColumn(
        "package",
        "list",
        N_("the sets the card was printed in, ';' between them"),
        Search("item"),
        label=N_("Set"),
        summary=True,
    ),
    CardColumn(
        "link",
        "text",
        N_("a Union card's 【連結(…)】 text as printed"),
        Search("text"),
        label=N_("Union link (連結)"),
    ),
    CardColumn(
        "upkeep",
        "int",
        N_("維持コスト: a cost paid each turn, a whole number"),
        label=N_("Upkeep (維持コスト)"),
    ),
    CardColumn(
        "dash",
        "text",
        N_(
            "'-' when 必要ノード and コスト are printed 「-」: the card cannot be played "
            "(東方VISIONオンライン rules, カードのプレイ)"
        ),
        Search("exact"),
        label=N_("Cost 「-」"),
        checked=True,
    ),
)


class VisionPolicy(Policy):
    """The VISION pilot: the common keys, which cards become nodes, and how many."""

    SELECTORS: ClassVar[tuple[str, ...]] = ("play_first", "node_first")

    node_first: tuple[str, ...] = ()  # cards to set as nodes before the engine's own choice
    # when to stop setting nodes: None, at the deck's highest 必要ノード; a number, at that many
    # nodes; "all": never, a card is set every turn while the hand holds one
    node_until: Annotated[int, Field(ge=0, le=20)] | Literal["all"] | None = None
    node_per_turn: int = Field(1, ge=0, le=5)  # the format's node_per_turn, if set, wins
    # spells whose 術者 is on the field (free: no 必要ノード, no コスト) before anything else
    free_first: bool = True
    # マナチャージ(X) (総合ルール §10.12.2.a: sleep the character, the deck's top X cards become
    # sleeping nodes) at the start of the main phase, instead of that character's attack:
    # "nodes" while the nodes in play are fewer than the node target (node_until, by default
    # with the 維持コスト due on the field; always under "all");
    # "always"; "never" (the character attacks)
    mana_charge: Literal["nodes", "always", "never"] = "nodes"
    # 装備/場 commands (set on your field, one there: キーワード用語集 「装備/場」) played in the
    # main phase when they can be paid, after characters and spells; False: never played
    field_commands: bool = True


VISION = (  # the entry point of pyproject.toml
    GameSpec(
        id="vision",
        list_rank=3,  # where lists show it: outside the rulebooks (deckcheck's own order)
        plugin_api=PLUGIN_API,
        words=Words(name="東方 Phantom Magic VISION", words=words.words),
        cards=Cards(
            # keyword glossary
            card_types={
                "character": ("キャラクター", "キャラ"),
                "spell": ("スペル", "スペルカード"),
                "command": ("コマンド", "コマンドカード"),
            },
            keywords=lazy("deckcheck.games.vision.keywords:table"),
            copy_keys={"vision-name": vision_copy_name},  # 符ノ壱“X” counts as X (names.py)
            search_fields=("type", "cost", "keyword"),
            # what decides when a card can be played: 必要ノード (nodes in play) and コスト (nodes
            # slept), 「Phantom Magic Vision 総合ルール」 §5.2.1, §5.2.2.c; charted together:
            # deckcheck's reading
            curve=("node", "cost"),
            columns=COLUMNS,
        ),
        construction=Construction(
            section_aliases={
                "side": "side",
                "sideboard": "side",
                "side deck": "side",
                "サイド": "side",
                "サイドボード": "side",
                "サイドデッキ": "side",
            },
            params={
                "life": Param(
                    int,
                    25,
                    N_("goldfish: the opponent's life, for the kill turn"),
                    label=N_("life"),
                ),
                "node_per_turn": Param(
                    int,
                    None,
                    N_("goldfish: nodes set a turn (else the pilot's)"),
                    label=N_("nodes set a turn"),
                ),
                "characters_per_turn": Param(
                    int,
                    1,
                    N_("goldfish: character cards played a turn (奇襲 and 人形 aside)"),
                    label=N_("characters played a turn"),
                ),
                "dolls_per_turn": Param(
                    int,
                    1,
                    N_("goldfish: 人形 characters played a turn"),
                    label=N_("人形 characters played a turn"),
                ),
                "hand_limit": Param(
                    int, 7, N_("goldfish: cards kept at the discard phase"), label=N_("hand limit")
                ),
                "node_ready": Param(
                    str,
                    "maintenance",
                    N_("goldfish: when nodes become active again"),
                    choices=NODE_READY,
                    label=N_("when nodes become active again"),
                ),
                "leaders": Param(
                    int,
                    1,
                    N_("goldfish: cards with 【リーダー】 on one player's field"),
                    label=N_("【リーダー】 cards on a field"),
                ),
                "first_turn_attack": Param(
                    bool,
                    True,
                    N_("goldfish: whether the first player may attack on turn 1"),
                    label=N_("first player attacks on turn 1"),
                ),
            },
            check_tables=lazy("deckcheck.games.vision.checks:tables"),
        ),
        play=Play(
            policy=VisionPolicy,
            default_policy=VisionPolicy(
                name=N_("vision default"), keep=(), play_first=("type:character",)
            ),
            play=lazy("deckcheck.games.vision.engine:play"),
            play_batch=lazy("deckcheck.games.vision.fast:play_batch"),
            play_tape=lazy("deckcheck.games.vision.fast:play_tape"),
            batch_ok=lazy("deckcheck.games.vision.encode:batch_ok"),
            metrics=METRICS,
            milestones=MILESTONES,
            playtest=playtest.playtest,  # the builder's playtester: zones and turn steps
            # 東方VISIONオンライン rules: a draw from an empty deck loses, an empty deck alone
            # does not
            losses=(
                deck_out(N_("東方VISIONオンライン rules (a draw the rules require, deck empty)")),
            ),
            notes=(
                N_(
                    "turn: the phases of 「Phantom Magic Vision 総合ルール」 §4.1.1: active "
                    "(characters that came in asleep can act), maintenance (nodes become active "
                    "again, then 維持コスト), draw, main (a node, マナチャージ, plays, then "
                    "attacks: "
                    "the rules name no battle phase), discard; the first player attacks on turn 1 "
                    "only if the format's first_turn_attack says so (deckcheck's reading)"
                ),
                N_(
                    "マナチャージ(X): a character in play since an earlier turn (or 速攻) may "
                    "sleep "
                    "instead of attacking to put the deck's top X cards in the node area asleep "
                    "(総合ルール §10.12.2.a); the pilot's mana_charge policy decides ('nodes': "
                    "while "
                    "fewer nodes than its node target); the pilot charges at the start of the main "
                    "phase"
                ),
                N_(
                    "nodes: node_per_turn cards a turn go from hand to the node area; the pilot's "
                    "node_first cards first, then cards that can never be played in your turn "
                    "(弐符, "
                    "相手ターン制限), non-characters, the highest 必要ノード; none once node_until "
                    "(default: the deck's highest 必要ノード plus the 維持コスト due on your "
                    "field; "
                    '"all": never) are in play; a node pays the turn it is set (deckcheck\'s '
                    "reading)"
                ),
                N_(
                    "a card is playable when every node in play (active or asleep) is at least its "
                    "必要ノード and the active nodes at least its コスト, paid by sleeping nodes "
                    "(総合ルール §5.2.2.c); a spell whose 術者 is on your field ignores both "
                    "(東方VISIONオンライン rules, カードの種類), and the default pilot plays those "
                    "first"
                ),
                N_(
                    "when nodes become active again is the format's node_ready (an assumption): "
                    "'maintenance', deckcheck's reading, readies every node at the start of the "
                    "maintenance phase; 'never' follows the fan sources' "
                    "「ノードはアクティブに戻らない」"
                ),
                N_(
                    "維持コスト: paid in your maintenance phase from active nodes, card by card in "
                    "the "
                    "order they came into play, or the card is 破棄 (the lost metric); not paid "
                    "while "
                    "a "
                    "character named after its 術者 is on the field (キーワード用語集 "
                    "「維持コスト」)"
                ),
                N_(
                    "main phase: characters_per_turn character cards (奇襲 ones do not count; 人形 "
                    "ones "
                    "have their own dolls_per_turn: 東方VISIONオンライン rules, 戦術) and any "
                    "spells "
                    "that can be paid, in the pilot's play_first order, characters first; "
                    "世界呪符: "
                    "one "
                    "a turn, set on the field; 装備: one per character, 呪符: any number, both set "
                    "on "
                    "your strongest character and add their +N; 装備/場: one on your field; "
                    "ターン1枚制限: one of that name a turn (キーワード用語集); 神器 only on a "
                    "伝説 "
                    "character (キーワード用語集); 装備/場 commands by the pilot's field_commands; "
                    "a 幻想生物 becomes a character; a card whose 必要ノード and コスト are 「-」 "
                    "is "
                    "never played but free through its 術者 (東方VISIONオンライン rules, カードの"
                    "プレイ; deckcheck's reading); other card text is not executed (deckcheck's "
                    "reading)"
                ),
                N_(
                    "commands: played only in your battle, when they add +N attack and active "
                    "nodes "
                    "pay (装備 and 呪符 commands are set on the attacker, not discarded); the "
                    "opponent's turn is not played, so 相手ターン制限 cards never are "
                    "(deckcheck's reading)"
                ),
                N_(
                    "【ラストワード】 needs a character named after its 術者 in play; 【連結】 "
                    "(Union) "
                    "removes one card per named part from 冥界, hand or field (キーワード用語集); "
                    "a "
                    "連結 "
                    "by condition rather than by name is not played; 弐符 cards are never played "
                    "(only 壱符's spell break brings them in; 決死 is not modelled)"
                ),
                N_(
                    "【リーダー】: at most `leaders` cards with it on your field (キーワード用語集)"
                ),
                N_(
                    "damage: characters in play since an earlier turn (or with 速攻) that did not "
                    "charge attack an empty board for their printed attack; 人形 ones cannot "
                    "(東方VISIONオンライン rules, 戦術); opponent_at_0 when the damage reaches the "
                    "format's life (deckcheck's reading)"
                ),
                N_(
                    "discard phase: the hand is cut to hand_limit (an assumption), the pilot "
                    "dropping "
                    "the cards it would set as nodes first"
                ),
                N_(
                    "metrics: nodes in play, and of them active and asleep at the start of the "
                    "main "
                    "phase; free: spells played free through their 術者; lost: cards 破棄 for "
                    "unpaid "
                    "維持コスト; playable: cards in hand that can be played after the nodes are "
                    "set; "
                    "node_K: the first turn K nodes are in play"
                ),
            ),
        ),
    )
)
