# deckcheck's conformance suite and its fixtures, as a pytest plugin (deckcheck.sdk.testing).
pytest_plugins = ["deckcheck.sdk.testing"]
