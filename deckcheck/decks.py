"""Reading deck files from disk: paths and folders to deck lists, with clear input errors."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from deckcheck import decklist
from deckcheck.errors import InputError
from deckcheck.files import read_limited
from deckcheck.i18n import _
from deckcheck.models import DeckList, Violation

DECK_SUFFIXES = (".deck", ".txt", ".json")
# Deck files are small; anything this large is not a deck list and is refused before reading.
MAX_DECK_BYTES = 1 << 20


class DeckInputError(InputError):
    """A deck path that cannot be read as a deck list (missing, binary, too large)."""


def expand(paths: Iterable[Path], follow_symlinks: bool = False) -> list[Path]:
    """Files as given; folders walked for ``*.deck``, ``*.txt`` and ``*.json`` (sorted). A walk
    skips symlinks that lead out of the folder (a CI run would print what they point at)
    unless ``follow_symlinks``."""
    out: list[Path] = []
    for path in paths:
        if path.is_dir():
            root = path.resolve()
            out.extend(
                p
                for p in sorted(path.rglob("*"))
                if p.suffix.lower() in DECK_SUFFIXES
                and not any(part.startswith(".") for part in p.relative_to(path).parts)
                and p.is_file()
                and (follow_symlinks or p.resolve().is_relative_to(root))
            )
        elif path.exists():
            out.append(path)
        else:
            raise DeckInputError(_("{path}: no such file or folder", path=path))
    return out


def read_raw(path: Path) -> bytes:
    """A deck file's bytes: a regular file of at most 1 MiB (``files.read_limited``)."""
    return read_limited(path, MAX_DECK_BYTES, DeckInputError, _("a deck list"))


def decode(raw: bytes, where: str) -> tuple[str, Violation | None]:
    """Deck text from bytes: UTF-8 (BOM or not), UTF-16 with a BOM, else Shift_JIS (cp932, which
    Japanese Windows tools still write) with a warning. Binary data is an input error."""
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return raw.decode("utf-16"), None
        except UnicodeDecodeError as exc:
            raise DeckInputError(
                _("{where}: not valid UTF-16 text ({reason})", where=where, reason=exc.reason)
            ) from exc
    if b"\x00" in raw:
        raise DeckInputError(_("{where}: binary data, not a deck list", where=where))
    try:
        return raw.decode("utf-8-sig"), None
    except UnicodeDecodeError as utf8_error:
        try:
            text = raw.decode("cp932")
        except UnicodeDecodeError:
            raise DeckInputError(
                _(
                    "{where}: not UTF-8 text (invalid byte at offset {offset}); save the deck "
                    "list as UTF-8",
                    where=where,
                    offset=utf8_error.start,
                )
            ) from utf8_error
        warning = Violation(
            rule="deck/encoding",
            severity="warning",
            message=_("the file is not UTF-8; it was read as Shift_JIS (cp932)"),
            line=1,
            source=_(decklist.SYNTAX_SOURCE),
            fix=_("save the deck list as UTF-8"),
        )
        return text, warning


def parse_bytes(raw: bytes, where: str) -> DeckList:
    text, warning = decode(raw, where)
    deck = decklist.parse(text, where)
    if warning is not None:
        deck.problems.insert(0, warning)
    return deck


def read(path: Path) -> DeckList:
    return parse_bytes(read_raw(path), str(path))
