"""The message catalogue: every sentence deckcheck shows a person, in English or Japanese.

gettext through the standard library at run time; Babel builds the catalogue (``make
messages`` extracts and updates ``deckcheck/locale/ja/LC_MESSAGES/deckcheck.po``, the build
compiles it to ``.mo``). English is the source language: a message id *is* the English text.

The language is a context variable, so one service process answers each request in its own
language (a middleware sets it; starlette copies the context into its worker threads), and the
CLI sets it once at start. Work handed to another process (a process pool, a Dask worker)
carries the language with it and runs under :func:`override`.

Marking, for ``pybabel extract`` (the keywords are in ``babel.cfg``):

- ``_("the deck has {n} cards", n=3)``: translate now, then ``str.format`` the named fields
  (given no fields, the text is returned as translated, braces and all);
- ``_n("{n} card", "{n} cards", n, n=n)``: with a plural (Japanese has one form);
- ``_p(game, "main deck")``: a word whose translation depends on the game (``msgctxt`` is
  the game id: each game's own rule words, see ``locale/glossary.toml``);
- ``N_("…")``: marks a constant defined at import time; it is translated where it is shown,
  by ``_(constant)``.
"""

from __future__ import annotations

import gettext
import io
import os
import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path
from typing import Any, Final

DOMAIN: Final = "deckcheck"
LOCALE_DIR: Final = Path(__file__).parent / "locale"
LANGUAGES: Final = ("en", "ja")
DEFAULT: Final = "en"

_current: ContextVar[str] = ContextVar("deckcheck_language", default=DEFAULT)


def _po_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


# Installed games' own catalogues, (locale folder, domain): consulted where deckcheck's has no
# entry (a game's messages, and its words under its id as msgctxt). The registry adds them.
_GAME_CATALOGUES: list[tuple[Path, str]] = []


def add_catalogue(folder: Path, domain: str) -> None:
    """Read ``folder/<lang>/LC_MESSAGES/<domain>.po`` (or its ``.mo``) behind deckcheck's own
    catalogue from now on: an installed game's messages and words (``GameSpec.data``)."""
    if (folder, domain) not in _GAME_CATALOGUES:
        _GAME_CATALOGUES.append((folder, domain))
        translations.cache_clear()


@cache
def translations(lang: str) -> gettext.NullTranslations:
    """The catalogue of ``lang``: the compiled ``.mo`` when it is as new as the ``.po``; else
    the ``.po`` compiled in memory by Babel (a checkout where ``make`` has not run yet); then
    each installed game's, behind it."""
    if lang == DEFAULT or lang not in LANGUAGES:
        return gettext.NullTranslations()
    found = _catalogue(_po_path(lang), lang, DOMAIN)
    for folder, domain in _GAME_CATALOGUES:
        po = folder / lang / "LC_MESSAGES" / f"{domain}.po"
        found.add_fallback(_catalogue(po, lang, domain))
    return found


def _catalogue(po: Path, lang: str, domain: str) -> gettext.NullTranslations:
    """One catalogue: its ``.mo`` when as new as its ``.po``, else the ``.po`` through Babel;
    an empty one when neither is there."""
    mo = po.with_suffix(".mo")
    if mo.is_file() and (not po.is_file() or mo.stat().st_mtime >= po.stat().st_mtime):
        with mo.open("rb") as handle:
            return gettext.GNUTranslations(handle)
    if not po.is_file():
        return gettext.NullTranslations()
    from babel.messages.mofile import write_mo  # deferred: only without a compiled catalogue
    from babel.messages.pofile import read_po

    with po.open("rb") as handle:
        catalog = read_po(handle, locale=lang, domain=domain)
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return gettext.GNUTranslations(buffer)


def current() -> str:
    """The language messages are written in now: ``"en"`` or ``"ja"``."""
    return _current.get()


def activate(lang: str) -> None:
    """Write messages in ``lang`` from now on (in this context)."""
    _current.set(lang if lang in LANGUAGES else DEFAULT)


@contextmanager
def override(lang: str) -> Iterator[None]:
    """Write messages in ``lang`` inside the block only."""
    token = _current.set(lang if lang in LANGUAGES else DEFAULT)
    try:
        yield
    finally:
        _current.reset(token)


def _(message: str, /, **fields: Any) -> str:
    """``message`` in the current language, its ``{fields}`` filled in."""
    text = translations(_current.get()).gettext(message)
    return text.format(**fields) if fields else text


def _n(singular: str, plural: str, n: int, /, **fields: Any) -> str:
    """The form of ``singular``/``plural`` for ``n``, in the current language."""
    text = translations(_current.get()).ngettext(singular, plural, n)
    return text.format(**fields) if fields else text


def _p(context: str, message: str, /, **fields: Any) -> str:
    """``message`` as ``context`` (a game id) words it, in the current language."""
    text = translations(_current.get()).pgettext(context, message)
    return text.format(**fields) if fields else text


def N_(message: str) -> str:
    """Marks ``message`` for the catalogue without translating it (a constant)."""
    return message


def join(items: list[str]) -> str:
    """A list in prose: ``a, b and c`` / ``a、b、c``."""
    if current() == "ja":
        return "、".join(items)
    if len(items) < 2:
        return "".join(items)
    return _("{items} and {last}", items=", ".join(items[:-1]), last=items[-1])


# ``ja``, ``ja_JP.UTF-8``, ``ja-JP``: the language is the part before ``_``, ``-`` or ``.``
_TAG = re.compile(r"^\s*([A-Za-z]{1,8})(?:[-_.@][^;,]*)?\s*$")


def _language_of(tag: str) -> str | None:
    match = _TAG.match(tag)
    if match is None:
        return None
    lang = match.group(1).lower()
    return lang if lang in LANGUAGES else None


def cli_language(flag: str | None, environ: Mapping[str, str] | None = None) -> str:
    """The CLI's language: ``--lang``, then ``DECKCHECK_LANG``, then the POSIX locale
    (``LC_ALL``, ``LC_MESSAGES``, ``LANG``, the first one set, as gettext reads them), else
    English. ``C`` and ``POSIX`` mean English."""
    env = os.environ if environ is None else environ
    for value in (flag, env.get("DECKCHECK_LANG")):
        if value:
            return _language_of(value) or DEFAULT
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name)
        if value:
            return _language_of(value) or DEFAULT
    return DEFAULT


# An Accept-Language header is bounded before it is parsed: a client may send anything.
_HEADER_MAX = 1024


def negotiate(accept_language: str | None, override_lang: str | None = None) -> str:
    """The service's language for a request: ``?lang=`` when it names a language deckcheck
    has, else the best of ``Accept-Language`` (RFC 9110 §12.5.4: q-values, ``*``), else
    English."""
    if override_lang:
        chosen = _language_of(override_lang)
        if chosen is not None:
            return chosen
    if not accept_language:
        return DEFAULT
    best, best_q = DEFAULT, 0.0
    for part in accept_language[:_HEADER_MAX].split(","):
        tag, _sep, params = part.partition(";")
        q = 1.0
        for param in params.split(";"):
            key, _eq, value = param.partition("=")
            if key.strip().lower() == "q":
                try:
                    q = float(value.strip())
                except ValueError:
                    q = 0.0
        if not 0.0 < q <= 1.0:  # q=0 refuses; NaN and out-of-range values count for nothing
            continue
        lang = DEFAULT if tag.strip() == "*" else _language_of(tag)
        if lang is not None and q > best_q:
            best, best_q = lang, q
    return best
