"""Where the shipped data lives, and the chaos title→OS table (rulebook appendix).

A wheel carries ``card_pool/`` and ``formats/`` inside the package (``deckcheck/_data``); a
source checkout (editable install, tests) reads them from the repository's top level.
"""

from __future__ import annotations

import os
import tomllib
from functools import cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from deckcheck.normalize import title_key

_PACKAGE = Path(__file__).resolve().parent


def _shipped(name: str) -> Path:
    inside = _PACKAGE / "_data" / name
    return inside if inside.is_dir() else _PACKAGE.parent / name


def card_pool_dir() -> Path:
    return _shipped("card_pool")


def format_dirs() -> list[Path]:
    """``$DECKCHECK_FORMATS`` folders (os.pathsep-separated) first, then the shipped ones."""
    extra = [Path(p) for p in os.environ.get("DECKCHECK_FORMATS", "").split(os.pathsep) if p]
    return [*extra, _shipped("formats")]


class OsEntry(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)
    name: str
    page: int | None = None
    titles: tuple[str, ...] = ()


class _Group(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)
    os: tuple[str, ...] = Field(min_length=2)


class OsTable(BaseModel):
    """ChaosTCG 総合ルール 2016-05-17, 付録「作品名と OS 名」."""

    model_config = ConfigDict(frozen=True)
    os: tuple[OsEntry, ...]
    equivalence: tuple[_Group, ...] = ()
    mixing_group: tuple[_Group, ...] = ()

    @property
    def equivalences(self) -> list[tuple[str, ...]]:
        return [g.os for g in self.equivalence]

    @property
    def mixing_groups(self) -> list[tuple[str, ...]]:
        return [g.os for g in self.mixing_group]

    def title_index(self) -> dict[str, str]:
        """Title key → OS name. OS names resolve to themselves too (a title may be its OS)."""
        index: dict[str, str] = {}
        for entry in self.os:
            index.setdefault(title_key(entry.name), entry.name)
            for title in entry.titles:
                index.setdefault(title_key(title), entry.name)
        return index

    def os_index(self) -> dict[str, str]:
        return {title_key(entry.name): entry.name for entry in self.os}


@cache
def chaos_os_table(path: Path | None = None) -> OsTable:
    target = path or card_pool_dir() / "chaos_os.toml"
    with target.open("rb") as handle:
        return OsTable.model_validate(tomllib.load(handle))
