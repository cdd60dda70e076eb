"""The ASGI app for ``uvicorn deckcheck.service.asgi:app`` (settings from the environment)."""

from deckcheck.service.app import create_app

app = create_app()
