"""Schemathesis against /openapi.json: generated requests for every operation, never a 5xx.

Bounded (a few examples per operation) so it runs inside ``make test``.
"""

from __future__ import annotations

from pathlib import Path

import schemathesis
from hypothesis import HealthCheck, settings

from deckcheck.service.app import create_app
from deckcheck.service.settings import Settings

APP = create_app(
    Settings(
        db=Path(__import__("tempfile").mkdtemp()) / "fuzz.sqlite3",
        api_keys=("fuzz-key",),
        sync_games=50,
        job_games=200,
        max_jobs=1,
    )
)
schema = schemathesis.openapi.from_asgi("/openapi.json", APP)


@schema.parametrize()
@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_server_errors(case: schemathesis.Case) -> None:
    if case.method.upper() in ("POST", "PUT", "DELETE") and case.path.startswith("/decks"):
        case.headers = {**(case.headers or {}), "Authorization": "Bearer fuzz-key"}
    response = case.call()
    assert response.status_code < 500, (case.method, case.path, response.text[:300])
    if response.status_code >= 400:
        media = response.headers.get("content-type") or [""]
        media = media[0] if isinstance(media, list) else media
        assert media.startswith("application/problem+json"), (case.path, response.status_code)
