"""The odds engines' one error, below every odds module (so the small ones need not import the
exact engine to raise it)."""

from __future__ import annotations

from deckcheck.errors import UnanswerableError


class OddsError(UnanswerableError, ValueError):
    """A question the engine cannot answer as asked (e.g. draws beyond the deck)."""
