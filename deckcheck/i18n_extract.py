"""``pybabel extract`` for format files (``formats/*.toml``, see ``babel.cfg``): the words of a
format that reach a person (a section's label, the format's name and description, a note) are
catalogue entries whose context is the format's game, so each is worded as its game words it.
Sources are not extracted: a citation stays in its rulebook's language."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

# Text with no English word in it (a name already in Japanese) has nothing to translate.
_ENGLISH = re.compile(r"\b[a-z]{2,}\b")

# The keys whose text deckcheck prints. ``name`` only at the top: a section's name is an id.
SHOWN = ("label", "description", "note")
TOP_ONLY = ("name",)


def shown_texts(data: dict[str, Any]) -> Iterator[str]:
    """Every text of a parsed format file that deckcheck shows (in file order)."""
    for key in TOP_ONLY:
        if isinstance(data.get(key), str):
            yield data[key]
    stack: list[Any] = [data]
    while stack:
        item = stack.pop(0)
        if isinstance(item, dict):
            for key, value in item.items():
                if key in SHOWN and isinstance(value, str):
                    yield value
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
    for text in shown_texts(data):
        if not _ENGLISH.search(text):
            continue
        needle = f'"{text}"'
        lineno = next((i for i, line in enumerate(lines, start=1) if needle in line), 1)
        yield lineno, "pgettext", (game, text), ["a format's words: " + (data.get("id") or "")]
