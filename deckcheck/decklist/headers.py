"""The lines of a text deck list that are not cards: section headers (``[side]``, or the bare
section word, as tournament lists write them), type subtotals (a card type word of the game's
spec and a number), and the lines an organiser collects (``player:`` and ``name:``)."""

from __future__ import annotations

import re

from deckcheck import plugins
from deckcheck.normalize import nfkc

# Header words every game shares; each game's spec adds its own (games/<game>/).
_COMMON_ALIASES = {
    "main": "main",
    "main deck": "main",
    "deck": "main",
    "メイン": "main",
    "メインデッキ": "main",
}
_aliases: dict[str, str] | None = None


def _section_aliases() -> dict[str, str]:
    global _aliases
    if _aliases is None:
        found = dict(_COMMON_ALIASES)
        for spec in plugins.specs():
            found.update({k.casefold(): v for k, v in spec.construction.section_aliases.items()})
        _aliases = found
    return _aliases


def _forget_aliases() -> None:
    global _aliases
    _aliases = None


plugins.on_change(_forget_aliases)


def header_word(line: str) -> str | None:
    """The word of a ``[ word ]`` header line, or None when the line is no header. String
    methods, not a regex: the pattern this replaced backtracked in cubic time on ``[`` followed
    by many spaces."""
    if len(line) < 2 or line[0] != "[" or line[-1] != "]" or "]" in line[1:-1]:
        return None
    return line[1:-1].strip()


def section_name(header: str) -> str | None:
    """Canonical section for a header word, or None when it names no section."""
    return _section_aliases().get(header.strip().casefold())


_SUBTOTAL = re.compile(r"^(?P<word>[^\d\s]+)\s*[0-9]{1,3}$")  # a word, then a count


def subtotal(line: str) -> bool:
    m = _SUBTOTAL.match(line)  # a card type word of some game, then the list's count of it
    word = None if m is None else nfkc(m["word"]).casefold()
    return word is not None and any(word in s.cards.type_words for s in plugins.specs())


# What an organiser collects from each list: the player and the deck's name, in the English
# header words and the Japanese ones players write (``プレイヤー名：``, ``デッキ名：``); the
# day (``日付：2026/11/30``, read as a ``date:`` line); and the header lines a registration
# form or a blog adds that say nothing of legality, read and left aside (``大会名：``,
# ``作成者：``; ``レギュレーション：スタンダード``: the list's cards tell its format, as when no
# format line is given). deckcheck's reading, outside the rulebooks.
META_WORDS = {
    "player": "player",
    "name": "name",
    "deck name": "name",
    "player name": "player",
    "プレイヤー": "player",
    "プレイヤー名": "player",
    "プレイヤーネーム": "player",
    "使用者": "player",
    "使用者名": "player",
    "デッキ名": "name",
    "デッキタイトル": "name",
    **dict.fromkeys(("日付", "大会日", "開催日"), "date"),
    # not a bare 「イベント：」: a game's card type, and a heading may carry a count after a colon
    **dict.fromkeys(("大会名", "大会", "イベント名", "event name"), "aside"),
    **dict.fromkeys(("作成者", "author", "作成日", "更新日"), "aside"),
    **dict.fromkeys(("レギュレーション", "regulation"), "aside"),
}
_DAY = re.compile(r"(?P<y>[0-9]{4})\s*[-/.年]\s*(?P<m>[0-9]{1,2})\s*[-/.月]\s*(?P<d>[0-9]{1,2})日?")
MAX_META = 100  # characters of a player or deck name kept: a header line, not a text
_META = re.compile(r"^(?P<word>[^:：=\d][^:：=]{0,11}?)\s*[:：=]\s*(?P<value>.*)$")
_COMMENT = re.compile(r"(?:^|\s)#.*$")


def meta_line(line: str) -> tuple[str, str] | None:
    """``("player", NAME)`` or ``("name", DECK)`` for a header line that gives one, else None.
    An empty value is still the header (the line is read, and names nothing)."""
    m = _META.match(line.strip())
    if m is None:
        return None
    key = META_WORDS.get(nfkc(m["word"]).casefold())
    if key is None:
        return None
    return key, _COMMENT.sub("", m["value"]).strip()[:MAX_META]


def take_meta(text: str) -> tuple[str, dict[str, str]]:
    """The text with its ``player:`` and ``name:`` lines and the lines left aside blanked, and a
    ``日付：`` line written as the ``date:`` line (the other lines keep their numbers), and what
    they give; where one is given twice, the first line wins."""
    lines = text.splitlines()
    found: dict[str, str] = {}
    hits: dict[int, tuple[str, str]] = {}
    for i, line in enumerate(lines):
        if line[:1].isdigit() or (meta := meta_line(line)) is None:
            continue  # a card line starts with its count: the common case, not looked at
        key, value = hits[i] = meta
        if value:
            found.setdefault(key, value)
    if not hits:
        return text, found
    for i, (key, value) in hits.items():
        # 日付：2026/11/30 becomes the date: line, which the parser reads and checks
        lines[i] = _date_line(value) if key == "date" else ""
    return "\n".join(lines), found


def _date_line(value: str) -> str:
    day = _DAY.fullmatch(nfkc(value).strip())
    return f"date: {day['y']}-{int(day['m']):02}-{int(day['d']):02}" if day else f"date: {value}"
