"""東方 Phantom Magic VISION: card types, the pilot and the goldfish engine. The only seed is the
keyword glossary, so the play parameters come from the format file as assumptions."""

from __future__ import annotations

from pydantic import Field

from deckcheck.games.registry import GameSpec, Param, _register_builtin
from deckcheck.games.vision import engine
from deckcheck.goldfish.policy import Policy


class VisionPolicy(Policy):
    """The VISION pilot: the common keys plus how many nodes to set a turn."""

    node_per_turn: int = Field(1, ge=0, le=5)  # the format's node_per_turn, if set, wins


VISION = _register_builtin(
    GameSpec(
        id="vision",
        name="東方 Phantom Magic VISION",
        # keyword glossary
        card_types={
            "character": ("キャラクター", "キャラ"),
            "spell": ("スペル", "スペルカード"),
            "command": ("コマンド", "コマンドカード"),
        },
        section_aliases={
            "side": "side",
            "sideboard": "side",
            "サイド": "side",
            "サイドボード": "side",
        },
        params={
            "life": Param(int, 25, "goldfish: the opponent's life, for the kill turn"),
            "node_per_turn": Param(int, None, "goldfish: nodes set a turn (else the pilot's)"),
        },
        policy=VisionPolicy,
        default_policy=VisionPolicy(name="vision default", keep=(), play_first=("type:character",)),
        play=engine.play,
        metrics=engine.METRICS,
        milestones=engine.MILESTONES,
        notes=(
            "nodes: one node a turn (node_per_turn): a card from hand to the node area, "
            "non-characters first (deckcheck's reading: the glossary gives no node rule)",
            "a card is playable when its node requirement and cost are met: deckcheck reads both "
            "as its cost at most the nodes in play; one character a turn (deckcheck's reading, "
            "fan sources)",
            "damage: characters in play since an earlier turn attack an empty board for their "
            "power, not on the first player's first turn; opponent_at_0 when the damage reaches "
            "the format's life (deckcheck's reading)",
            "not played: spells, commands and card text (they are only set as nodes)",
        ),
        search_fields=("cost",),
    )
)
