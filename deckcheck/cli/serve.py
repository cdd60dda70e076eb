"""``deckcheck serve``: the HTTP service under uvicorn."""

from __future__ import annotations

import os
from typing import Annotated

import typer

from deckcheck.cli.common import open_pool
from deckcheck.cli.options import DbOption
from deckcheck.i18n import N_

HELP = N_(
    "Run the HTTP service (FastAPI under uvicorn); the OpenAPI schema is at /openapi.json, "
    "the browsable docs at /docs. Settings: see the README (DECKCHECK_API_KEYS, …).\n\n"
    "Exit status: 0 stopped, 2 bad settings (each named)."
)


def serve(
    host: Annotated[str, typer.Option("--host")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=1, max=65535)] = 8000,
    workers: Annotated[int, typer.Option("--workers", min=1, max=64)] = 1,
    db: DbOption = None,
) -> None:
    import uvicorn

    from deckcheck.service.settings import Settings

    if db is not None:
        os.environ["DECKCHECK_DB"] = str(db)  # the workers build their settings from it
    os.environ.setdefault("DECKCHECK_WARM", "1")  # the goldfish engines compile at start-up
    Settings.from_env()  # a bad DECKCHECK_* value is a clear error (exit 2), not a traceback
    open_pool(db).close()  # a broken pool is a clear error before the server starts
    from deckcheck.service.edge import EdgeLimits

    # header size, count and read time limited before the app (431, 408): deckcheck.service.edge
    uvicorn.run(
        "deckcheck.service.asgi:app", host=host, port=port, workers=workers, http=EdgeLimits
    )
