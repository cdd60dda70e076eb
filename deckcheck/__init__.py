"""deckcheck: deck legality, odds and goldfish for four Japanese trading card games.

The public API: parse a deck list, resolve it against a card index, validate it against a
format. The CLI and (later) the service are thin shells over these functions.
"""

import os

# deckcheck runs its parallel work in processes (goldfish workers, the service's pools, Dask).
# OpenBLAS's threads (NumPy's and SciPy's) on top of those only wait for work, and wait busily:
# 0.1-0.2 CPU-s of every command, a tenth of a `deckcheck goldfish` or `deckcheck odds`, and no
# figure of benchmarks/odds_bench.py moved with one thread (issue 35). Set before NumPy loads
# (no module of this package imports it on the way here); a value the user set wins.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from deckcheck.api import MissingFormat, validate_decks
from deckcheck.decklist import parse, parse_json, parse_text, print_text, to_json
from deckcheck.formats import Format, FormatError
from deckcheck.formats.registry import FormatRegistry, default_registry
from deckcheck.models import Card, DeckEntry, DeckList, Game, Report, Violation
from deckcheck.resolve import CardIndex
from deckcheck.validate import validate

__version__ = "0.1.0"

__all__ = [
    "Card",
    "CardIndex",
    "DeckEntry",
    "DeckList",
    "Format",
    "FormatError",
    "FormatRegistry",
    "Game",
    "MissingFormat",
    "Report",
    "Violation",
    "default_registry",
    "parse",
    "parse_json",
    "parse_text",
    "print_text",
    "to_json",
    "validate",
    "validate_decks",
]
