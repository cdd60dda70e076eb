"""Deck lists: read from text, JSON or CSV (never raising on bad content) and printed.

reading.py parses the text and JSON forms and picks the form; tabular.py reads CSV;
headers.py and lines.py read a header and a card line; parts.py holds what the readers share
(the ``deck/syntax`` violation, limits, the ``date:`` header); printing.py prints the canonical
text and JSON forms. The names below are the package's public ones.
"""

from deckcheck.decklist.headers import header_word, section_name
from deckcheck.decklist.parts import MAX_COUNT, SYNTAX, SYNTAX_SOURCE
from deckcheck.decklist.printing import print_text, to_json
from deckcheck.decklist.reading import looks_like_json, parse, parse_json, parse_text
from deckcheck.decklist.tabular import CSV_COLUMNS

__all__ = [
    "CSV_COLUMNS",
    "MAX_COUNT",
    "SYNTAX",
    "SYNTAX_SOURCE",
    "header_word",
    "looks_like_json",
    "parse",
    "parse_json",
    "parse_text",
    "print_text",
    "section_name",
    "to_json",
]
