"""The page's API client (deckcheck/web/static/api.js) against the service's OpenAPI schema:
every route the page calls is declared in its ROUTES table, and each is a path and method the
service serves, so renaming a route (or changing its method) fails here, not in a browser."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from deckcheck.service.app import create_app
from deckcheck.service.settings import Settings

STATIC = Path(__file__).resolve().parent.parent / "deckcheck" / "web" / "static"
CLIENT = STATIC / "api.js"
_TABLE = re.compile(r"^export const ROUTES = \{\n(?P<body>.*?)^\};", re.S | re.M)
_ROUTE = re.compile(r'^\s*(?P<name>\w+): \["(?P<method>[A-Z]+)", "(?P<path>/[^"]*)"\],\s*$')
# the client's functions that take a route's name first
_CALL = re.compile(r"\b(?:api|apiResponse|fetchAt|runJob)\(\s*\"(?P<name>\w+)\"")


def routes(source: str) -> dict[str, tuple[str, str]]:
    """The ROUTES table of the client's source: name → (method, path). Every line of the table
    must be an entry, so one the pattern cannot read fails instead of being skipped."""
    table = _TABLE.search(source)
    assert table, "api.js declares no `export const ROUTES = {...};` table"
    out: dict[str, tuple[str, str]] = {}
    for line in table["body"].splitlines():
        if not line.strip() or line.strip().startswith("//"):
            continue
        found = _ROUTE.match(line)
        assert found, f"not a route entry: {line!r}"
        out[found["name"]] = (found["method"], found["path"])
    return out


def unserved(table: dict[str, tuple[str, str]], schema: dict[str, Any]) -> list[str]:
    """The entries of the table the schema has no path or no such method for."""
    paths = schema["paths"]
    return [
        f"{name}: {method} {path}"
        for name, (method, path) in table.items()
        if method.lower() not in paths.get(path, {})
    ]


@pytest.fixture(scope="module")
def schema(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    db = tmp_path_factory.mktemp("client") / "pool.sqlite3"
    return create_app(Settings(db=db, api_keys=("client-key",))).openapi()


def test_every_route_the_page_calls_is_served(schema: dict[str, Any]) -> None:
    table = routes(CLIENT.read_text(encoding="utf-8"))
    assert {"validate", "resolve", "odds", "hand", "sweep", "tune", "job"} <= set(table)
    assert unserved(table, schema) == []


def test_a_renamed_or_moved_route_is_reported(schema: dict[str, Any]) -> None:
    table = routes(CLIENT.read_text(encoding="utf-8"))
    renamed = {**schema, "paths": dict(schema["paths"])}
    renamed["paths"]["/checks"] = renamed["paths"].pop("/validate")  # the service renames it
    assert unserved(table, renamed) == ["validate: POST /validate"]
    moved = {**table, "saveDeck": ("PATCH", "/decks/{deck_id}")}  # the page asks another method
    assert unserved(moved, schema) == ["saveDeck: PATCH /decks/{deck_id}"]


def test_the_table_is_every_call_the_page_makes() -> None:
    """The scripts call the service only through the client, by the names its table declares;
    and the table lists no route the page no longer calls."""
    table = routes(CLIENT.read_text(encoding="utf-8"))
    called: set[str] = set()
    for path in sorted(STATIC.glob("*.js")):
        source = path.read_text(encoding="utf-8")
        if path != CLIENT:
            assert "fetch(" not in source, f"{path.name} calls the service past api.js"
        called |= {m["name"] for m in _CALL.finditer(source)}
    assert called - set(table) == set(), "calls of routes the table does not declare"
    assert set(table) - called == set(), "routes the table declares and the page never calls"


def test_a_table_line_that_is_not_a_route_fails() -> None:
    source = (
        'export const ROUTES = {\n  validate: ["POST", "/validate"],\n  odds: "POST /odds",\n};\n'
    )
    with pytest.raises(AssertionError, match="not a route entry"):
        routes(source)
