"""The state of one game of the compiled ChaosTCG loop (fast_core.py, fast_extra.py), as named
slots of its arrays (one constant per slot, with what it holds), and the
set-up's integers (layout.INTS, in that order: fast.py checks it). Plain integers, so the
compiled functions read them as constants; it imports nothing, to keep their cache key small
(goldfish/compiling.py)."""

from __future__ import annotations

# s[...]: one game's counts (int64)
ND = 0  # cards in the deck (the first of ``deck``; its top is the last)
NH = 1  # cards in hand (the first of ``hand``)
LEVEL = 2  # the partner's level
NF = 3  # friend areas in use (the first rows of ``fr``)
PSETS = 4  # cards set on the partner
PTST = 5  # of them, [TST ゲージ] cards
STATE = 6
# fr[f, ...]: a friend area: its top card, 1 if that is an extra chara, its set cards as a
# count, of them [TST ゲージ] (its set cards' ネーム bits are fsetnames[f])
F_CARD, F_EXTRA, F_SETS, F_TST = 0, 1, 2, 3
# ints[...]: the set-up's integers (layout.INTS)
I_CAN_LEVEL, I_FRIEND_AREAS, I_HAND_LIMIT, I_HAND, I_MULLIGAN = range(5)
I_PLAY_EXTRAS, I_PLAY_SETS, I_ATTACK_DRAW, I_COVERED, I_FIRST_ATTACK = range(5, 10)
# milestones (chaos.MILESTONES): level 2, the top level, an extra chara played (or covered)
LEVEL_2, TOP_LEVEL, EXTRA_PLAYED = 0, 1, 2
