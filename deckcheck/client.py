"""``deckcheck --server URL …``: the same commands, answered by a deckcheck service."""

from __future__ import annotations

import time
from typing import Any

import httpx

from deckcheck.errors import RemoteError
from deckcheck.i18n import _


class ClientError(RemoteError):
    """The service refused or could not be reached; the message is for the user."""


def http_client(base_url: str) -> httpx.Client:
    """The HTTP client (tests swap it for one bound to the app in-process)."""
    return httpx.Client(base_url=base_url, timeout=httpx.Timeout(120.0, connect=10.0))


def call(server: str, method: str, path: str, body: Any = None) -> httpx.Response:
    try:
        with http_client(server.rstrip("/")) as client:
            response = client.request(method, path, json=body)
    except httpx.HTTPError as exc:
        raise ClientError(_("cannot reach {server}: {error}", server=server, error=exc)) from exc
    if response.status_code >= 400:
        raise ClientError(_problem_text(response))
    return response


def _problem_text(response: httpx.Response) -> str:
    try:
        problem = response.json()
        detail = problem.get("detail") or problem.get("title")
    except ValueError:
        detail = response.text[:200]
    return _("the server answered {status}: {detail}", status=response.status_code, detail=detail)


def post(server: str, path: str, body: dict[str, Any]) -> Any:
    return call(server, "POST", path, body).json()


def get(server: str, path: str) -> Any:
    return call(server, "GET", path).json()


def goldfish(server: str, body: dict[str, Any], poll: float = 0.5) -> Any:
    """POST /goldfish; a 202 job is polled until it ends, then its result fetched from the
    URL the status gives (polling never carries it)."""
    response = call(server, "POST", "/goldfish", body)
    data = response.json()
    if response.status_code != 202:
        return data
    while data["status"] in ("queued", "running"):
        time.sleep(poll)
        data = get(server, f"/jobs/{data['id']}")
    if data["status"] != "done" or not data.get("result_url"):
        raise ClientError(
            _(
                "the server's job {id} {status}: {error}",
                id=data["id"],
                status=data["status"],
                error=data.get("error"),
            )
        )
    return get(server, data["result_url"])
