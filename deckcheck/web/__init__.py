"""The deck builder page at ``/``: a Jinja2 template and a little plain JavaScript.

Every rule comes from the service's endpoints (``/validate``, ``/hand``, ``/odds``); the page
only edits a list of cards and shows what the service answers. The route is
``deckcheck.service.routers.web``; this package holds the files it serves.
"""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).resolve().parent
TEMPLATES = HERE / "templates"
STATIC = HERE / "static"
