"""あいりすミスティリア! TCG's table for the builder's playtester (``GameSpec.play.playtest``): its
zones and the steps of its turn, from the how-to-play's 「対戦の準備」 and 「ターンの流れ」."""

from __future__ import annotations

from deckcheck.sdk import Playtest, Step, Zone, _p, deck_and_hand, draw_step


def playtest() -> Playtest:
    return Playtest(
        zones=(
            *deck_and_hand(_p("iris", "deck"), _p("iris", "hand")),
            # 対戦の準備: one unit from hand face down into the main area
            Zone("main_area", _p("iris", "main area"), sleeps=True),
            Zone("standby", _p("iris", "standby area"), sleeps=True),
            Zone("discard", _p("iris", "捨て場 (discard)")),
        ),
        steps=(
            draw_step(
                _p("iris", "Draw phase: draw"),
                _p("iris", "how-to-play 「ターンの流れ」 1. ドローフェイズ"),
            ),
            Step(
                "main",
                _p(
                    "iris",
                    "Main phase: charge one unit once, units to free standby slots, commands, "
                    "retreat once",
                ),
                "remind",
                _p("iris", "how-to-play 「ターンの流れ」 2. メインフェイズ"),
            ),
            Step(
                "battle",
                _p(
                    "iris",
                    "Battle phase: the main unit may use one skill (not on the first player's "
                    "first turn)",
                ),
                "remind",
                _p("iris", "how-to-play 「ターンの流れ」 3. バトルフェイズ"),
            ),
        ),
        notes=(
            _p(
                "iris",
                "Put one unit from your hand face down in the main area before the first turn "
                "(対戦の準備).",
            ),
        ),
    )
