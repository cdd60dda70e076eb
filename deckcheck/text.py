"""Text that is not valid Unicode: lone surrogates (U+D800 to U+DFFF). A JSON ``\\ud800``
escape and Python's reading of non-UTF-8 command-line bytes both make them; no UTF-8 encoder
takes them, so they fail late, where a database, a file or a response encodes them. They are
found where the text comes in instead."""

from __future__ import annotations

import re
import unicodedata

from deckcheck.i18n import _, current

_SURROGATE = re.compile(r"[\ud800-\udfff]")


def lone_surrogate(text: str) -> str | None:
    """How the first lone surrogate of ``text`` reads (``\\ud800 at character 3``), or None."""
    found = _SURROGATE.search(text)
    if found is None:
        return None
    return _(
        "{escape} at character {n}", escape=f"\\u{ord(found.group()):04x}", n=found.start() + 1
    )


def without_surrogate_lines(text: str) -> tuple[str, list[tuple[int, str]]]:
    """``text`` with each line that holds a lone surrogate emptied (its line break stays, and
    so do the line numbers), and those lines as (number, what)."""
    if lone_surrogate(text) is None:
        return text, []
    kept, emptied = [], []
    for number, line in enumerate(text.splitlines(keepends=True), start=1):
        what = lone_surrogate(line)
        if what is None:
            kept.append(line)
        else:
            emptied.append((number, what))
            kept.append(line[len(line.splitlines()[0]) :])
    return "".join(kept), emptied


def find_surrogate(data: object, path: str = "body") -> tuple[str, str] | None:
    """The first string of JSON data (object keys included) that holds a lone surrogate, as
    (where, what): ``("body.main[0].card", "\\ud800 at character 2")``; a key is named by
    the object that holds it. Iterative, as JSON may nest deeply."""
    stack: list[tuple[object, str]] = [(data, path)]
    while stack:
        item, where = stack.pop()
        if isinstance(item, str):
            what = lone_surrogate(item)
            if what is not None:
                return where, what
        elif isinstance(item, dict):
            for key, value in reversed(item.items()):
                what = lone_surrogate(key)
                if what is not None:
                    return where, _("in a key: {what}", what=what)
                stack.append((value, f"{where}.{key}"))
        elif isinstance(item, list):
            stack.extend((value, f"{where}[{i}]") for i, value in reversed(list(enumerate(item))))
    return None


def printable(text: str) -> str:
    """``text`` with each lone surrogate as its ``\\udXXX`` escape, safe to encode."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def quote(text: str) -> str:
    """``text`` quoted for a message as it was written: ``'紅　美鈴'`` in English (``repr``
    wrote ``'紅\\u3000美鈴'``), ``「紅　美鈴」`` in Japanese. Only characters a terminal would
    not show as text (controls, format marks, separators but the space) are escaped."""
    shown = "".join(_shown(ch) for ch in text) if not text.isprintable() else text
    return f"'{shown}'" if current() == "en" else f"「{shown}」"


def _shown(ch: str) -> str:
    if ch.isprintable() or unicodedata.category(ch) == "Zs":
        return ch
    return ch.encode("unicode_escape").decode("ascii")


def as_written(text: str) -> str:
    """``text`` in single quotes, as ``repr`` showed it in every language, but without its
    escapes: ``'紅　美鈴'`` (``repr`` wrote ``'紅\\u3000美鈴'``)."""
    shown = "".join(_shown(ch) for ch in text) if not text.isprintable() else text
    return f"'{shown}'"
