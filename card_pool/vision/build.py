"""Build card_pool/vision/cards.csv from the VISION community's card list (JSON).

    python card_pool/vision/build.py CARDS_JSON [--output card_pool/vision/cards.csv]

The input is the JSON array of the public VisionMasterBot repository (2,223 cards: ids
``N1``..``N2000`` and promos ``P1``..``P223``). The output is committed, so deckcheck never
reads the JSON at run time. What the conversion does:

- ``number``: the dataset id (``N31``); a promo named ``PR.008 博麗 霊夢`` is numbered by its
  printed ``PR.008``, named ``博麗 霊夢`` and keeps its id as an alias (decks may use either).
  A numbered card is also known by its number as players write it, ``031`` and ``No.031``
  (aliases: tournament lists write ``3 048 西行妖``).
- ``type``: Character/Spell/Command → character/spell/command.
- ``keywords``: the words of ``skill`` in NFKC (``【デッキ１枚制限】`` → ``デッキ1枚制限``,
  ``Union``, ``抵抗(3)``), brackets dropped; ``-`` alone is no keyword. A count written in kanji
  is one keyword with its digit form (P223's ``【デッキ一枚制限】`` is ``デッキ1枚制限``): the
  glossary names one keyword 「デッキ1枚制限」, whatever width or script the printing used.
- ``upkeep``: 維持コスト, a whole number (キーワード用語集 「維持コスト」).
- ``cost``, ``node``, ``graze``: whole numbers; ``-``, empty and ``X`` (a variable cost) are
  none. ``dash``: ``-`` when 必要ノード and コスト are both printed 「-」, which the online
  edition's rules (カードのプレイ) read as 「プレイする事ができません」: kept apart from "none"
  (which the engines read as 0) so the card is never played by paying for it. ``attack``/``toughness`` stay text as printed (a spell's modifier ``+3``, ``X``).
- ``user`` (術者), ``class`` (種族), ``link`` (【連結…】) in NFKC, so searches match any width;
  a 術者 ending in a stray ``?`` or ``？`` (N1647's 「ミスティア・ローレライ?」, a typing slip in the
  source list) loses it, and the build stops unless every 術者 names a character of the list
  (a 術者 no character carries would never make its spell free);
  ``package``: the sets, ``;``-joined.
"""

from __future__ import annotations

import argparse
import csv
import json
import re
import sys
import unicodedata
from collections.abc import Iterable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
PROVENANCE = (
    "converted from a fan-maintained card list distributed by the VISION community (JSON form "
    "in the public VisionMasterBot repository); facts only, no licence stated"
)
COLUMNS = (
    "game",
    "number",
    "name",
    "type",
    "aliases",
    "keywords",
    "cost",
    "node",
    "graze",
    "attack",
    "toughness",
    "user",
    "class",
    "package",
    "link",
    "upkeep",
    "dash",
    "source",
)
TYPES = {"Character": "character", "Spell": "spell", "Command": "command"}
_PROMO = re.compile(r"^PR\.(?P<no>\d+)\s+(?P<name>.+)$")
_WORD = re.compile(r"【[^】]*】|[^\s【]+")  # 【…】 may hold spaces, and may follow a word directly
_NONE = frozenset(("", "-"))
# a count in kanji before 枚 (デッキ一枚制限, ターン一枚制限): the same keyword as its digit form
_KANJI_COUNT = re.compile(r"([一二三四五六七八九])(?=枚)")
_KANJI_DIGITS = {k: str(i) for i, k in enumerate("一二三四五六七八九", start=1)}


def nfkc(value: object) -> str:
    return unicodedata.normalize("NFKC", str(value)).strip()


def whole(value: object) -> str:
    """A whole number as text, or '' for none ('-', empty, a variable 'X')."""
    text = nfkc(value)
    return text if re.fullmatch(r"[+-]?\d+", text) else ""


def printed(value: object) -> str:
    text = nfkc(value)
    return "" if text in _NONE else text


def keyword(word: str) -> str:
    """One keyword as the glossary writes it: NFKC, no brackets, a kanji count as a digit."""
    return _KANJI_COUNT.sub(lambda m: _KANJI_DIGITS[m[1]], nfkc(word).strip("【】"))


def keywords(skill: str) -> list[str]:
    words = (keyword(w) for w in _WORD.findall(nfkc(skill)))
    return [w for w in words if w not in _NONE]


def user(value: object) -> str:
    """The 術者, without a stray trailing '?' of the source (N1647)."""
    return printed(value).rstrip("?")


def dash(card: dict[str, Any]) -> str:
    """'-' when 必要ノード and コスト are both printed '-' (the card cannot be played)."""
    node, cost = nfkc(card["node"]) == "-", nfkc(card["cost"]) == "-"
    if node != cost:
        raise ValueError(f"{card['id']}: only one of 必要ノード and コスト is '-'")
    return "-" if node else ""


def check_users(rows: list[dict[str, str]]) -> None:
    """Every 術者 names a character of the list: a character whose name contains it."""
    names = [nfkc(r["name"]) for r in rows if r["type"] == "character"]
    for row in rows:
        if row["user"] and not any(row["user"] in name for name in names):
            raise ValueError(f"{row['number']}: 術者 {row['user']!r} names no character")


def convert(card: dict[str, Any]) -> dict[str, str]:
    name = str(card["name"]).strip()
    number, aliases = str(card["id"]), ""
    if card["prefix"] == "N":
        aliases = f"{int(card['no']):03d};No.{int(card['no']):03d}"
    promo = _PROMO.match(name)
    if card["prefix"] == "P" and promo:
        number, name, aliases = f"PR.{promo['no']}", promo["name"].strip(), number
    note = ""
    if user(card["user"]) != printed(card["user"]):
        note = f"; 術者 {printed(card['user'])!r} as listed, the stray '?' dropped"
    for word in keywords(str(card["skill"])):
        if ";" in word:
            raise ValueError(f"{card['id']}: keyword {word!r} holds the list separator ';'")
    return {
        "game": "vision",
        "number": number,
        "name": name,
        "type": TYPES[card["type"]],
        "aliases": aliases,
        "keywords": ";".join(keywords(str(card["skill"]))),
        "cost": whole(card["cost"]),
        "node": whole(card["node"]),
        "graze": whole(card["graze"]),
        "attack": printed(card["attack"]),
        "toughness": printed(card["toughness"]),
        "user": user(card["user"]),
        "class": printed(card["class"]),
        "package": ";".join(nfkc(p) for p in card["package"]),
        "link": printed(card["link"]),
        "upkeep": whole(card.get("upkeep", "")),
        "dash": dash(card),
        "source": f"VISION community card list, id {card['id']}" + note,
    }


def write(cards: Iterable[dict[str, Any]], output: Path) -> int:
    rows = [convert(c) for c in sorted(cards, key=lambda c: (c["prefix"] != "N", int(c["no"])))]
    check_users(rows)
    with output.open("w", encoding="utf-8", newline="") as handle:
        handle.write(f"# 東方 Phantom Magic VISION: {len(rows)} cards, {PROVENANCE}.\n")
        handle.write("# Made by card_pool/vision/build.py; edit that, not this file.\n")
        writer = csv.DictWriter(handle, COLUMNS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    return len(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("source", type=Path, help="the card list (a JSON array)")
    parser.add_argument("--output", type=Path, default=HERE / "cards.csv")
    args = parser.parse_args(argv)
    cards = json.loads(args.source.read_text(encoding="utf-8"))
    count = write(cards, args.output)
    print(f"wrote {count} cards to {args.output}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
