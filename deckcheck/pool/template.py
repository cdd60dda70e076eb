"""``deckcheck pool template GAME``: an empty card file for a community to fill in, with one
``#`` line explaining each column (the importer skips ``#`` lines at the top of a CSV file)."""

from __future__ import annotations

import csv
import io

from deckcheck import plugins
from deckcheck.data import card_pool_dir
from deckcheck.i18n import N_, _, _p
from deckcheck.pool.columns import COLUMNS, Column, game_columns
from deckcheck.wording import label

# What to write in each shared column; a game's own columns say it in their spec, and the types
# line is filled in from the game's spec.
HELP: dict[str, str] = {
    "game": N_("the game id, the same on every row: {game}"),
    "number": N_("the printed card number, unique within the game (SET-001, PR.008)"),
    "name": N_("the card name as printed, without the set or rarity"),
    "type": N_("one of: {types}"),
    "kind": N_("a sub-kind the rules name{kinds}, else empty"),
    "keywords": N_("keywords and limits the rules read, ';' between them (デッキ1枚制限;速攻)"),
    "level": N_("level, a whole number"),
    "cost": N_("cost, a whole number; empty: none"),
    "rarity": N_("rarity as printed"),
    "source": N_("where the row comes from (a set list, a site): say it, so others can check"),
    "aliases": N_("other numbers a deck may use for the card, ';' between them"),
}


# The searchable shared columns as a person reads their name (the labels of their search
# filters, in the language), by ``Card`` field.
COLUMN_WORDS: dict[str, str] = {
    "type": N_("card type"),
    "kind": N_("a card's kind"),
    "keywords": N_("keywords"),
    "level": N_("level"),
    "cost": N_("cost"),
}


def used_columns(game: str) -> list[str]:
    """The shared columns the game's shipped cards fill in or its spec offers as filters, in
    model order, the required ones always; then every column of the game's own."""
    spec = plugins.get(game)
    used = {c.name for c in COLUMNS if c.required} | set(spec.cards.search_fields)
    # the shipped cards of the game, and a plugin's own (GameSpec.data: its rows of this game)
    folders = [card_pool_dir() / game, *([spec.data / "cards"] if spec.data else [])]
    for path in sorted(p for f in folders if f.is_dir() for p in f.glob("*.csv")):
        with path.open(encoding="utf-8", newline="") as f:
            rows = csv.DictReader(line for line in f if not line.startswith("#"))
            for row in rows:
                if row.get("game", game) == game:
                    used |= {k for k, v in row.items() if k and v}
    shared = [c.name for c in COLUMNS if c.name in used or _filter_name(c) in used]
    return shared + list(game_columns(game))


def _filter_name(column: Column) -> str | None:
    return column.search.option_for(column.field) if column.search else None


def template(game: str) -> str:
    spec = plugins.get(game)
    own = game_columns(game)
    types = ", ".join(f"{t} ({'/'.join(w)})" if w else t for t, w in spec.cards.card_types.items())
    kinds = f" ({', '.join(spec.cards.kinds)})" if spec.cards.kinds else ""
    shared = {c.name: c for c in COLUMNS}
    lines = [
        "# "
        + _(
            "{game} card list for deckcheck: one card a row, after the header.",
            game=spec.words.name,
        )
    ]
    for name in used_columns(game):
        if name in own:
            text, required, column_type = label(game, own[name].description), False, own[name].type
        else:
            text = _(HELP[name], game=spec.id, types=types, kinds=kinds) if name in HELP else name
            required, column_type = shared[name].required, shared[name].type
        form = _(" (a list)") if column_type == "list" else ""
        need = _p("column", "required") if required else _p("column", "optional")
        lines.append(
            "# " + _("{name}: {text}{form}; {need}", name=name, text=text, form=form, need=need)
        )
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerow(used_columns(game))
    return "\n".join(lines) + "\n" + out.getvalue()
