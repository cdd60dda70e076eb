"""``python -m deckcheck``: the same command as ``deckcheck``."""

from deckcheck.cli import main

main()
