"""What is left of English prose in a text that should be Japanese: the tests of the Japanese
catalogue use it on what deckcheck prints. Card data (names and numbers as printed), rule ids,
option names, paths, URLs, numbers and the names of things (deckcheck, the games, file formats)
are not prose; whatever other word of two or more Latin letters remains is."""

from __future__ import annotations

import re
from collections.abc import Iterable

# Names, not prose: the product, the games as their publishers spell them, file formats,
# units and statistics that Japanese text writes in Latin letters too.
NAMES = {
    "deckcheck", "ChaosTCG", "TCG", "Phantom", "Magic", "VISION", "Vision", "OS", "CSV", "JSON",
    "PNG", "SVG", "SARIF", "JUnit", "URL", "API", "HTTP", "HTTPS", "TOML", "SQLite", "PostgreSQL",
    "Dask", "ETag", "ID", "id", "ms", "KB", "MB", "GB", "p10", "p50", "p90", "Ver", "PR", "BETA",
    "UTF", "ASCII", "stdin", "stdout", "stderr", "numba", "Unicode", "Python", "DECKCHECK",
    "LANG", "LC_ALL", "LC_MESSAGES", "TTL", "Accept", "Language", "If", "Match", "OpenAPI",
    "tcp", "CI", "vs", "ASGI", "Swagger", "Enter", "Tab", "Esc", "Ctrl", "ja", "en",
}
_NOT_PROSE = [
    re.compile(r"https?://\S+"),
    re.compile(r"(?:[\w.-]*/)+[\w.-]+|\b[\w-]+\.(?:deck|toml|csv|json|png|txt|sqlite3|ydk)\b"),
    re.compile(r"(?<![\w-])--?[A-Za-z][\w-]*(?:=\S*)?"),  # options: --lang, -w, --db=x
    re.compile(r"\b[a-z]+/[a-z0-9][a-z0-9-]*\b"),  # rule ids: vision/copies
    re.compile(r"\b[A-Z]*-?[A-Z0-9]+-[A-Z0-9-]+\b"),  # card numbers: SAMPLE-C-001, BT01-001
    re.compile(r"\b[A-Z]{1,4}\d+[A-Za-z0-9.-]*\b"),  # N1374, P223, PR.009
    re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b"),  # keys, environment names: first_character
    re.compile(r"\b[a-z]+(?:-[a-z0-9]+)+\b"),  # format ids, problem types: vision-standard
    re.compile(r"[A-Za-z]+:[^\s]+"),  # conditions as typed: name:X>=1, type:chara
]
WORD = re.compile(r"[A-Za-z][A-Za-z']+")


def english_words(text: str, allowed: Iterable[str] = ()) -> list[str]:
    """The English words of ``text`` that are prose: what a Japanese reader would meet.
    ``allowed`` are texts the test knows are data (card names, format names as written)."""
    for data in sorted(allowed, key=len, reverse=True):
        if data:
            text = text.replace(data, " ")
    for pattern in _NOT_PROSE:
        text = pattern.sub(" ", text)
    return [w for w in WORD.findall(text) if w not in NAMES]
