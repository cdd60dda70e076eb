"""VISION's table for the builder's playtester (``GameSpec.play.playtest``): its zones and the steps
of its turn, each with its source. CR is 「Phantom Magic Vision 総合ルール」; OFF the
publisher's rules page 「ターンの流れ」 (circle9.work/vision/vision/, h2_9)."""

from __future__ import annotations

from deckcheck.sdk import Playtest, Step, Zone, _p, deck_and_hand, draw_step, hand_limit_step


def playtest() -> Playtest:
    return Playtest(
        zones=(
            *deck_and_hand(_p("vision", "deck"), _p("vision", "hand")),
            # setting a node is not a play; a node pays by being slept (CR §5.2.1.a, §5.2.2)
            Zone("node", _p("vision", "node area"), sleeps=True),
            Zone("field", _p("vision", "field"), sleeps=True),
            Zone("discard", _p("vision", "冥界 (discard pile)")),
            Zone("removed", _p("vision", "removed from the game")),
            # the sideboard stays out of the game (CR §1.2.4)
            Zone("side", _p("vision", "sideboard"), sections=("side",)),
        ),
        steps=(
            Step(
                "active",
                _p("vision", "Active phase: your sleeping characters and 世界呪符 wake"),
                "wake",
                _p("vision", "CR §4.1.1 as a fan wiki reproduces it; OFF 「ターンの流れ」"),
                zones=("field",),
            ),
            Step(
                "ready-nodes",
                _p("vision", "Maintenance phase: your nodes wake (deckcheck's reading)"),
                "wake",
                _p(
                    "vision",
                    "deckcheck's reading, the format's node_ready: fan sources (atwiki "
                    "「アクティブ」) say nodes do not wake; the cards' 維持コスト assume they pay "
                    "each turn",
                ),
                zones=("node",),
                when=("node_ready", "maintenance"),
            ),
            Step(
                "upkeep",
                _p("vision", "Maintenance phase: pay each 維持コスト or the card is 破棄"),
                "remind",
                _p("vision", "キーワード用語集 「維持コスト」"),
            ),
            draw_step(
                _p("vision", "Draw phase: draw"),
                _p("vision", "fan copies of the rule text (atwiki 「ドローフェイズ」)"),
            ),
            Step(
                "main",
                _p("vision", "Main phase: set one node and play one character, each once"),
                "remind",
                _p("vision", "OFF 「ターンの流れ」 (それぞれ1度だけ)"),
            ),
            hand_limit_step(
                "discard",
                _p("vision", "Discard phase: keep at most {n} cards in hand"),
                _p("vision", "English fan wiki, Game_flow (fan source only)"),
            ),
        ),
        notes=(
            _p(
                "vision",
                "Characters enter asleep unless 速攻 (CR §10.2); 必要ノード counts every node, "
                "active or asleep (CR §5.2.2.c).",
            ),
        ),
    )
