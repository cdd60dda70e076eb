"""Racing against a fixed-sample comparison (issue 36): on a goldfish goal, successive halving
on shared shuffles (``deckcheck.tune.race``) should name the same best variant as playing every
variant the full number of games, with at most one fifth of the games. A script that prints
figures, not a test.

    .venv/bin/python -m benchmarks.tune_bench [--games 4000] [--max-changes 1] [--by 1]

The deck: the issue's VISION deck (4 characters × 2 and 14 commands × 3, real cards); the
goal: its first character by turn ``--by``; the variants: every legal change of at most
``--max-changes`` copies. Both runs play the same games (the same seeds, the same rounds);
the fixed-sample run simply never drops a variant. Then the same on
examples/vision-standard-nandai-kaguya.deck, whose best variants differ by less than the
noise of 4,000 games: there the gap between the two picks is printed. Beside the figures:
the plain-Python shuffle-and-draw loop of benchmarks/goldfish_bench.py, as games per second.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from benchmarks.common import ROOT, machine, record
from benchmarks.goldfish_bench import plain_games_per_second
from deckcheck import decklist, decks
from deckcheck.formats.registry import default_registry
from deckcheck.models import DeckList
from deckcheck.pool.store import Pool
from deckcheck.tune.field import Field, field_of
from deckcheck.tune.goal import make_goal
from deckcheck.tune.race import Race, race
from deckcheck.tune.space import build_space, default_candidates
from deckcheck.tune.values import OddsValues

CHARACTERS = ("N3", "N4", "N5", "N7")
COMMANDS = ("N76", "N77", "N78", "N81", "N82", "N83", "N84", "N85", "N89", "N90", "N91")
COMMANDS += ("N93", "N94", "N97")
ISSUE_DECK = "\n".join(
    ["format: vision-standard", "[main]"]
    + [f"2 {c}" for c in CHARACTERS]
    + [f"3 {c}" for c in COMMANDS]
)


def _field(deck: DeckList, milestone: str, by: int, most: int) -> Field:
    fmt = default_registry().get(deck.format or "")
    with tempfile.TemporaryDirectory() as tmp, Pool(Path(tmp) / "pool.sqlite3") as pool:
        index = pool.index_for([e.ref for e in deck.entries])
    goal = make_goal(fmt.game, [], None, [milestone], by)
    cards = default_candidates(deck, index, fmt.game, [])
    space = build_space(deck, fmt, index, cards, [], most)
    return field_of(space, goal, OddsValues(fmt, goal.odds), 4096)


def _best(field: Field, played: Race, games: int) -> tuple[int, float]:
    final = [i for i in range(len(field.arms)) if played.played[i] == games]
    score = {i: field.score(i, played.tallies[i]) for i in final}  # type: ignore[arg-type]
    best = max(final, key=lambda i: (score[i], -i))
    return best, score[best]


def compare(field: Field, games: int, seed: int) -> dict[str, tuple[int, float, int, float]]:
    """(games played, seconds, best variant, its value) of racing and of the fixed sample."""
    turns = field.goal.turns
    race(field.setups[:1], 100, seed, turns, field.score)  # loads the engine
    out = {}
    for name, halve in (("racing", True), ("fixed sample", False)):
        start = time.perf_counter()
        played = race(field.setups, games, seed, turns, field.score, 1, halve=halve)
        took = time.perf_counter() - start
        best, value = _best(field, played, games)
        out[name] = (played.games, took, best, value)
        print(
            f"  {name}: {played.games:,} games in {took:.2f} s, best variant {best} ({value:.4f})"
        )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--max-changes", type=int, default=1)
    parser.add_argument("--by", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    print(f"machine: {machine()}")
    field = _field(
        decklist.parse(ISSUE_DECK, "issue.deck"), "first_character", args.by, args.max_changes
    )
    print(f"the issue's deck: {len(field.arms)} legal variants, {field.goal.terms[0].label()}")
    runs = compare(field, args.games, args.seed)
    raced, fixed = runs["racing"], runs["fixed sample"]
    plain = plain_games_per_second(["a"] * 42 + ["b"] * 8, 20_000)
    record(
        "tune racing: games / fixed-sample games", raced[0] / fixed[0], "", 0.2, None, None, True
    )
    record("tune racing: same best as fixed sample (1 = yes)", float(raced[2] == fixed[2]), "", 1.0)
    record("tune racing, games/s", raced[0] / raced[1], "games/s", None, plain)
    record("tune fixed sample, games/s", fixed[0] / fixed[1], "games/s", None, plain)
    kaguya = decks.read(ROOT / "examples" / "vision-standard-nandai-kaguya.deck")
    field = _field(kaguya, "first_character", 2, 1)
    print(f"nandai-kaguya: {len(field.arms)} legal variants, {field.goal.terms[0].label()}")
    runs = compare(field, args.games, args.seed)
    gap = runs["fixed sample"][3] - runs["racing"][3]
    print(f"  gap between the fixed sample's best and racing's pick: {gap:.4f}")


if __name__ == "__main__":
    main()
