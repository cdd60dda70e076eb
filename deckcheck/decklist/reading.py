"""Deck lists as text and JSON: parse (never raising on bad content; CSV: tabular.py).

Text form::

    format: some-standard
    date: 2016-06-01        # optional: the day whose format version applies (else today)
    player: 山田 太郎        # optional, as organisers collect them (also プレイヤー名：)
    name: 霊夢ビート          # optional: the deck's name (also デッキ名：)
    # a comment
    [main]
    4 SAMPLE-X-001
    4x 見本カード          # count, optional x, then a card number or name
    [side]
    2 SAMPLE-X-S01

Cards before any header are main. Problems become ``deck/syntax`` violations naming their line,
so one bad line never hides the rest of the deck."""

from __future__ import annotations

import datetime
import json
import re
from dataclasses import dataclass, field
from typing import Any

from deckcheck.decklist.headers import MAX_META, META_WORDS, header_word, section_name, take_meta
from deckcheck.decklist.lines import (
    BULLETS,
    bare_count,
    card_line,
    heading,
    total_line,
    without_bullet,
)
from deckcheck.decklist.parts import (
    MAX_COUNT,
    card_hint,
    clip,
    merge_repeats,
    read_day,
    syntax,
    without_long_refs,
)
from deckcheck.decklist.tabular import looks_like_csv, parse_csv
from deckcheck.i18n import _
from deckcheck.models import DeckEntry, DeckList, Violation
from deckcheck.text import lone_surrogate, quote, without_surrogate_lines

_FORMAT = re.compile(r"^format\s*[:：=]\s*(?P<id>\S.*?)$", re.IGNORECASE)
_DATE = re.compile(r"^date\s*[:：=]\s*(?P<day>\S.*?)$", re.IGNORECASE)
_SAMPLES = re.compile(r"^samples\s*[:：=]\s*(?P<value>\S.*?)$", re.IGNORECASE)
_YES = {"yes": True, "true": True, "on": True, "1": True}
_YES.update(dict.fromkeys(("no", "false", "off", "0"), False))
_X = "xX×ｘＸ"
_CARD = re.compile(
    rf"^(?P<count>[+-]?\d+)"
    # 4 x REF, 4x REF, 4 REF, 4,REF, 4枚 REF
    rf"(?:\s*[{_X}](?=\s)\s*|[{_X}](?=\S)|[,，、]\s*|\s*枚\s*|\s+)"
    r"(?P<ref>\S.*)$"
)
# A comment: # or // after a space, or a player's note (3 大妖精 ←初動, ※…): no name holds one
_COMMENT = re.compile(r"(?:^|\s)(?:#|//).*$|[←※].*$")


@dataclass
class _Reading:
    """What ``parse_text`` has read so far, but the cards: the section a card line goes to,
    the header lines' values, and the problems."""

    section: str = "main"
    unknown_section: bool = False  # cards below an unknown header are reported, not counted
    fmt: str | None = None
    day: datetime.date | None = None
    samples: bool = False
    problems: list[Violation] = field(default_factory=list)
    section_lines: dict[str, int] = field(default_factory=dict)
    quoted: list[int] = field(default_factory=list)  # problems that quote a line

    @property
    def card_section(self) -> str | None:
        """The section a problem of a card line names (none under an unknown header)."""
        return None if self.unknown_section else self.section

    def header(self, line: str, header: str, number: int) -> None:
        """A ``[...]`` line: a section, a card type's group, or an unknown section."""
        name = section_name(header)
        if name is None and heading(line) is not None:  # [TYPE]: a card type's group
            return
        self.unknown_section = name is None
        if name is None:
            self.quoted.append(len(self.problems))
            self.problems.append(
                syntax(
                    _("unknown section [{header}]", header=clip(header)),
                    number,
                    _("use one of [main], [extra], [gate], [side]"),
                )
            )
        else:
            self.section = name
            self.section_lines.setdefault(name, number)

    def directive(self, line: str, number: int) -> bool:
        """A format:, date: or samples: line, or a heading; False for anything else."""
        if (m := _FORMAT.match(line)) is not None:
            if self.fmt is not None and self.fmt != m["id"]:
                self.problems.append(
                    syntax(
                        _(
                            "second format line names {new}, the first named {old}",
                            new=quote(m["id"]),
                            old=quote(self.fmt),
                        ),
                        number,
                        _("keep one format: line"),
                    )
                )
            else:
                self.fmt = m["id"]
        elif (m := _DATE.match(line)) is not None:
            found, problem = read_day(m["day"], self.day, number)
            self.day = found or self.day
            if problem is not None:
                self.problems.append(problem)
        elif (m := _SAMPLES.match(line)) is not None:
            allowed = _YES.get(m["value"].casefold())
            if allowed is None:
                self.problems.append(
                    syntax(
                        _("samples line: {value} is not yes or no", value=quote(m["value"])),
                        number,
                        _("write samples: yes (the list names the shipped sample cards)"),
                    )
                )
            self.samples = bool(allowed)
        elif (head := heading(line)) is not None:  # TYPE, 【SECTION】, ■TYPE 6
            if head.section is not None:
                self.section, self.unknown_section = head.section, False
                self.section_lines.setdefault(head.section, number)
        elif not total_line(line):  # 合計50枚: the list's total, left aside
            return False
        return True

    def not_a_card(self, line: str, number: int) -> None:
        self.quoted.append(len(self.problems))
        self.problems.append(
            syntax(
                _("not a card line: {line}", line=quote(clip(line))),
                number,
                card_hint(None),
                section=self.card_section,
            )
        )

    def bad_count(self, written: str, number: int) -> None:
        self.problems.append(
            syntax(
                _(
                    "count {count} is not a whole number from 1 to {most}",
                    count=clip(written, 20),
                    most=MAX_COUNT,
                ),
                number,
                _("write a positive count"),
                section=self.card_section,
            )
        )


def parse_text(text: str, path: str | None = None) -> DeckList:
    r = _Reading()
    first_line: int | None = None
    seen: dict[tuple[str, str], list[int]] = {}  # (section, ref) → [count, first line]
    bare: dict[int, str] = {}  # NAME 3 lines (``DeckList.bare``)
    card_match = _CARD.match
    notes = "←" in text or "※" in text or "//" in text  # rare: looked for once, not a line
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        if "#" in line or (notes and ("←" in line or "※" in line or "//" in line)):
            line = _COMMENT.sub("", line).strip()
        if line[:1] == "\ufeff":
            line = line[1:].strip()
        if not line:
            continue
        if line[0] in BULLETS:  # ・チルノ ×3, - 3 チルノ
            line = without_bullet(line)
        if first_line is None:
            first_line = number
        first = line[0]
        m = card_match(line) if first.isdigit() or first in "+-" else None  # the common case
        if m is not None:
            written, ref = m["count"], m["ref"]
        elif first == "[" and (header := header_word(line)) is not None:
            r.header(line, header, number)
            continue
        elif r.directive(line, number):
            continue
        elif (form := card_line(line)) is not None:  # NAME ×3, ×3 NAME, 3枚 NAME
            written, ref = form
        elif (form := bare_count(line)) is not None and int(form.written) > 0:
            written, ref = form  # NAME 3: the validator decides (``DeckList.bare``)
            bare[number] = line
        else:
            r.not_a_card(line, number)
            continue
        # int() of thousands of digits is slow, and over 4,300 a ValueError
        count = int(written) if len(written) <= 12 else 0
        if not 0 < count <= MAX_COUNT:
            r.bad_count(written, number)
            continue
        if r.unknown_section:
            continue
        key = (r.section, ref)
        tally = seen.get(key)
        if tally is not None:  # repeated cards add up; the first line stays
            tally[0] += count
            if bare.pop(number, None) is None:  # a plain line names it: a card line, read so
                bare.pop(tally[1], None)
        else:
            seen[key] = [count, number]
    if not seen and not r.section_lines and r.fmt is None:
        # Not a deck list at all (a key file, say): echo none of its text.
        for i in r.quoted:
            r.problems[i] = r.problems[i].model_copy(
                update={"message": _("not a card line (the file has no deck line to show)")}
            )
    # Every field is built here from checked values: construct without re-validating.
    return DeckList.model_construct(
        path=path,
        format=r.fmt,
        date=r.day,
        samples=r.samples,
        entries=[DeckEntry(s, n, ref, line) for (s, ref), (n, line) in seen.items()],
        problems=r.problems,
        section_lines=r.section_lines,
        first_line=first_line,
        bare=bare,
    )


_CARD_KEY = re.compile(r'"card"\s*:\s*')


def parse_json(text: str, path: str | None = None) -> DeckList:
    """The JSON form: ``{"format": ID, "date": "YYYY-MM-DD", "main": [{"count": 4, "card":
    REF}], ...}`` (``date`` optional)."""
    deck = DeckList(path=path, first_line=1)
    try:
        data: Any = json.loads(text)
    except (ValueError, RecursionError) as exc:
        deck.problems.append(
            syntax(
                _("not valid JSON: {error}", error=exc),
                getattr(exc, "lineno", 1),
                _("fix the JSON syntax"),
            )
        )
        return deck
    if not isinstance(data, dict):
        deck.problems.append(
            syntax(_("a JSON deck must be an object"), 1, _('use {"main": [...]}'))
        )
        return deck
    _json_header(data, deck)
    # Lines of the entries, in document order: the n-th "card" key is the n-th entry.
    card_lines = [text.count("\n", 0, m.start()) + 1 for m in _CARD_KEY.finditer(text)]
    index = 0
    for key, value in data.items():
        if key in ("format", "date", "samples", *META_WORDS.values()):
            continue
        section = section_name(key) if isinstance(key, str) else None
        if section is None:
            deck.problems.append(
                syntax(
                    _("unknown key {key}", key=quote(str(key))),
                    1,
                    _("use format, date, samples, player, name, main, extra, gate, side"),
                )
            )
            continue
        if not isinstance(value, list):
            deck.problems.append(
                syntax(_("{key} must be a list", key=key), 1, _("write {key}: [...]", key=key))
            )
            continue
        for position, item in enumerate(value):
            line = card_lines[index] if index < len(card_lines) else None
            if isinstance(item, dict) and "card" in item:
                index += 1
            entry = _json_entry(f"{key}[{position}]", item, section, line, deck.problems)
            if entry is not None:
                deck.entries.append(entry)
    return merge_repeats(deck)


def _json_header(data: dict[str, Any], deck: DeckList) -> None:
    """The JSON deck's format, date, player, name and samples into ``deck``."""
    fmt = data.get("format")
    if fmt is not None:
        if isinstance(fmt, str) and fmt.strip():
            deck.format = fmt.strip()
        else:
            deck.problems.append(syntax(_("format must be a format id string"), 1, _("fix format")))
    if "date" in data:
        day = data["date"]
        if isinstance(day, str):
            deck.date, problem = read_day(day, None, 1)
        else:
            problem = syntax(_("date must be a string YYYY-MM-DD"), 1, _("fix date"))
        if problem is not None:
            deck.problems.append(problem)
    for key in ("player", "name"):  # what organisers collect, as the text form's header lines
        value = data.get(key)
        if isinstance(value, str):
            setattr(deck, key, value.strip()[:MAX_META] or None)
        elif value is not None:
            deck.problems.append(
                syntax(_("{key} must be a string", key=key), 1, _("fix {key}", key=key))
            )
    samples = data.get("samples", False)
    if isinstance(samples, bool):
        deck.samples = samples
    else:
        deck.problems.append(syntax(_("samples must be true or false"), 1, _("fix samples")))


def _json_entry(
    where: str, item: object, section: str, line: int | None, problems: list[Violation]
) -> DeckEntry | None:
    """One item of a JSON section list, or None with its problem added to ``problems``."""
    if not isinstance(item, dict):
        problems.append(
            syntax(
                _("{where} must be an object", where=where),
                line,
                '{"count": N, "card": REF}',  # i18n: machine
            )
        )
        return None
    count, ref = item.get("count", 1), item.get("card")
    if not isinstance(ref, str | int) or isinstance(ref, bool) or not str(ref).strip():
        problems.append(
            syntax(
                _("{where}.card must be a card number or name", where=where),
                line,
                _("set card"),
            )
        )
        return None
    if isinstance(ref, str) and (what := lone_surrogate(ref)) is not None:
        problems.append(_not_unicode(f"{where}.card", what, line))
        return None
    if isinstance(count, bool) or not isinstance(count, int) or not 0 < count <= MAX_COUNT:
        problems.append(
            syntax(
                _(
                    "{where}.count must be a whole number from 1 to {most}",
                    where=where,
                    most=MAX_COUNT,
                ),
                line,
                _("write a positive count"),
                section=section,
            )
        )
        return None
    return DeckEntry(section=section, count=count, ref=str(ref).strip(), line=line)


def looks_like_json(text: str) -> bool:
    return text.lstrip("\ufeff \t\r\n").startswith("{")


def parse(text: str, path: str | None = None) -> DeckList:
    """Parse any form, choosing by content: JSON starts with ``{``, CSV with its header
    ``section,count,...``, anything else is the text form. A line that is not Unicode text
    (a lone surrogate) is a problem, and left out."""
    text, unreadable = without_surrogate_lines(text)
    if looks_like_json(text):
        deck = parse_json(text, path)
    elif looks_like_csv(text):
        deck = parse_csv(text, path)
    else:
        text, meta = take_meta(text)  # the player: and name: lines (the rest keep their numbers)
        deck = parse_text(text, path)
        deck.player, deck.name = meta.get("player"), meta.get("name")
    deck.problems[:0] = [_not_unicode(_("the line"), what, line) for line, what in unreadable]
    return without_long_refs(deck)


def _not_unicode(part: str, what: str, line: int | None) -> Violation:
    message = _(
        "{part} is not valid Unicode text (a lone surrogate, {what}); it was not read",
        part=part,
        what=what,
    )
    return syntax(message, line, _("save the deck list as UTF-8 text"))
