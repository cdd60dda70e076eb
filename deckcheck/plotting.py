"""Plots in the reader's language: Japanese labels need a font with Japanese glyphs.

matplotlib's default font (DejaVu Sans) has none, so Japanese labels would come out as boxes.
``labels()`` finds a CJK font (by family name, else any installed font that has the glyphs)
and makes it matplotlib's font inside the block; with none on the machine the plot is labelled
in English and a warning says why. matplotlib is imported inside the functions: only the plot
path pays for it.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from typing import TYPE_CHECKING

from deckcheck.files import write_atomic
from deckcheck.i18n import _, current, override

if TYPE_CHECKING:
    from pathlib import Path

    from matplotlib.figure import Figure

# Families that cover Japanese, the ones this project's machines and common desktops ship first.
CJK_FAMILIES = (
    "Noto Sans CJK JP",
    "Noto Serif CJK JP",
    "Source Han Sans JP",
    "IPAexGothic",
    "IPAGothic",
    "TakaoGothic",
    "VL Gothic",
    "Hiragino Sans",
    "Yu Gothic",
    "MS Gothic",
    "Droid Sans Japanese",
)
# A font must draw these (kana, kanji, the full-width brackets the labels use) to be chosen.
SAMPLE = "確率ターン目枚数一人回しの（）、"


def covers(path: str, text: str = SAMPLE) -> bool:
    """Whether the font file at ``path`` (its first face) draws every character of ``text``
    with a glyph of its own: a last-resort font maps a whole block to one box glyph, which is
    no Japanese font."""
    from matplotlib import ft2font

    try:
        charmap = ft2font.FT2Font(path).get_charmap()
    except (OSError, RuntimeError, ValueError):
        return False
    chars = {ch for ch in text if not ch.isspace()}
    if not all(ord(ch) in charmap for ch in chars):
        return False
    return len({charmap[ord(ch)] for ch in chars}) == len(chars)


def _known() -> dict[str, str]:
    from matplotlib import font_manager

    return {entry.name: entry.fname for entry in font_manager.fontManager.ttflist}


def _pick(fonts: dict[str, str], any_family: bool) -> str | None:
    """A known CJK family that draws Japanese; with ``any_family``, else any font that does."""
    for family in CJK_FAMILIES:
        if family in fonts and covers(fonts[family]):
            return family
    if not any_family:
        return None
    return next((name for name, path in sorted(fonts.items()) if covers(path)), None)


@cache
def find_cjk_font() -> str | None:
    """The family name of an installed font that draws Japanese, or None."""
    from matplotlib import font_manager

    found = _pick(_known(), any_family=False)
    if found is not None:
        return found
    # matplotlib's font cache may predate fonts installed later: add the system's fonts
    known = {entry.fname for entry in font_manager.fontManager.ttflist}
    for path in font_manager.findSystemFonts():
        if path not in known:
            try:
                font_manager.fontManager.addfont(path)
            except (OSError, RuntimeError, ValueError):
                continue  # a font file matplotlib cannot read is no candidate
    return _pick(_known(), any_family=True)


@contextmanager
def labels() -> Iterator[str]:
    """Inside the block, plot texts are written in the language the plot can show (yielded):
    the current one, with a CJK font as matplotlib's font for Japanese; English, with a
    warning on stderr, when no installed font draws Japanese."""
    import matplotlib

    lang = current()
    family = find_cjk_font()  # card names are Japanese in either language
    if lang == "ja" and family is None:
        sys.stderr.write(
            _(
                "deckcheck: warning: no font with Japanese glyphs is installed; the plot is "
                "labelled in English"
            )
            + "\n"
        )
        lang = "en"
    with matplotlib.rc_context(), override(lang):
        if family is not None:  # Japanese: first in line; English: for the glyphs it lacks
            # (matplotlib falls back along font.family's list, not along a generic family's)
            fonts = list(matplotlib.rcParams["font.sans-serif"])
            matplotlib.rcParams["font.family"] = (
                [family, "sans-serif"] if lang == "ja" else [fonts[0], family]
            )
        yield lang


def save(fig: Figure, path: Path) -> None:
    """Lay out, write ``fig`` as a PNG (atomically) and close it."""
    import matplotlib.pyplot as plt

    fig.tight_layout()
    try:
        write_atomic(path, lambda tmp: fig.savefig(tmp, format="png"))
    finally:
        plt.close(fig)
