"""deckcheck tune: exact search against brute force, legality by the validator, the CLI's
answer on the issue's VISION deck, racing on shared shuffles, and Dask."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from deckcheck import decklist
from deckcheck.format_registry import FormatRegistry
from deckcheck.resolve import CardIndex
from deckcheck.tune.exact import brute_force, search
from deckcheck.tune.goal import OddsTerm
from deckcheck.tune.space import build_space
from deckcheck.tune.values import OddsValues

# Real VISION cards: characters (PR.008 博麗 霊夢 carries デッキ1枚制限 and shares the name's
# limit of 3 with N317), commands, and commands that only fill the deck (never candidates).
CANDIDATES = ("N3", "N4", "PR.008", "N317", "N95", "N96")
FILLER = ("N76", "N77", "N78", "N81", "N82", "N83", "N84", "N85", "N89", "N90", "N91", "N93")
FILLER += ("N94", "N97", "N98", "N99", "N100")
WANTS = (
    "type:キャラクター>=1",
    "type:キャラクター>=2",
    "name:博麗 霊夢>=1",
    "type:コマンド<=4",
    "type:キャラクター==1",
    "name:N95>=1",
)


def _deck(counts: dict[str, int]) -> str:
    lines = ["format: vision-standard", "[main]"]
    lines += [f"{n} {ref}" for ref, n in counts.items() if n]
    left = 50 - sum(counts.values())
    for ref in FILLER:
        take = min(3, left)
        if take:
            lines.append(f"{take} {ref}")
        left -= take
    return "\n".join(lines) + "\n"


@settings(max_examples=25)
@given(
    counts=st.tuples(*(st.integers(0, 1 if ref == "PR.008" else 3) for ref in CANDIDATES)),
    wants=st.lists(st.sampled_from(WANTS), min_size=1, max_size=2, unique=True),
    turn=st.integers(0, 2),
    most=st.integers(1, 3),
    keep=st.sets(st.sampled_from(CANDIDATES), max_size=2),
    second=st.booleans(),
)
def test_exact_search_equals_brute_force(
    index: CardIndex,
    registry: FormatRegistry,
    counts: tuple[int, ...],
    wants: list[str],
    turn: int,
    most: int,
    keep: set[str],
    second: bool,
) -> None:
    held = dict(zip(CANDIDATES, counts, strict=True))
    if held["PR.008"] + held["N317"] > 3:
        held["N317"] = 3 - held["PR.008"]
    deck = decklist.parse(_deck(held), "t.deck")
    fmt = registry.get("vision-standard")
    cards = [index.resolve("vision", ref).card for ref in CANDIDATES]
    assert all(cards)
    kept = [c for c in cards if c and c.number in keep]
    space = build_space(deck, fmt, index, [c for c in cards if c], kept, most)
    # one term, or two with weights (a weighted sum is searched exactly too)
    terms = [OddsTerm(tuple(wants), turn)]
    if second:
        terms = [OddsTerm((wants[0],), turn, 0.25), OddsTerm((WANTS[2],), turn + 1, 0.75)]
    found, _skipped = search(space, OddsValues(fmt, terms), 1)
    best = brute_force(space, terms)
    assert best is not None  # the deck itself is legal: no change is a variant
    assert found and math.isclose(found[0].value, best, abs_tol=1e-12)
    for number, delta in found[0].changes:  # a kept card is never cut
        assert delta > 0 or number not in keep
    assert sum(max(d, 0) for _n, d in found[0].changes) <= most
