"""Japanese line breaking on the terminal (禁則処理): where a line of help or a table cell may
break, by display width.

Rich wraps text at spaces only (``rich._wrap.divide_line``), so a Japanese sentence, which has
none, is chopped wherever the width runs out: a line may start with 」）。、 and a table cell
splits a word (ドロ / ー). :func:`divide_line` keeps rich's breaks for text without wide
characters and, where there are, breaks between characters by the rules of JIS X 4051 that a
terminal needs: no line starts with a closing bracket, a comma, a full stop, a prolonged sound
mark or a small kana (行頭禁則), none ends with an opening bracket (行末禁則), and a run of
katakana or of Latin letters and digits (a word) is not split unless it is longer than a line.
:func:`install` puts it in rich's place, and measures a Japanese cell's least width by the
same breaks: rich offers no hook for a wrapping rule.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.cells import cell_len

# JIS X 4051 行頭禁則: closing brackets, punctuation, iteration marks, ー and small kana
NO_LINE_START = frozenset(
    ")]}）〕］｝〉》」』】〙〗〟’”｠»"
    "、。，．,.・：；:;？！?!‼⁇⁈⁉ヽヾゝゞ々〻ー"
    "ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶㇰㇱㇲㇳㇴㇵㇶㇷㇸㇹㇺㇻㇼㇽㇾㇿ…‥"
)
# 行末禁則: opening brackets
NO_LINE_END = frozenset("([{（〔［｛〈《「『【〘〖〝‘“｟«")


def _wide(ch: str) -> bool:
    return cell_len(ch) == 2


def _word_class(ch: str) -> str:
    """Characters of one class side by side make one word: katakana (with ー; ・ separates
    words), or Latin letters and digits."""
    if ch != "・" and ("\u30a0" <= ch <= "\u30ff" or "\uff66" <= ch <= "\uff9f"):
        return "katakana"
    if ch.isascii() and (ch.isalnum() or ch in "_-'"):
        return "latin"
    return ""


def breakable(text: str, i: int) -> bool:
    """Whether a line may start at ``text[i]`` (0 < i < len(text))."""
    before, after = text[i - 1], text[i]
    if after.isspace():
        return False  # a space stays at the end of the line before
    if after in NO_LINE_START or before in NO_LINE_END:
        return False
    if before.isspace():
        return True
    if not (_wide(before) or _wide(after)):
        return False  # Latin text breaks at spaces only, as rich breaks it
    run = _word_class(before)
    return not run or run != _word_class(after)


def divide_line(text: str, width: int, fold: bool = True) -> list[int]:
    """The offsets where lines of ``text`` start so that each fits ``width`` cells (rich's
    ``divide_line`` contract): at the last allowed break; a word longer than a line is cut
    where it fills it, ``fold`` or not (cropping would lose the rest of a sentence that has no
    space), still never before a character that cannot start a line."""
    breaks: list[int] = []
    start, last, used = 0, 0, 0  # the line's start, its last allowed break, its width so far
    for i, ch in enumerate(text):
        if i > start and breakable(text, i):
            last = i
        used += cell_len(ch)
        if used <= width or ch.isspace():
            continue
        if last > start:
            cut = last
        else:  # folded even when rich would crop: Japanese has no space to crop at
            cut = i
            while cut > start + 1 and text[cut] in NO_LINE_START:
                cut -= 1  # push the previous character down with it (追い出し)
        breaks.append(cut)
        start = last = cut
        used = cell_len(text[cut : i + 1])
    return breaks


def longest_unbreakable(text: str) -> int:
    """The width of the widest piece of ``text`` between allowed breaks: the least a column
    holding it can be without splitting a word (rich measures it between spaces only, so a
    Japanese cell's least width was the whole sentence and the table squeezed it anyhow)."""
    widest, start = 0, 0
    for line in text.splitlines():
        start = 0
        for i in range(1, len(line) + 1):
            if i == len(line) or breakable(line, i):
                widest = max(widest, cell_len(line[start:i].rstrip()))
                start = i
    return widest


def _measure(original: Any) -> Any:
    def measure(self: Any, console: Any, options: Any) -> Any:
        found = original(self, console, options)
        if not any(_wide(ch) for ch in self.plain):
            return found
        least = min(longest_unbreakable(self.plain), found.maximum)
        return type(found)(least, found.maximum)

    measure.kinsoku = True  # type: ignore[attr-defined]
    return measure


def _rich_or_kinsoku(original: Callable[[str, int, bool], list[int]]) -> Any:
    def divide(text: str, width: int, fold: bool = True) -> list[int]:
        if not any(_wide(ch) for ch in text):
            return original(text, width, fold)
        return divide_line(text, width, fold)

    divide.kinsoku = True  # type: ignore[attr-defined]
    return divide


def install() -> None:
    """Wrap every rich text (help, panels, table cells) by :func:`divide_line`; text without
    wide characters keeps rich's own wrapping."""
    import rich.text

    wrap: Any = rich.text  # rich.text imports divide_line from rich._wrap and calls it there
    if not getattr(wrap.divide_line, "kinsoku", False):
        wrap.divide_line = _rich_or_kinsoku(wrap.divide_line)
    if not getattr(rich.text.Text.__rich_measure__, "kinsoku", False):
        rich.text.Text.__rich_measure__ = _measure(rich.text.Text.__rich_measure__)  # type: ignore[method-assign]
