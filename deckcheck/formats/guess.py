"""The format of a deck list that names none (no ``format:`` line, no ``--format``), as lists
copied from a blog or a chat come: the only format of the one game whose cards the list names.
deckcheck's reading, outside the rulebooks; a game with several formats is never guessed, and
the message names its formats instead."""

from __future__ import annotations

from dataclasses import dataclass

from deckcheck import plugins
from deckcheck.formats.registry import FormatRegistry
from deckcheck.i18n import _
from deckcheck.models import DeckList, Game
from deckcheck.resolve import CardIndex
from deckcheck.wording import word


@dataclass(frozen=True)
class Guess:
    game: Game | None  # the one game whose cards the list names, if one
    formats: list[str]  # that game's formats (every format when no game stands out)

    @property
    def format(self) -> str | None:
        """The format to read the list in: the game's only one, else None."""
        return self.formats[0] if self.game is not None and len(self.formats) == 1 else None

    def missing(self, path: object) -> str:
        """The message for a list at ``path`` whose format is named nowhere and not guessed."""
        return _("{path}: no format: line and no --format ({hint})", path=path, hint=self.hint())

    def hint(self) -> str:
        """How to name the format, for the message that says none was named."""
        if self.game is None:
            return _("known formats: {known}", known=", ".join(self.formats))
        return _(
            "its cards are {game} cards: add a line 'format: ID' or give --format ID, one of "
            "{known}",
            game=word(self.game, self.game),
            known=", ".join(self.formats),
        )

    def assumption(self) -> str:
        """What a report says when its format was guessed."""
        game = self.game or ""
        return _(
            "format {id}: the list names no format, and every card found is a {game} card, "
            "whose only format this is (deckcheck's reading; a format: line or --format "
            "chooses)",
            id=self.format,
            game=word(game, game),
        )


def guess(deck: DeckList, registry: FormatRegistry, index: CardIndex) -> Guess:
    """The game of the cards ``deck`` names that ``index`` finds, and its formats."""
    games = {
        game for entry in deck.entries for game in plugins.ids() if _found(index, game, entry.ref)
    }
    if len(games) != 1:
        return Guess(None, registry.ids())
    (game,) = games
    return Guess(game, [fmt.id for fmt in registry.all() if fmt.game == game])


def _found(index: CardIndex, game: Game, ref: str) -> bool:
    hit = index.found(game, ref)
    return hit.card is not None or bool(hit.ambiguous)
