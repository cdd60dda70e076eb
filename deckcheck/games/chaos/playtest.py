"""ChaosTCG's table for the builder's playtester (``GameSpec.play.playtest``): its zones and the
steps of its turn, from ChaosTCG 総合ルール (2016-05-17) §6.2, §7 and §8."""

from __future__ import annotations

from deckcheck.sdk import Playtest, Step, Zone, _p, deck_and_hand, draw_step, hand_limit_step


def playtest() -> Playtest:
    return Playtest(
        zones=(
            *deck_and_hand(_p("chaos", "draw pile (山札)"), _p("chaos", "hand")),
            # §6.2.2: the partner card, chosen from the main deck before the shuffle
            Zone(
                "partner",
                _p("chaos", "partner area"),
                sleeps=True,
                types=("partner",),
                rule=_p("chaos", "ChaosTCG 総合ルール §6.2.2"),
            ),
            Zone("field", _p("chaos", "friend areas"), sleeps=True),
            Zone("set", _p("chaos", "set area"), sleeps=True),
            Zone("discard", _p("chaos", "控え室 (discard)")),
            Zone("extra", _p("chaos", "extra deck"), sections=("extra",)),
        ),
        steps=(
            Step(
                "stand",
                _p("chaos", "Beginning phase: your rested cards stand"),
                "wake",
                _p("chaos", "ChaosTCG 総合ルール §7"),
                zones=("partner", "field", "set"),
            ),
            draw_step(
                _p("chaos", "Beginning phase: draw"), _p("chaos", "ChaosTCG 総合ルール §7.3")
            ),
            Step(
                "main",
                _p("chaos", "Main phase: one friend play and one level-up a turn"),
                "remind",
                _p("chaos", "ChaosTCG 総合ルール §7"),
            ),
            Step(
                "battle",
                _p("chaos", "Battle phase: no attack on the first player's first turn"),
                "remind",
                _p("chaos", "ChaosTCG 総合ルール §8.3"),
            ),
            hand_limit_step(
                "end",
                _p("chaos", "End phase: discard down to {n} cards"),
                _p("chaos", "ChaosTCG 総合ルール §7.6"),
            ),
        ),
        notes=(
            _p(
                "chaos",
                "With no partner card, move a chara card from the draw pile to the partner area "
                "before you deal (§6.2.2).",
            ),
        ),
    )
