"""One ``APIRouter`` per resource; ``deckcheck.service.app.create_app`` includes them all."""

from __future__ import annotations

from fastapi import APIRouter

from deckcheck.service.routers import (
    cards,
    decks,
    formats,
    games,
    goldfish,
    health,
    odds,
    sweeps,
    tunes,
    validate,
    web,
)

ROUTERS: tuple[APIRouter, ...] = (
    health.router,
    formats.router,
    games.router,
    cards.router,
    validate.router,
    odds.router,
    goldfish.router,
    sweeps.router,
    tunes.router,
    decks.router,
    web.router,
)
