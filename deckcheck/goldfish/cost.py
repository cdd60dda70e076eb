"""The work a goldfish run asks for, counted before any game (outside the rulebooks: a
service budget, issue 37).

The budgets (``DECKCHECK_SYNC_WORK``, ``DECKCHECK_JOB_WORK``) are in game-cards: games × the
deck's cards, measured with each game's default pilot. A policy adds what its own keep
conditions and selectors cost beyond that pilot's:

- every game checks its opening hand (twice with a mulligan) against the keep conditions: each
  card of the hand is matched against each condition, then the hand's cards are matched to the
  conditions' slots (``common.fills_every_slot``: hand² steps per condition);
- the play selectors are matched once per card of the deck (the ranks are memoised).

A selector or condition costs more the longer its text (alternatives, long names): one term
per started ``TERM_CHARS`` characters."""

from __future__ import annotations

from collections.abc import Iterable

from deckcheck.goldfish.policy import Policy

TERM_CHARS = 64
KEEP_HANDS = 2  # the opening hand and, after a mulligan, the new one


def terms(texts: Iterable[str]) -> int:
    """Selectors or conditions counted by their sizes: 1 per started ``TERM_CHARS`` chars."""
    return sum(1 + len(t) // TERM_CHARS for t in texts)


def selector_terms(policy: Policy) -> int:
    return terms(t for key in policy.SELECTORS for t in getattr(policy, key))


def run_work(games: int, cards: int, hand: int, policy: Policy, default: Policy) -> int:
    """Game-cards of ``games`` games of a ``cards``-card deck under ``policy``; exactly
    games × cards under the game's ``default`` policy (or a lighter one)."""
    keep = max(0, terms(policy.keep) - terms(default.keep))
    selectors = max(0, selector_terms(policy) - selector_terms(default))
    per_game = cards + KEEP_HANDS * hand * (hand + 1) * keep
    return games * per_game + cards * selectors
