"""MkDocs hooks of the documentation site (mkdocs.yml ``hooks:``).

Every page is written in both languages, ``page.md`` (English) beside ``page.ja.md`` (Japanese).
mkdocs-static-i18n falls back to the English file for images and other assets a Japanese page
shares, and so it would for a missing Japanese page too: this hook makes a page in one
language only a warning, which ``mkdocs build --strict`` (``make docs``) turns into a failure.
``tests/test_docs.py`` runs the same check.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

LANGUAGES = ("en", "ja")  # the default language first: its pages carry no suffix
log = logging.getLogger("mkdocs.hooks.pages")


def page_names(docs: Path, language: str) -> set[str]:
    """The pages of one language under ``docs``, by name without the language suffix."""
    names: set[str] = set()
    for path in docs.rglob("*.md"):
        stem = path.relative_to(docs).with_suffix("")
        lang = stem.suffix.removeprefix(".") if stem.suffix else LANGUAGES[0]
        if lang == language:
            names.add(str(stem.with_suffix("")) if stem.suffix else str(stem))
    return names


def unpaired(docs: Path, languages: tuple[str, ...] = LANGUAGES) -> list[str]:
    """Pages missing in some language, as ``name: missing in ja`` lines (empty: all paired)."""
    pages = {lang: page_names(docs, lang) for lang in languages}
    every = set().union(*pages.values())
    return [
        f"{name}: missing in {lang}"
        for name in sorted(every)
        for lang in languages
        if name not in pages[lang]
    ]


def on_config(config: Any) -> Any:
    for line in unpaired(Path(config["docs_dir"])):
        log.warning("page in one language only: %s", line)
    return config
