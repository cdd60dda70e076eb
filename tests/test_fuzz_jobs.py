"""Schemathesis's stateful run over the job operations (issue 24): the OpenAPI links of
``POST /goldfish`` and ``POST /sweeps`` lead it from a started job to ``GET /jobs/{id}``,
``GET /jobs/{id}/result`` and ``DELETE /jobs/{id}``, in generated orders. No step is a 5xx,
every error is a problem document, and each step's answer fits what the job has been through
(a result only once done; a cancel of an ended job changes nothing).

Bounded (a few dozen steps) so it runs inside ``make test``."""

from __future__ import annotations

import functools
import tempfile
from pathlib import Path
from typing import Any

import schemathesis
from fastapi import FastAPI
from hypothesis import HealthCheck, Phase, settings

from deckcheck.service.app import create_app
from deckcheck.service.settings import Settings
from tests.conftest import EXAMPLES, HANG


@functools.cache
def _app() -> FastAPI:
    """The service under test, made by the first test that needs it: at import, each pytest
    worker made one and its schema while collecting (about a second each), and only the
    worker that runs these tests uses them (issue 35)."""
    return create_app(
        Settings(
            db=Path(tempfile.mkdtemp()) / "fuzz-jobs.sqlite3",
            sync_games=20,
            job_games=400,
            max_jobs=4,
            workers=1,
        )
    )


LINKED = {"GetJob", "GetJobResult", "CancelJob"}
DECK = (EXAMPLES / "rakuen-standard-legal.deck").read_text(encoding="utf-8")


def test_the_job_operations_are_linked() -> None:
    """The links the stateful run follows are in the document (none: it would test nothing)."""
    paths = _app().openapi()["paths"]
    for path in ("/goldfish", "/sweeps"):
        links = paths[path]["post"]["responses"]["202"]["links"]
        assert set(links) == LINKED, path
        for link in links.values():
            assert link["parameters"] == {"job_id": "$response.body#/id"}
    operations = {op["operationId"] for p in paths.values() for op in p.values()}
    assert {"job_status", "job_result", "job_cancel"} <= operations


def _workflow() -> Any:
    """The stateful run's machine, over ``_app``'s job operations."""
    schema = schemathesis.openapi.from_asgi("/openapi.json", _app()).include(
        path_regex="^/(goldfish|sweeps|jobs)"
    )

    class JobWorkflow(schema.as_state_machine()):  # type: ignore[misc]
        def before_call(self, case: Any, **kwargs: Any) -> None:
            """Most generated POSTs start a job: a real deck and games within a job's range go
            in, the other fields stay as generated (random decks would only ever be 422, and no
            link would be followed)."""
            body = case.body
            if case.method != "POST" or not isinstance(body, dict):
                return  # malformed bodies stay as generated
            body["deck"] = DECK
            games = body.get("games")  # generated: any JSON value (a string such as '³\x02' too)
            body["games"] = 21 + (abs(games) % 180 if type(games) is int else 0)
            if case.path == "/sweeps":
                for key in ("vary", "fill", "want", "best", "decks"):
                    body.pop(key, None)
                body["sides"] = body.get("sides") or [True]

        def after_call(self, response: Any, case: Any) -> None:
            """A started job is waited for until it ends, so every later step meets an ended job.
            Which links the run may follow depends on the answers (a result is a 200 only once
            done), and hypothesis requires the same choices to lead to the same rules: a job
            still running at one step and done at the replay of it made the run fail with
            FlakyStrategyDefinition (issue 38; a fresh-clone run under load). Cancelling a
            running job is test_jobs.py's and test_pools.py's."""
            if case.method == "POST" and response.status_code == 202:
                ended = _app().state.jobs.wait(response.json()["id"], timeout=HANG)
                assert ended is not None and ended["status"] not in ("queued", "running"), ended

        def validate_response(self, response: Any, case: Any, **kwargs: Any) -> None:
            assert response.status_code < 500, (case.method, case.path, response.text[:300])
            if response.status_code >= 400:
                media = _header(response, "content-type")
                assert media.startswith("application/problem+json"), (
                    case.path,
                    response.text[:300],
                )
            if (
                case.method == "GET"
                and case.path == "/jobs/{job_id}"
                and response.status_code == 200
            ):
                state = response.json()
                assert "result" not in state  # polling never carries the result
                assert (state["result_url"] is not None) == (state["status"] == "done"), state
            if case.path == "/jobs/{job_id}/result" and response.status_code == 200:
                assert _header(response, "etag")
                assert "max-age" in _header(response, "cache-control")

    return JobWorkflow


def _header(response: Any, name: str) -> str:
    """A header's value: schemathesis gives each as a list of values."""
    value = response.headers.get(name) or [""]
    return str(value[0] if isinstance(value, list) else value)


def test_the_job_workflow() -> None:
    """Generated runs of started, polled, fetched and cancelled jobs, a few dozen steps.

    Which links may be followed depends on the jobs' states, which depend on time: a replayed
    case (shrinking, the example database) can draw differently and hypothesis then reports
    FlakyStrategyDefinition, not a bug of the service. So: generate only, never replay."""
    _workflow().run(
        settings=settings(
            max_examples=12,
            stateful_step_count=6,
            deadline=None,
            suppress_health_check=list(HealthCheck),
            phases=[Phase.explicit, Phase.generate],
            database=None,
        )
    )
