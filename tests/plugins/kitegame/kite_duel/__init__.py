"""Kite Duel, a game for deckcheck written against ``deckcheck.sdk`` alone (deckcheck's test
fixture, not a real game; its rules are outside the rulebooks).

Rules: a 40-card main deck of gliders and winds, 3 copies of a card at most, and a reserve of
up to 5 cards (a deck section of this game's own, headed ``reserve`` or リザーブ); a 5-card
opening hand, no mulligan, 1 card drawn a turn (not by the first player on turn 1). Each turn
the pilot launches one glider from the hand while fewer than ``gust`` (a parameter of the
game's own) fly. A draw the deck cannot give loses.

The package ships its data (``data/``: formats, cards, example decks and its Japanese words),
which deckcheck finds through ``GameSpec.data``.
"""

from __future__ import annotations

from pathlib import Path

from deckcheck.sdk import (
    N_,
    PLUGIN_API,
    Cards,
    Construction,
    GameSpec,
    Param,
    Play,
    Policy,
    Words,
    _p,
    deck_out,
    lazy,
)

METRICS = (N_("hand"), N_("gliders"), N_("deck"))
MILESTONES = (N_("first_glider"),)
RULES = "Kite Duel rules (deckcheck's test fixture, outside the rulebooks)"


class KitePolicy(Policy):
    """The Kite Duel pilot: the common keys, and whether to launch at all."""

    launch: bool = True


def words() -> dict[str, str]:
    """The game's words (its catalogue, data/locale, gives the Japanese)."""
    return {
        "kite": _p("kite", "Kite Duel"),
        "glider": _p("kite", "glider"),
        "wind": _p("kite", "wind"),
        "main": _p("kite", "main"),
        "reserve": _p("kite", "reserve"),
    }


KITE = GameSpec(
    id="kite",
    plugin_api=PLUGIN_API,
    data=Path(__file__).resolve().parent / "data",
    words=Words(
        name="Kite Duel",
        words=words,
    ),
    cards=Cards(
        card_types={"glider": ("グライダー",), "wind": ("風",)},
    ),
    construction=Construction(
        sections=("reserve",),
        section_aliases={"reserve": "reserve", "リザーブ": "reserve"},
        params={
            "gust": Param(
                int,
                3,
                N_("goldfish: gliders in the air at most"),
                minimum=1,
                label=N_("gliders in the air at most"),
            )
        },
    ),
    play=Play(
        policy=KitePolicy,
        default_policy=KitePolicy(name="kite default", keep=("type:glider>=1",)),
        play=lazy("kite_duel.engine:play"),
        play_batch=lazy("kite_duel.fast:play_batch"),
        play_tape=lazy("kite_duel.fast:play_tape"),
        metrics=METRICS,
        milestones=MILESTONES,
        losses=(deck_out(N_("Kite Duel rules: a draw the deck cannot give loses")),),
        notes=(N_("Kite Duel is deckcheck's test fixture: its rules are outside the rulebooks"),),
    ),
)
