"""``/``: the deck builder page (the static files are mounted by ``create_app``), in the
request's language (``?lang=``, else ``Accept-Language``): the page's own words, the
format names, and the scripts' words (``messages``, for their ``_()``)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse
from fastapi.templating import Jinja2Templates

from deckcheck import __version__
from deckcheck.i18n import _, current
from deckcheck.service.deps import RegistryDep
from deckcheck.web import TEMPLATES, entry_script, keys, script_messages
from deckcheck.wording import label

router = APIRouter(include_in_schema=False)
templates = Jinja2Templates(directory=str(TEMPLATES))
templates.env.globals["_"] = _  # reads the request's language when the page is rendered
templates.env.filters["keys"] = keys


@router.get("/", response_class=HTMLResponse)
def builder(request: Request, registry: RegistryDep) -> HTMLResponse:
    formats = [
        {"id": f.id, "name": label(f.game, f.name), "game": f.game} for f in registry.all()
    ]
    lang = current()
    context = {
        "formats": formats,
        "version": __version__,
        "lang": lang,
        "messages": script_messages(lang),
        "entry": entry_script(),
    }
    return templates.TemplateResponse(request, "builder.html", context)


@router.get("/favicon.ico")
def favicon() -> RedirectResponse:
    """Browsers ask for /favicon.ico on pages that name no icon (the API docs): the builder's."""
    return RedirectResponse("/static/favicon.svg", status_code=301)
