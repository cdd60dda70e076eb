"""Pathological text for the regular expressions and the deck-list header parser (issue 13,
item 1), shared by tests/test_regex_time.py (growth with the input) and
benchmarks/worst_case_bench.py (the times)."""

from __future__ import annotations

import importlib
import pkgutil
import re
from collections.abc import Callable
from typing import Any

import deckcheck
from deckcheck.formats.registry import default_registry

SIZE = 100_000


def patterns() -> dict[str, re.Pattern[str]]:
    """Every compiled pattern of a deckcheck module, and every keyword pattern of a shipped
    format, by where it is."""
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


def inputs(size: int = SIZE) -> list[str]:
    """Texts of about ``size`` characters that make backtracking patterns work hard."""
    half = size // 2
    chunks = ["[", " ", "\t", "1", "x", "#", ":", "=", "a", "<", "os", "\u3000", "「", "\""]
    texts = [c * (size // len(c)) for c in chunks]
    for a in chunks:  # a prefix, then a long run that almost matches, then a spoiler
        texts.append(a + " " * half + "x")
        texts.append(a + " " * half + "]x")
    texts += [
        "[" + " " * half + "x",
        "format:" + " " * half,
        "1" * half + " " * half,
        "4 x " * (size // 4),
        "a " * half + ">",
        "level" + " " * half + "<",
        " " * half + "<" + " " * half,
        "符ノ壱「" + "a」 " * (size // 3),
        '"card"' + " " * half,
        "[ " * half,
    ]
    return texts


# header lines of n characters that almost close
HEADERS: list[Callable[[int], str]] = [
    lambda n: "[" + " " * n + "x",
    lambda n: "[" + " " * n + "]x",
    lambda n: "[" * n,
]
