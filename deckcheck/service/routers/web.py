"""``/``: the deck builder page (the static files are mounted by ``create_app``)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates

from deckcheck import __version__
from deckcheck.service.deps import RegistryDep
from deckcheck.web import TEMPLATES

router = APIRouter(include_in_schema=False)
templates = Jinja2Templates(directory=str(TEMPLATES))


@router.get("/", response_class=HTMLResponse)
def builder(request: Request, registry: RegistryDep) -> HTMLResponse:
    formats = [{"id": f.id, "name": f.name, "game": f.game} for f in registry.all()]
    return templates.TemplateResponse(
        request, "builder.html", {"formats": formats, "version": __version__}
    )
