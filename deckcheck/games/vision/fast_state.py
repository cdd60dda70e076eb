"""The state of one game of the compiled VISION loop (fast_core.py, fast_board.py), as named
slots of its arrays, one constant per slot with what it holds: the counts vector ``s``, the
characters' table ``u`` and the field's table ``e``; and the set-up's numbers ``p``
(encode.PARAMS, in that order: fast.py checks the count). Plain integers, so the compiled
functions read them as constants; this module imports nothing, to keep their cache key small
(goldfish/compiling.py)."""

from __future__ import annotations

# s[...]: one game's counts and flags (int64)
LEADERS = 0  # リーダー characters on the field
LEADER_LIMIT = 1  # how many may be there at once (the format's leaders)
WORLD_PLAYED = 2  # 1 once a 世界呪符 was played this turn
FIELD_EQUIPPED = 3  # 1 while an 装備/場 is on the field
ENTRIES = 4  # rows of the field table ``e`` in use
IN_GRAVE = 5  # cards in 冥界 (the first of ``grave``)
LEFT = 6  # cards left in the deck (the first of ``deck``)
HELD = 7  # cards in hand (the first of ``hand``, in draw order)
NODES = 8  # nodes in play
ACTIVE = 9  # of them, active
UNITS = 10  # rows of the characters' table ``u`` in use
DAMAGE = 11  # damage dealt so far
# … and this turn's, reset each turn
LOST = 12  # cards 破棄 at maintenance, their 維持コスト unpaid
MAIN_ACTIVE = 13  # active nodes at the start of the main phase
MAIN_ASLEEP = 14  # sleeping nodes then
READY = 15  # cards in hand that could be played then
PLAYED = 16  # cards played
FREE = 17  # of them, free through their 術者
CHARACTERS = 18  # characters played that count toward the per-turn limit (not 奇襲)
DOLLS = 19  # 人形 played (their own limit)
ALIVE = 20  # characters on the field at the end of the turn
STATE = 21
# the metrics (layout.METRICS, in order) as slots of ``s``
ROW = (HELD, NODES, MAIN_ACTIVE, MAIN_ASLEEP, ALIVE, READY, PLAYED, FREE, LOST, DAMAGE, LEFT)

# u[...]: the characters, one column each, in order of entry; a row of each is "dead" rather
# than removed, so the order stays the reference's list's (int32)
U_ATTACK = 0  # attack, with the +N of the cards set on it
U_TURN = 1  # the turn it entered
U_HASTE = 2  # 速攻
U_EQUIP = 3  # bit 1: holds an 装備; bit 2: 伝説 (may hold a 神器)
U_ATTACK_OK = 4  # 1 unless it may not attack (人形)
U_CARD = 5  # its card
U_MANA = 6  # マナチャージ(X), with the cards set on it
U_CHARGED = 7  # the turn it last slept for マナチャージ
U_ALIVE = 8  # 1 while on the field
U_ALL = 9  # always 1: the hosts the main phase may set a card on (every character)
U_ATTACKER = 10  # 1: attacks this turn (the hosts of the attack's commands)
UNIT_ROWS = 11

# e[...]: the field (characters and the cards on it), one column each, in order of entry
E_CARD = 0  # the card
E_UNIT = 1  # its row of ``u`` if a character, else -1
E_HOST = 2  # the character it is set on, or -1
E_ALIVE = 3  # 1 while on the field
ENTRY_ROWS = 4

# score[...]: the pilot's orders per card (encode.Encoded.cards, stacked by fast.py)
NODE_SCORE, PLAY_SCORE, RANK_SCORE = 0, 1, 2

# p[...]: the set-up's numbers (encode.PARAMS)
P_HAND, P_DRAW, P_FIRST_DRAWS, P_MULLIGAN, P_NODE_PER_TURN, P_NODE_UNTIL = range(6)
P_PER_TURN, P_LEADERS, P_LIFE, P_DOLLS, P_HAND_LIMIT, P_READY_NODES = range(6, 12)
P_FREE_FIRST, P_CHARGE, P_FIRST_ATTACK, P_FIELD_COMMANDS, P_UPKEEP_NODES = range(12, 17)
PARAM_COUNT = 17
