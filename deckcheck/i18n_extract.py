"""``pybabel extract`` for format files (``formats/*.toml``, see ``babel.cfg``): the words of a
format that reach a person (a section's label, the format's name and description, a note) are
catalogue entries whose context is the format's game, so each is worded as its game words it.
So are the sources (``source``, ``warning_source``, ``sources``) that hold deckcheck's own
English words ("fan source", "deckcheck's reading", a gloss): their translation keeps every
citation (title, edition, section, quoted rulebook text) exactly as written and translates only
deckcheck's words around it."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Collection, Iterator
from pathlib import Path
from typing import IO, Any

# Text with no English word in it (a name already in Japanese) has nothing to translate.
_ENGLISH = re.compile(r"\b[a-z]{2,}\b")
# A chapter reference ("ch.2 §4") is part of a citation, not an English word.
_CHAPTER = re.compile(r"\bch\.(?=\d)")

# The keys whose text deckcheck prints. ``name`` only at the top: a section's name is an id.
SHOWN = ("label", "description", "note")
TOP_ONLY = ("name",)
# The keys whose text is a rule's source: a text, or a list of texts (``sources``).
SOURCES = ("source", "warning_source", "sources")
_CITATION = (
    "a rule's source: keep every title, edition, section (§, ch., 第…章), date, site name and "
    "quoted text exactly; translate deckcheck's own words only. "
)


def shown_texts(data: dict[str, Any]) -> Iterator[str]:
    """Every text of a parsed format file that deckcheck shows (in file order)."""
    for key in TOP_ONLY:
        if isinstance(data.get(key), str):
            yield data[key]
    yield from _texts_under(data, SHOWN, lists=False)


def source_texts(data: dict[str, Any]) -> Iterator[str]:
    """Every source of a parsed format file (in file order): a rule's, a parameter's, the
    dates', a warning's, and the format's own list."""
    return _texts_under(data, SOURCES, lists=True)


def _texts_under(data: dict[str, Any], keys: Collection[str], lists: bool) -> Iterator[str]:
    """The text under each of ``keys`` anywhere in ``data``, breadth first; with ``lists``,
    the texts of a list under one of them too."""
    stack: list[Any] = [data]
    while stack:
        item = stack.pop(0)
        if isinstance(item, dict):
            for key, value in item.items():
                if key in keys and isinstance(value, str):
                    yield value
                elif lists and key in keys and isinstance(value, list):
                    yield from (v for v in value if isinstance(v, str))
                elif isinstance(value, dict | list):
                    stack.append(value)
        elif isinstance(item, list):
            stack.extend(v for v in item if isinstance(v, dict | list))


def game_of(data: dict[str, Any], folder: Path) -> str:
    """The format's game: its own ``game``, else that of the format it ``extends`` (a file
    beside it named after the id), followed as far as it goes."""
    seen: set[str] = set()
    while not data.get("game") and isinstance(data.get("extends"), str):
        parent = folder / f"{data['extends']}.toml"
        if data["extends"] in seen or not parent.is_file():
            break
        seen.add(data["extends"])
        data = tomllib.loads(parent.read_text(encoding="utf-8"))
    return str(data.get("game", ""))


def extract_toml(
    fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any
) -> Iterator[tuple[int, str, tuple[str, str], list[str]]]:
    """Babel's extractor interface: (line, function, (context, text), comments)."""
    raw = fileobj.read()
    data = tomllib.loads(raw.decode("utf-8"))
    name = getattr(fileobj, "name", None)
    game = game_of(data, Path(name).parent if isinstance(name, str) else Path("formats"))
    lines = raw.decode("utf-8").splitlines()
    fid = data.get("id") or ""
    texts = [(t, "a format's words: " + fid) for t in shown_texts(data)]
    texts += [(t, _CITATION + fid) for t in source_texts(data)]
    for text, comment in texts:
        if not _ENGLISH.search(_CHAPTER.sub("", text)):
            continue
        needle = f'"{text}"'
        lineno = next((i for i, line in enumerate(lines, start=1) if needle in line), 1)
        yield lineno, "pgettext", (game, text), [comment]
