"""The deck builder page at ``/``: a Jinja2 template and a little plain JavaScript.

Every rule comes from the service's endpoints (``/validate``, ``/hand``, ``/odds``); the page
only edits a list of cards and shows what the service answers.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates

from deckcheck import __version__
from deckcheck.formats import FormatRegistry

HERE = Path(__file__).resolve().parent


def mount(app: FastAPI, registry: FormatRegistry) -> None:
    templates = Jinja2Templates(directory=str(HERE / "templates"))
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    def builder(request: Request) -> HTMLResponse:
        formats = [{"id": f.id, "name": f.name, "game": f.game} for f in registry.all()]
        return templates.TemplateResponse(
            request, "builder.html", {"formats": formats, "version": __version__}
        )
