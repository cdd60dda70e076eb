"""Kite Duel held to deckcheck's conformance suite: collected from the SDK's ``Conformance``."""

from deckcheck.sdk.testing import Conformance


class TestKite(Conformance):
    game = "kite"
    turns = 12
