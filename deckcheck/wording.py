"""English wording shared by deckcheck's messages."""

from __future__ import annotations

# words spelt with a vowel letter that sound as "you" or "won" take "a" (a unit, a user)
_CONSONANT_SOUND = ("uni", "use", "usu", "uti", "eu", "one")


def a_an(word: str) -> str:
    """``word`` after its indefinite article: "an event", "a card", "an int", "a unit"."""
    low = word.casefold()
    vowel = low[:1] in {"a", "e", "i", "o", "u"} and not low.startswith(_CONSONANT_SOUND)
    return f"{'an' if vowel else 'a'} {word}"
