"""What the ChaosTCG encoder (encode.py) and compiled loop (fast_core.py) agree on: card flag
bits and the order of the set-up's integers. It imports nothing, so the compiled loop's cache
key (goldfish/compiling.py: the loop's module and every module it imports) stays small."""

from __future__ import annotations

# card flags (``encode.Encoded.flags``); NO_ENTRY: never enters ([アラガミ], ``engine.may_enter``)
CHARA, SET, EVENT, TST_SET, MITSUKI_NAME, LEVEL_UP, NO_ENTRY = 1, 2, 4, 8, 16, 32, 64
MAX_LEVEL = 3  # the levels a partner card prints (engine.py)

# the ints of ``encode.Encoded.ints``, in order
INTS = (
    "can_level",
    "friend_areas",
    "hand_limit",
    "hand",
    "mulligan",
    "play_extras",
    "play_sets",
    "attack_draw",
    "covered",
    "first_turn_attack",
)
