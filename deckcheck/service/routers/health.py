"""``/health``: is the service up, and how many cards does it know."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from deckcheck import __version__
from deckcheck.service.deps import CardsDep

router = APIRouter(tags=["service"])


@router.get("/health")
def health(cards: CardsDep) -> dict[str, Any]:
    return {"status": "ok", "version": __version__, "cards": cards.stats()["total"]}
