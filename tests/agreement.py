"""The engine-equality harness, now the SDK's (``deckcheck.sdk.agreement``, which a game
package uses through ``deckcheck.sdk.testing``): the names deckcheck's own tests import."""

from deckcheck.sdk.agreement import (
    DeckOut,
    Z,
    agree,
    chunks_agree,
    deck_out_turn,
    decks_out,
    production_chunks,
    reference_chunk,
    same_games,
    same_results_any_workers,
    stacked_games,
    tapes,
)

__all__ = [
    "DeckOut",
    "Z",
    "agree",
    "chunks_agree",
    "deck_out_turn",
    "decks_out",
    "production_chunks",
    "reference_chunk",
    "same_games",
    "same_results_any_workers",
    "stacked_games",
    "tapes",
]
