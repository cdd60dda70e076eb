"""What the VISION engines (engine.py, encode.py, the compiled loop fast_core.py) agree on:
the per-turn metrics and milestones, and the per-card rows the compiled loop reads. It imports
nothing, so the compiled loop's cache key (goldfish/compiling.py: the loop's module and every
module it imports) stays small."""

from __future__ import annotations

# the goldfish engine's per-turn metrics (engine.py): nodes in play, and of them the active and
# the sleeping ones at the start of the main phase; spells played free through their 術者; cards
# 破棄 because 維持コスト went unpaid. Milestones: node_K is the first turn K nodes are in play.
METRICS = (
    "hand",
    "nodes",
    "active",
    "asleep",
    "characters",
    "playable",
    "played",
    "free",
    "lost",
    "damage",
    "deck",
)
MILESTONES = (
    "first_character",
    "opponent_at_0",
    *(f"node_{k}" for k in range(1, 8)),
    "first_free_spell",
    "first_upkeep_loss",
)

# the per-card rows of ``encode.Encoded.cards`` that fast.py stacks for fast_core, in this order
COLUMNS = (
    "role",
    "node",
    "cost",
    "attack",
    "bonus",
    "on_character",
    "leader",
    "haste",
    "never",
    "has_user",
    "needs_user",
    "equip",
    "on_field",
    "world",
    "field_equip",
    "once_a_turn",
    "upkeep",
    "mana",
    "surprise",
    "doll",
    "name_id",
    "dash",
    "no_attack",
    "legend",
    "sacred",
    "links",
    "overdrive",
)
