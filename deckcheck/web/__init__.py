"""The deck builder page at ``/``: a Jinja2 template and JavaScript ES modules.

Every rule comes from the service's endpoints (``/validate``, ``/hand``, ``/odds``); the page
only edits a list of cards and shows what the service answers. The route is
``deckcheck.service.routers.web``; this package holds the files it serves.

Its words are catalogue entries like the rest of deckcheck's: the template's through
``{{ _("…") }}``, the scripts' through their ``_("…")``/``_n("…", "…", n)`` helpers, which read
the entries of the page's language from a JSON object the page carries (``messages``).
"""

from __future__ import annotations

import hashlib
import json
import re
from functools import cache
from pathlib import Path

from markupsafe import Markup, escape

from deckcheck.i18n import LANGUAGES, translations

HERE = Path(__file__).resolve().parent
TEMPLATES = HERE / "templates"
STATIC = HERE / "static"
ENTRY = "builder.js"  # the module that starts the page; it imports the others
# The scripts bundled into one file (``make`` runs esbuild; git ignores it, wheels carry it): one
# request instead of one a module (the Makefile says what that saves).
BUNDLE = Path("bundle") / ENTRY


def sources_digest(static: Path = STATIC) -> str:
    """A digest of the page's scripts (names and bytes): which sources a bundle was built from."""
    digest = hashlib.sha256()
    for path in sorted(static.glob("*.js")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def banner(static: Path = STATIC) -> str:
    """The first line of a bundle built from the scripts now in ``static`` (``make`` writes it)."""
    return f"// deckcheck page bundle of sources {sources_digest(static)}"


def entry_script(static: Path = STATIC) -> str:
    """The URL path of the page's one script: the bundle when it was built from the scripts as
    they are now, else the entry module, which loads the others itself (a checkout where
    ``make`` has not run, or a script edited since: never a stale bundle). Worked out at each
    page request, about 1 ms: a running server notices an edit too."""
    try:
        with (static / BUNDLE).open(encoding="utf-8") as bundle:
            first = bundle.readline().rstrip("\n")
    except OSError:
        first = ""
    chosen = BUNDLE if first == banner(static) else Path(ENTRY)
    return f"/static/{chosen.as_posix()}"


# A double-quoted JavaScript string literal, and the calls the scripts mark their words with
# (the same calls Babel's javascript extractor reads, see babel.cfg).
_STRING = r'"((?:[^"\\\n]|\\.)*)"'
_CALL = re.compile(r"(?<![\w$.])_\(\s*" + _STRING)
_PLURAL = re.compile(r"(?<![\w$.])_n\(\s*" + _STRING + r"\s*,\s*" + _STRING)


@cache
def script_ids() -> tuple[tuple[str, ...], tuple[tuple[str, str], ...]]:
    """The message ids the scripts use: ``_()``'s, and ``_n()``'s (singular, plural)."""
    singles: dict[str, None] = {}
    plurals: dict[tuple[str, str], None] = {}
    for path in sorted(STATIC.glob("*.js")):
        source = path.read_text(encoding="utf-8")
        for match in _CALL.finditer(source):
            singles[json.loads(f'"{match.group(1)}"')] = None
        for match in _PLURAL.finditer(source):
            one, many = (json.loads(f'"{g}"') for g in match.groups())
            plurals[(one, many)] = None
    return tuple(singles), tuple(plurals)


@cache
def script_messages(lang: str) -> dict[str, str]:
    """The scripts' words in ``lang``, keyed by message id (a plural by its singular: the
    languages deckcheck has besides English have one form). Empty for English."""
    if lang not in LANGUAGES:
        return {}
    catalogue = translations(lang)
    singles, plurals = script_ids()
    out = {m: catalogue.gettext(m) for m in singles}
    out.update({one: catalogue.ngettext(one, many, 1) for one, many in plurals})
    return {k: v for k, v in out.items() if v != k}


def keys(text: str, **names: str) -> Markup:
    """``text`` (escaped) with each ``{field}`` shown as the key it names (``<kbd>``)."""
    fields = {k: Markup("<kbd>{}</kbd>").format(v) for k, v in names.items()}
    return Markup(escape(text)).format(**fields)
