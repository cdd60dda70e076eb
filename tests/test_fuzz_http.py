"""Headers and query strings no client controls the shape of: ``If-Match`` on saved-deck
writes and the query strings of every GET endpoint, fuzzed through the service. The answer is
never a 500 (issue 24, item 11: ``If-Match: "²"`` was one, ``isdigit`` accepting a digit that
``int`` does not).

Header bytes go to the app as sent, through httpx's ASGI transport in the TestClient's event
loop: the TestClient itself re-encodes non-ASCII header values as UTF-8, so the byte 0xB2
(``²`` to a server, which decodes headers as latin-1, as uvicorn delivers it) never reaches
the app through it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote_from_bytes

import httpx
import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deckcheck.service.app import create_app
from deckcheck.service.settings import Settings
from tests.conftest import EXAMPLES

KEY = "fuzz-key"
AUTH = {"Authorization": f"Bearer {KEY}"}
DECK = {
    "name": "fuzzed",
    "format": "rakuen-standard",
    "deck": (EXAMPLES / "rakuen-standard-legal.deck").read_text(encoding="utf-8"),
}


@pytest.fixture(scope="module")
def http(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = tmp_path_factory.mktemp("fuzz-http") / "pool.sqlite3"
    app = create_app(Settings(db=db, api_keys=(KEY,)))
    with TestClient(app, raise_server_exceptions=False) as client:
        yield client


async def _send(app: Any, method: str, path: str, if_match: bytes) -> httpx.Response:
    headers = [(b"authorization", f"Bearer {KEY}".encode()), (b"if-match", if_match)]
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)  # a 500, as served
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
        body = json.dumps(DECK).encode() if method == "PUT" else None
        if body is not None:
            headers.append((b"content-type", b"application/json"))
        return await client.request(method, path, headers=headers, content=body)


def send(http: TestClient, method: str, path: str, if_match: bytes) -> httpx.Response:
    """``method path`` with these If-Match bytes, exactly as a server would receive them."""
    assert http.portal is not None
    answer: httpx.Response = http.portal.call(_send, http.app, method, path, if_match)
    return answer


def _saved(http: TestClient) -> dict[str, Any]:
    created = http.post("/decks", json=DECK, headers=AUTH)
    assert created.status_code == 201, created.text
    found: dict[str, Any] = created.json()
    return found


@pytest.mark.parametrize("tag", ['"²"', '"¹"', '"³", "0"', 'W/"²"', '"1²"'])
def test_an_if_match_of_other_digits_matches_nothing(http: TestClient, tag: str) -> None:
    deck = _saved(http)
    for method in ("PUT", "DELETE"):
        answer = send(http, method, f"/decks/{deck['id']}", tag.encode("latin-1"))
        assert answer.status_code == 412, answer.text
        assert answer.json()["type"].endswith("/precondition-failed")
    assert http.get(f"/decks/{deck['id']}", headers=AUTH).json()["version"] == deck["version"]


# Entity tags (RFC 9110 §8.8.3) and near misses: strong or weak, listed, with opaque parts
# of digits (ASCII or not), signs and other latin-1 bytes; and any latin-1 text at all.
OPAQUE = ["1", "0", "9" * 30, "²", "¹", "³", "-", "+", " ", "\t", "\x80", "ÿ", "*", '"', ""]
opaque = st.one_of(
    st.text(alphabet="0123456789²³¹", min_size=1, max_size=6),  # what isdigit() calls digits
    st.lists(st.sampled_from(OPAQUE), max_size=4).map("".join),
)
entity_tag = st.tuples(
    st.sampled_from(["", "", "W/", "w/"]),
    st.sampled_from(['"', '"', ""]),
    opaque,
    st.sampled_from(['"', '"', ""]),
).map("".join)
if_match = st.one_of(
    st.lists(entity_tag, min_size=1, max_size=3).map(", ".join),
    st.sampled_from(["*", "", " ", ",", '*, "1"']),
    st.text(alphabet=st.characters(min_codepoint=0x20, max_codepoint=0xFF), max_size=40),
)


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(tag=if_match)
def test_if_match_never_gives_a_500(http: TestClient, tag: str) -> None:
    deck = _saved(http)
    put = send(http, "PUT", f"/decks/{deck['id']}", tag.encode("latin-1"))
    assert put.status_code in (200, 412), put.text
    gone = send(http, "DELETE", f"/decks/{deck['id']}", tag.encode("latin-1"))
    assert gone.status_code in (204, 412), gone.text
    if gone.status_code != 204:
        assert http.request("DELETE", f"/decks/{deck['id']}", headers=AUTH).status_code == 204


NAMES = [
    "q", "game", "type", "title", "os", "limit", "offset", "max_level", "max_cost", "keyword",
    "user", "class", "package", "link", "max_node", "min_graze", "format", "as", "x",
]  # fmt: skip
VALUE_PIECES = [b"1", b"-1", b"0", b"9" * 25, b"\xed\xa0\x80", b"\xff", b"%", b"&", b"=", b"\x00",
                b"chaos", b"member", b"text", b"json", "見本".encode(), b"+", b" ", b"1e9"]  # fmt: skip
values = st.one_of(
    st.binary(max_size=30),
    st.lists(st.sampled_from(VALUE_PIECES), max_size=8).map(b"".join),
)
query = st.lists(
    st.tuples(st.one_of(st.sampled_from(NAMES).map(str.encode), st.binary(max_size=8)), values),
    max_size=6,
).map(lambda pairs: "&".join(f"{quote_from_bytes(k)}={quote_from_bytes(v)}" for k, v in pairs))
PATHS = [
    "/cards",
    "/cards/chaos/SAMPLE-C-001",
    "/decks",
    "/decks/nope",
    "/decks/nope/export",
    "/formats",
    "/formats/rakuen-standard",
    "/games",
    "/health",
    "/jobs/nope",
    "/jobs/nope/result",
    "/",
]


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(path=st.sampled_from(PATHS), qs=query)
def test_query_strings_never_give_a_500(http: TestClient, path: str, qs: str) -> None:
    answer = http.get(f"{path}?{qs}")
    assert answer.status_code < 500, answer.text


def test_the_saved_deck_export_takes_its_query(http: TestClient) -> None:
    deck = _saved(http)
    for qs, status in (("as=json", 200), ("as=text", 200), ("as=%FF", 422), ("as=", 422)):
        assert http.get(f"/decks/{deck['id']}/export?{qs}", headers=AUTH).status_code == status, qs


# Accept-Language (RFC 9110 §12.5.4): ranges with weights, wildcards, near misses and any
# latin-1 text; the answer is never a 500 and is always in one of the service's languages.
language_range = st.tuples(
    st.sampled_from(["ja", "en", "ja-JP", "en-GB", "*", "fr", "JA", "zh-Hant-TW", "", "x-"]),
    st.sampled_from(["", ";q=0", ";q=1", ";q=0.5", ";q=1.0001", ";q=-1", ";q=", ";q=abc", ";"]),
).map("".join)
accept_language = st.one_of(
    st.lists(language_range, min_size=1, max_size=4).map(", ".join),
    st.text(alphabet=st.characters(min_codepoint=0x20, max_codepoint=0xFF), max_size=40),
)


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(path=st.sampled_from(PATHS), language=accept_language, qs=query)
def test_accept_language_never_gives_a_500(
    http: TestClient, path: str, language: str, qs: str
) -> None:
    assert http.portal is not None
    answer: httpx.Response = http.portal.call(_get_with, http.app, f"{path}?{qs}", language)
    assert answer.status_code < 500, answer.text
    assert answer.headers.get("content-language", "en") in ("en", "ja"), answer.headers


async def _get_with(app: Any, target: str, language: str) -> httpx.Response:
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    headers = [(b"accept-language", language.encode("latin-1"))]
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
        return await client.get(target, headers=headers)
