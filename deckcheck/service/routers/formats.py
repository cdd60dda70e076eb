"""``/formats``: the formats the service knows, and each one's rules."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from deckcheck.format_registry import detail, listing
from deckcheck.service.deps import RegistryDep
from deckcheck.service.problems import Problem

router = APIRouter(prefix="/formats", tags=["formats"])


@router.get("")
def formats(registry: RegistryDep) -> list[dict[str, Any]]:
    return [listing(f) for f in registry.all()]


@router.get("/{format_id}")
def format_detail(format_id: str, registry: RegistryDep) -> dict[str, Any]:
    if format_id not in registry.ids():  # ids only: a path would read a file on the server
        raise Problem(404, "unknown-format", f"unknown format {format_id!r}")
    return detail(registry, format_id)
