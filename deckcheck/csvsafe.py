"""CSV cells that a spreadsheet would run as a formula ("CSV injection", OWASP): a cell that
starts with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return gets a single quote in
front, which spreadsheets show as text and do not evaluate. A deck line such as
``1 =HYPERLINK("http://…")`` is an unknown card whose reference the CSV keeps as its name.

Reading our own CSV back must give the text that was written, so the quote is undone on
reading; for that a cell that already starts with a quote followed by one of those characters
(or by another quote) gets one more. ``unescape(escape(s)) == s`` for every ``s``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas as pd

TRIGGERS = ("=", "+", "-", "@", "\t", "\r")
_QUOTED = (*TRIGGERS, "'")


def escape(cell: str) -> str:
    if cell.startswith(TRIGGERS) or (cell.startswith("'") and cell[1:2] in _QUOTED):
        return "'" + cell
    return cell


def unescape(cell: str) -> str:
    return cell[1:] if cell.startswith("'") and cell[1:2] in _QUOTED else cell


def _cell(value: Any) -> Any:
    return escape(value) if isinstance(value, str) else value


def escape_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """A copy of ``frame`` whose text cells and column names are escaped; numbers stay
    numbers (a negative number is no formula)."""
    from pandas.api.types import is_object_dtype, is_string_dtype

    out = frame.copy()
    for column in out.columns:
        if is_object_dtype(out[column]) or is_string_dtype(out[column]):
            out[column] = out[column].map(_cell)
    out.columns = [_cell(c) for c in out.columns]
    return out
