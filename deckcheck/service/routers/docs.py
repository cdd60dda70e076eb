"""``/docs``: Swagger UI from the installed swagger-ui-bundle package, never from a CDN (the
page's policy allows no outside origin). ``DECKCHECK_DOCS=0`` switches it off."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import HTMLResponse

router = APIRouter(include_in_schema=False)

# The start-up script is a file too: the policy allows no inline script.
PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>deckcheck API</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/static/docs.js"></script>
</body>
</html>
"""


@router.get("/docs", response_class=HTMLResponse)
def docs() -> HTMLResponse:
    return HTMLResponse(PAGE)
