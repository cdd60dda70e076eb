"""The games deckcheck ships, one package each, written against ``deckcheck.sdk`` alone and found
like any other game through the ``deckcheck.games`` entry points (pyproject.toml). The contract
and the registry they plug into are ``deckcheck.plugins``; this package holds nothing else."""
