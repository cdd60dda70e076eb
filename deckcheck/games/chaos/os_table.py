"""ChaosTCG's title→OS table (総合ルール 2016-05-17, 付録「作品名と OS 名」,
card_pool/chaos_os.toml): the OS a card's title belongs to on import (the spec's
``card_tables``), and the appendix's equivalence and mixing groups for ``[os_policy]``."""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from functools import cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from deckcheck.games.chaos.titles import title_key
from deckcheck.sdk import card_pool_dir


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
def os_table(path: Path | None = None) -> OsTable:
    target = path or card_pool_dir() / "chaos_os.toml"
    with target.open("rb") as handle:
        return OsTable.model_validate(tomllib.load(handle))


@cache
def card_tables() -> Mapping[str, Mapping[str, str]]:
    """The spec's ``card_tables``: ``titles`` (title key → OS) and ``os_names`` (OS key → OS),
    what ``check_card`` fills a card's OS from."""
    table = os_table()
    return {"titles": table.title_index(), "os_names": table.os_index()}
