"""The extra charas of the compiled ChaosTCG loop (fast_core.py): ``engine._extra``, played on a
friend as its base, its other cost parts paid with charas from hand, then other friends.
``cards`` is (flags, names, rank, key), ``extras`` (extra_card, extra_count, meets, nparts),
``a`` the arena (fr, fsetnames, the partner's ネーム bits, extras left), ``paid`` the scratch
rows (paid_card, paid_friend); fast_state.py names the rest."""

from __future__ import annotations

from typing import Any

from deckcheck.games.chaos.fast_hand import _remove_card
from deckcheck.games.chaos.fast_state import F_CARD, F_EXTRA, NF, NH
from deckcheck.games.chaos.layout import CHARA
from deckcheck.sdk import njit


@njit(inline="always")
def _among(paid: Any, n: int, x: int) -> bool:
    """Whether ``x`` is one of the first ``n`` of ``paid`` (a card or friend paid already)."""
    again = False
    for q in range(n):
        again |= paid[q] == x
    return again


@njit()
def _extra(cards: Any, extras: Any, hand: Any, s: Any, a: Any, paid: Any) -> bool:
    """``engine._extra``: the first extra chara (in extra-deck order, a copy left, none of its
    name on the arena as an extra already) whose cost is paid with a friend as its base and
    whose ネーム the arena does not hold once its payment left, played; whether one was."""
    names, key = cards[1], cards[3]
    extra_card, ecount = extras[0], a[3]
    fr, fsetnames, pnames = a[0], a[1], a[2]
    for e in range(extra_card.shape[0]):
        if ecount[e] == 0:
            continue
        card = extra_card[e]
        skip = False
        for f in range(s[NF]):
            if fr[f, F_EXTRA] != 0 and key[fr[f, F_CARD]] == key[card]:
                skip = True
        if skip:
            continue
        for b in range(s[NF]):
            nph, npa = _payment(e, b, cards, extras, hand, s, fr, paid)
            if nph < 0:
                continue
            staying = pnames[0] | fsetnames[b]
            for f in range(s[NF]):
                if not (f == b or _among(paid[1], npa, f)):
                    staying |= names[fr[f, F_CARD]] | fsetnames[f]
            if names[card] & staying != 0:
                continue
            _cover(e, b, nph, npa, extras, hand, s, a, paid)
            return True
    return False


@njit(inline="always")
def _payment(
    e: int, b: int, cards: Any, extras: Any, hand: Any, s: Any, fr: Any, paid: Any
) -> tuple[int, int]:
    """The payment of extra ``e``'s cost on friend ``b`` as its base (the first part ``b``
    meets): each other part by the first chara in hand that meets it, else the first other
    friend, none twice. (cards paid, friends paid) into ``paid``; (-1, -1) if none."""
    flags = cards[0]
    _extra_card, _count, meets, nparts = extras
    paid_card, paid_friend = paid
    first = -1
    for j in range(nparts[e]):
        if meets[fr[b, F_CARD], e, j] != 0:
            first = j
            break
    if first < 0:
        return -1, -1
    nph = npa = 0
    for j in range(nparts[e]):
        if j == first:
            continue
        found = -1
        for i in range(s[NH]):
            c = hand[i]
            if (flags[c] & CHARA) != 0 and meets[c, e, j] != 0 and not _among(paid_card, nph, c):
                found = c
                break
        if found >= 0:
            paid_card[nph] = found
            nph += 1
            continue
        for f in range(s[NF]):
            if f != b and meets[fr[f, F_CARD], e, j] != 0 and not _among(paid_friend, npa, f):
                found = f
                break
        if found < 0:
            return -1, -1
        paid_friend[npa] = found
        npa += 1
    return nph, npa


@njit(inline="always")
def _cover(
    e: int, b: int, nph: int, npa: int, extras: Any, hand: Any, s: Any, a: Any, paid: Any
) -> None:
    """Extra ``e`` is played on friend ``b``: the cards paid leave the hand, it covers the base
    (whose set cards stay), the friends paid go with their set cards."""
    fr, fsetnames, _pnames, ecount = a
    paid_card, paid_friend = paid
    for q in range(nph):
        s[NH] = _remove_card(hand, s[NH], paid_card[q])
    fr[b, F_CARD], fr[b, F_EXTRA] = extras[0][e], 1
    kept = 0
    for f in range(s[NF]):
        if not _among(paid_friend, npa, f):
            for k in range(fr.shape[1]):  # by element: a row copy would allocate
                fr[kept, k] = fr[f, k]
            fsetnames[kept] = fsetnames[f]
            kept += 1
    ecount[e] -= 1
    s[NF] = kept
