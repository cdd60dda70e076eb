"""The ASGI app for ``uvicorn deckcheck.service.asgi:app`` (settings from the environment).

A bad ``DECKCHECK_*`` value ends the process with its message and exit status 2, as
``deckcheck serve`` does, rather than a traceback from uvicorn's importer."""

import sys

from deckcheck.errors import EXIT_INPUT
from deckcheck.service.app import create_app
from deckcheck.service.settings import SettingsError

try:
    app = create_app()
except SettingsError as exc:
    print(f"deckcheck: {exc}", file=sys.stderr)  # i18n: machine
    raise SystemExit(EXIT_INPUT) from None
