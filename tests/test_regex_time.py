"""Every regular expression the project uses answers a pathological 100 KB input within 1 s
(issue 13, item 1): backtracking that grows faster than the input can stall the service."""

from __future__ import annotations

import importlib
import pkgutil
import re
import time
from typing import Any

import pytest

import deckcheck
from deckcheck import decklist, edit
from deckcheck.format_registry import default_registry

SIZE = 100_000


def _patterns() -> dict[str, re.Pattern[str]]:
    found: dict[str, re.Pattern[str]] = {}
    for info in pkgutil.walk_packages(deckcheck.__path__, "deckcheck."):
        if info.name.endswith("__main__"):
            continue
        try:
            module = importlib.import_module(info.name)
        except ImportError:  # an optional extra (e.g. a database driver) that is not installed
            continue
        for name, value in vars(module).items():
            if isinstance(value, re.Pattern) and isinstance(value.pattern, str):
                found[f"{info.name}.{name}"] = value
    for fmt in default_registry().all():  # the keyword patterns formats declare
        for source in _keyword_patterns(fmt.model_dump()):
            found[f"{fmt.id}:{source}"] = re.compile(source)
    return found


def _keyword_patterns(data: Any) -> list[str]:
    if isinstance(data, dict):
        own = [data["keyword_pattern"]] if data.get("keyword_pattern") else []
        return own + [p for v in data.values() for p in _keyword_patterns(v)]
    if isinstance(data, list | tuple):
        return [p for v in data for p in _keyword_patterns(v)]
    return []


def _inputs() -> list[str]:
    half = SIZE // 2
    chunks = ["[", " ", "\t", "1", "x", "#", ":", "=", "a", "<", "os", "\u3000", "「", "\""]
    texts = [c * (SIZE // len(c)) for c in chunks]
    for a in chunks:  # a prefix, then a long run that almost matches, then a spoiler
        texts.append(a + " " * half + "x")
        texts.append(a + " " * half + "]x")
    texts += [
        "[" + " " * half + "x",
        "format:" + " " * half,
        "1" * half + " " * half,
        "4 x " * (SIZE // 4),
        "a " * half + ">",
        "level" + " " * half + "<",
        " " * half + "<" + " " * half,
        "符ノ壱「" + "a」 " * (SIZE // 3),
        '"card"' + " " * half,
        "[ " * half,
    ]
    return texts


PATTERNS = _patterns()


def test_the_patterns_are_found() -> None:
    assert "deckcheck.decklist._CARD" in PATTERNS
    assert "deckcheck.edit._COUNT" in PATTERNS


@pytest.mark.parametrize("name", sorted(PATTERNS))
def test_pattern_is_fast_on_pathological_input(name: str) -> None:
    pattern = PATTERNS[name]
    for text in _inputs():
        start = time.perf_counter()
        pattern.match(text)
        pattern.search(text)
        pattern.sub("", text[:SIZE])
        elapsed = time.perf_counter() - start
        assert elapsed < 1.0, f"{name} took {elapsed:.1f}s on {text[:20]!r}…"


@pytest.mark.parametrize(
    "line", ["[" + " " * 100_000 + "x", "[" + " " * 100_000 + "]x", "[" * 100_000]
)
def test_headers_parse_in_linear_time(line: str) -> None:
    start = time.perf_counter()
    deck = decklist.parse_text(line + "\n4 CH-001\n")
    edit.add_text(line + "\n", "main", 1, "CH-001", lambda ref: ref == "CH-001")
    assert time.perf_counter() - start < 1.0
    assert all(len(p.message) < 200 for p in deck.problems)


def test_a_count_of_5000_digits_is_a_syntax_problem() -> None:
    deck = decklist.parse_text("9" * 5000 + " CH-001\n")
    assert deck.entries == []
    assert len(deck.problems) == 1 and len(deck.problems[0].message) < 200
