"""``deckcheck pool template GAME``: an empty card file for a community to fill in, with one
``#`` line explaining each column (the importer skips ``#`` lines at the top of a CSV file)."""

from __future__ import annotations

import csv
import io

from deckcheck import games
from deckcheck.data import card_pool_dir
from deckcheck.pool.columns import COLUMNS, Kind

# What to write in each column; the types line is filled in from the game's spec.
HELP: dict[str, str] = {
    "game": "the game id, the same on every row: {game}",
    "number": "the printed card number, unique within the game (SET-001, PR.008)",
    "name": "the card name as printed, without the set or rarity",
    "type": "one of: {types}",
    "kind": "a sub-kind the rules name (定理者, 合理体 …), else empty",
    "title": "the work (作品名) a card belongs to",
    "os": "the OS printed on the card (OS:ニトロプラス); empty: found from the title",
    "append": "append words, ';' between them (BETA;はるかさん)",
    "keywords": "keywords and limits the rules read, ';' between them (デッキ1枚制限;速攻)",
    "gate_number": "a gate card's number (1-8)",
    "level": "level, a whole number",
    "cost": "cost, a whole number; empty: none",
    "power": "power, a whole number",
    "color": "colour as printed",
    "world": "world as printed",
    "hp": "HP, a whole number",
    "territory": "circles a member occupies (1, 2 or 4)",
    "rarity": "rarity as printed",
    "extra_cost": "an extra cost as printed",
    "source": "where the row comes from (a set list, a site): say it, so others can check",
    "aliases": "other numbers a deck may use for the card, ';' between them",
    "user": "術者: the character a spell belongs to",
    "class": "種族 as printed",
    "node": "必要ノード, a whole number",
    "graze": "グレイズ, a whole number",
    "attack": "攻撃力 as printed (a spell's modifier: +3)",
    "toughness": "耐久力 as printed",
    "package": "the sets the card was printed in, ';' between them",
    "link": "a Union card's 【連結(…)】 text as printed",
    "upkeep": "an upkeep cost paid each turn, a whole number",
}


def used_columns(game: str) -> list[str]:
    """The columns the game's shipped cards fill in, and its search fields, in model order;
    the required columns always."""
    spec = games.get(game)
    used = {c.name for c in COLUMNS if c.required} | set(spec.search_fields)
    folder = card_pool_dir() / game
    for path in sorted(folder.glob("*.csv")) if folder.is_dir() else ():
        with path.open(encoding="utf-8", newline="") as f:
            rows = csv.DictReader(line for line in f if not line.startswith("#"))
            for row in rows:
                used |= {k for k, v in row.items() if k and v}
    return [c.name for c in COLUMNS if c.name in used or c.field in used]


def template(game: str) -> str:
    spec = games.get(game)
    columns = used_columns(game)
    types = ", ".join(f"{t} ({'/'.join(w)})" if w else t for t, w in spec.card_types.items())
    kinds = {c.name: c for c in COLUMNS}
    lines = [f"# {spec.name} card list for deckcheck: one card a row, after the header."]
    for name in columns:
        text = HELP.get(name, name).format(game=spec.id, types=types)
        need = "required" if kinds[name].required else "optional"
        form = " (a list)" if kinds[name].kind is Kind.LIST else ""
        lines.append(f"# {name}: {text}{form}; {need}")
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerow(columns)
    return "\n".join(lines) + "\n" + out.getvalue()
