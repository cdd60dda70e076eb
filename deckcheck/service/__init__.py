"""The HTTP service (FastAPI): ``deckcheck serve``."""
