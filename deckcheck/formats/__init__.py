"""Formats as data: one TOML file per format (``formats/*.toml``, and a game's own).

schema.py is the schema (``Format``); params.py a format's parameters; registry.py reads the
files of the search path, merges ``extends`` and picks a dated version (versions.py, pure).
The names below are the package's public ones.
"""

from deckcheck.formats.schema import COPY_KEYS, Format, FormatError, SizeCheck

__all__ = ["COPY_KEYS", "Format", "FormatError", "SizeCheck"]
