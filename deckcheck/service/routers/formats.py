"""``/formats``: the formats the service knows, and each one's rules."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from fastapi import APIRouter

from deckcheck.checks.table import placements
from deckcheck.formats.registry import detail, listing
from deckcheck.i18n import _
from deckcheck.service.deps import RegistryDep
from deckcheck.service.problems import Problem
from deckcheck.service.words import format_words

router = APIRouter(prefix="/formats", tags=["formats"])


@router.get("")
def formats(registry: RegistryDep) -> list[dict[str, Any]]:
    return [format_words(listing(f), f.game) for f in registry.all()]


@router.get("/{format_id}")
def format_detail(format_id: str, registry: RegistryDep) -> dict[str, Any]:
    if format_id not in registry.ids():  # ids only: a path would read a file on the server
        message = _("unknown format {id!r}", id=format_id)
        raise Problem(404, "unknown-format", message)  # i18n: machine
    found = detail(registry, format_id)
    # where the builder adds a card with a keyword, before the first section its type is
    # allowed in (a check table's own rule, e.g. a card that waits in another section)
    found["placement"] = [asdict(p) for p in placements(registry.get(format_id))]
    return format_words(found, str(found.get("game", "")))
