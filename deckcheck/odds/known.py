"""Conditions name real cards: a ``--want`` atom naming a card, keyword, title, OS or other
value no card of the game has is an error with the suggestions ``validate`` gives, not a
condition that silently matches nothing (issue 23: a misspelt card name printed 0.00%).

deckcheck's reading, outside the rulebooks. Comparisons (``cost<=2``) and types (checked when
parsed) are not looked up; a card is known when the index resolves it (a number or a name the
pool holds), so a card the deck does not hold may still be asked about.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from deckcheck.i18n import _
from deckcheck.models import Game
from deckcheck.normalize import nfkc, word_key
from deckcheck.odds.conditions import Atom, Condition, ConditionError
from deckcheck.plugins import name_key
from deckcheck.pool.vocabulary import column_values
from deckcheck.resolve import CardIndex
from deckcheck.suggest import NameIndex
from deckcheck.text import as_written


def check_known(conditions: Iterable[Condition], game: Game, index: CardIndex) -> None:
    """Raises ``ConditionError`` for the first atom naming what no card of ``game`` has."""
    check_atoms(_atoms(conditions), game, index)


def check_atoms(atoms: Iterable[Atom], game: Game, index: CardIndex) -> None:
    """``check_known`` for selector atoms (a policy's ``play_first``, say)."""
    for atom in _looked_up(atoms):
        _check(atom, game, index)


def _check(atom: Atom, game: Game, index: CardIndex) -> None:
    if atom.field in ("name", "number"):
        if _names(atom.value, atom.field, game, index):
            return
        alias = atom.alias  # 「大妖精を2枚以上」: the name without its particle
        if alias is not None and _names(alias, "name", game, index):
            return
        _refuse(atom, game, index.resolve(game, atom.value).suggestions)
    values = column_values(index, game, atom.field, _items(atom))
    key = _key_of(atom)
    keyed = {key(v): v for v in values}
    if key(atom.value) not in keyed:
        _refuse(atom, game, NameIndex(keyed).close(key(atom.value)))


def _names(value: str, field: str, game: Game, index: CardIndex) -> bool:
    """Whether ``value`` names a card of ``game`` (``found``: no suggestions looked for)."""
    found = index.found(game, value)
    if found.card is not None or found.ambiguous:
        return True
    return field == "name" and name_key(game, value) in index.names(game)


def _items(atom: Atom) -> bool:
    """Whether the atom's column is a list, matched item by item (keywords too)."""
    return atom.field == "keyword" or (atom.column is not None and atom.column.type == "list")


def checked_part(
    conditions: Iterable[Condition], game: Game, whole: CardIndex, refs: Iterable[str]
) -> CardIndex:
    """``whole.subset(game, refs)`` for a worker process that will ask ``conditions``: they
    are checked here against the whole pool (``check_known``, with its suggestions), the
    cards they name join the subset, and the column values they look up go with it, so the
    worker's own check finds every card of the pool, not only the deck's (the service's
    ``/odds`` once refused ``name:`` of any card its deck did not hold)."""
    conditions = list(conditions)
    check_known(conditions, game, whole)
    for atom in _looked_up(_atoms(conditions)):
        if atom.field not in ("name", "number"):
            column_values(whole, game, atom.field, _items(atom))  # now in whole.values
    return whole.subset(game, [*refs, *named_refs(conditions)])


def named_refs(conditions: Iterable[Condition]) -> list[str]:
    """The cards the conditions name (``name:`` and ``number:`` values): an index that holds
    only a deck's cards needs these too."""
    return atom_refs(_atoms(conditions))


def atom_refs(atoms: Iterable[Atom]) -> list[str]:
    """``named_refs`` of selector atoms."""
    names = [a for a in _looked_up(atoms) if a.field in ("name", "number")]
    return [v for a in names for v in (a.value, a.alias) if v is not None]


def _atoms(conditions: Iterable[Condition]) -> list[Atom]:
    return [a for c in conditions for a in c.atoms]


def _looked_up(atoms: Iterable[Atom]) -> list[Atom]:
    """The atoms ``check_known`` looks up (not comparisons, not types)."""
    return [a for a in atoms if a.op is None and a.field != "type"]


def _key_of(atom: Atom) -> Callable[[str], str]:
    """How the atom compares a value (``Atom.matches``): a keyed column by its key, a list
    column and keywords by item, else any width or case."""
    column = atom.column
    if column is not None and column.key is not None:
        return column.key
    if atom.field == "keyword" or (column is not None and column.type == "list"):
        return word_key
    return lambda text: nfkc(text).casefold()


def _refuse(atom: Atom, game: Game, suggestions: list[str]) -> None:
    if suggestions:
        raise ConditionError(
            _(
                "{text}: no {game} card has {value} (did you mean {names}?)",
                text=as_written(atom.text),
                game=game,
                value=as_written(atom.value),
                names=" / ".join(as_written(s) for s in suggestions),
            )
        )
    raise ConditionError(
        _(
            "{text}: no {game} card has {value}",
            text=as_written(atom.text),
            game=game,
            value=as_written(atom.value),
        )
    )
