"""ラクエンロジック's table for the builder's playtester (``GameSpec.play.playtest``): its zones and
the steps of its turn, from ラクエンロジック ルールブック Ver1.0 ch.2 (ファイト進行の詳細)."""

from __future__ import annotations

from deckcheck.sdk import Playtest, Step, Zone, _p, deck_and_hand, draw_step, hand_limit_step


def playtest() -> Playtest:
    return Playtest(
        zones=(
            *deck_and_hand(_p("rakuen", "draw pile (山札)"), _p("rakuen", "hand")),
            # ch.2 §5: at most 4 cards, face up (face down on the first player's first turn)
            Zone("level", _p("rakuen", "level area"), sleeps=True),
            Zone("stock", _p("rakuen", "stock area"), hidden=True),
            Zone("field", _p("rakuen", "field (circles)"), sleeps=True),
            # ch.2 §2: the gate deck's top 6 go face down on the 6 circles, the rest removed
            Zone(
                "gate",
                _p("rakuen", "gates"),
                sections=("gate",),
                take=6,
                rest="removed",
                rule=_p("rakuen", "ラクエンロジック ルールブック Ver1.0 ch.2 §2"),
            ),
            Zone("drop", _p("rakuen", "drop area")),
            Zone("removed", _p("rakuen", "remove area")),
        ),
        steps=(
            Step(
                "stand",
                _p("rakuen", "Stand phase: your members and level area cards stand"),
                "wake",
                _p("rakuen", "ラクエンロジック ルールブック Ver1.0 ch.2 §3"),
                zones=("field", "level"),
            ),
            draw_step(
                _p("rakuen", "Draw phase: draw"),
                _p("rakuen", "ラクエンロジック ルールブック Ver1.0 ch.2 §4 [1]"),
            ),
            Step(
                "stock",
                _p("rakuen", "Draw phase: the draw pile's top card to the stock area, face down"),
                "stock",
                _p("rakuen", "ラクエンロジック ルールブック Ver1.0 ch.2 §4 [2]"),
                zones=("stock",),
            ),
            Step(
                "level",
                _p(
                    "rakuen",
                    "Level phase: you may put a card from hand in the level area (at most 4)",
                ),
                "remind",
                _p("rakuen", "ラクエンロジック ルールブック Ver1.0 ch.2 §5"),
            ),
            Step(
                "main",
                _p(
                    "rakuen",
                    "Main phase: deploy members of level up to your level cards, paying the cost "
                    "from the stock area",
                ),
                "remind",
                _p("rakuen", "ラクエンロジック ルールブック Ver1.0 ch.2 §6"),
            ),
            hand_limit_step(
                "end",
                _p("rakuen", "End phase: keep at most {n} cards in hand"),
                _p("rakuen", "fan sources (the format's hand_limit; from 2017-02-26)"),
            ),
        ),
    )
