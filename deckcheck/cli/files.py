"""Deck-file commands: new, add, remove, fix, convert, diff. Every edit is atomic."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from deckcheck.cli.common import console, format_for, open_pool, print_json, read_text
from deckcheck.cli.options import DbOption, FormatOption, JsonOption
from deckcheck.errors import EXIT_ILLEGAL, EXIT_OK, UsageError
from deckcheck.wording import a_an

if TYPE_CHECKING:
    from deckcheck.formats import Format
    from deckcheck.models import Card, DeckList, Report
    from deckcheck.resolve import CardIndex


def _load(
    path: Path, format: str | None, db: Path | None, extra: Sequence[str] = ()
) -> tuple[str, DeckList, Format, CardIndex]:
    from deckcheck import decklist

    text = read_text(path)
    deck = decklist.parse(text, str(path))
    fmt = format_for(format or deck.format, path, deck.date)
    with open_pool(db) as pool:
        index = pool.index_for([*(e.ref for e in deck.entries), *extra])
    return text, deck, fmt, index


def _verdict(deck: DeckList, fmt: Format, index: CardIndex) -> Report:
    from deckcheck.validate import validate

    return validate(deck, fmt, index)


def _one_line(report: Report) -> str:
    counts = ", ".join(f"{k} {v}" for k, v in report.counts.items())
    if report.legal:
        warn = f"; {len(report.warnings)} warning(s)" if report.warnings else ""
        return f"{report.path}: {report.format} LEGAL ({counts}){warn}"
    rules = ", ".join(dict.fromkeys(v.rule for v in report.errors))
    return (
        f"{report.path}: {report.format} ILLEGAL ({counts}): {len(report.errors)} error(s): {rules}"
    )


def _save(path: Path, text: str) -> None:
    from deckcheck.files import write_text_atomic

    write_text_atomic(path, text)  # exit 2 for a target that is no regular file


def new(
    path: Annotated[Path, typer.Argument(metavar="FILE", help="The deck file to create.")],
    format: Annotated[str, typer.Option("--format", "-f", help="Format id.")],
    force: Annotated[bool, typer.Option("--force", help="Replace an existing file.")] = False,
) -> None:
    """Write an empty deck file with its format: line and the format's sections."""
    from deckcheck import edit

    if path.exists() and not force:
        raise UsageError(f"{path} exists (use --force to replace it)")
    fmt = format_for(format, path)
    _save(path, edit.new_deck_text(fmt))
    print(f"created {path} ({fmt.id}: {', '.join(s.name for s in fmt.sections)})")


def _same(index: CardIndex, fmt: Format, ref: str) -> tuple[Card, Callable[[str], bool]]:
    """The card REF means, and a test for deck-list references that mean it too."""
    found = index.resolve(fmt.game, ref)
    if found.card is None:
        if found.ambiguous:
            numbers = ", ".join(c.number for c in found.ambiguous)
            raise UsageError(f"{ref!r} matches several cards ({numbers}); give the number")
        hint = f" (did you mean {' / '.join(found.suggestions)}?)" if found.suggestions else ""
        raise UsageError(f"no {fmt.game} card {ref!r} in the pool{hint}")
    card = found.card

    def same(other: str) -> bool:
        hit = index.resolve(fmt.game, other).card
        return hit is not None and hit.number == card.number

    return card, same


def add(
    path: Annotated[Path, typer.Argument(metavar="FILE")],
    count: Annotated[int, typer.Argument(metavar="N", min=1, max=9999)],
    ref: Annotated[str, typer.Argument(metavar="REF", help="Card number or name.")],
    section: Annotated[
        str | None,
        typer.Option(
            "--section", "-s", help="main, extra, gate or side (default: where the card type goes)."
        ),
    ] = None,
    db: DbOption = None,
) -> None:
    """Add N copies of a card, in place (comments and order kept), and print the verdict."""
    from deckcheck import decklist, edit

    text, _, fmt, index = _load(path, None, db, [ref])
    card, same = _same(index, fmt, ref)
    target = _section(section, fmt) or edit.default_section(fmt, card.type)
    new_text = edit.add(text, target, count, ref.strip(), same)  # written as the user wrote it
    _save(path, new_text)
    print(_one_line(_verdict(decklist.parse(new_text, str(path)), fmt, index)))


def _section(name: str | None, fmt: Format) -> str | None:
    if name is None:
        return None
    from deckcheck.decklist import section_name

    canonical = section_name(name)
    if canonical is None or canonical not in fmt.section_map:
        raise UsageError(f"--section {name!r}: {fmt.id} has {', '.join(fmt.section_map)}")
    return canonical


def remove(
    path: Annotated[Path, typer.Argument(metavar="FILE")],
    count: Annotated[int, typer.Argument(metavar="N", min=1, max=9999)],
    ref: Annotated[str, typer.Argument(metavar="REF", help="Card number or name.")],
    section: Annotated[str | None, typer.Option("--section", "-s")] = None,
    db: DbOption = None,
) -> None:
    """Remove N copies of a card, in place, and print the verdict."""
    from deckcheck import decklist, edit

    text, _, fmt, index = _load(path, None, db, [ref])
    _, same = _same(index, fmt, ref)
    new_text = edit.remove(text, _section(section, fmt), count, same)
    _save(path, new_text)
    print(_one_line(_verdict(decklist.parse(new_text, str(path)), fmt, index)))


def fix(
    path: Annotated[Path, typer.Argument(metavar="FILE")],
    apply: Annotated[bool, typer.Option("--apply", help="Write the changes.")] = False,
    format: FormatOption = None,
    db: DbOption = None,
) -> None:
    """List the unambiguous changes that would make an illegal deck legal; --apply writes them.

    Exit status: 0 legal (after --apply), 1 still illegal, 2 input error.
    """
    from deckcheck import decklist, edit

    text, deck, fmt, index = _load(path, format, db)
    fixes, _ = edit.propose_fixes(deck, fmt, index)
    fixed = edit.apply_fixes(text, fixes) if fixes else text
    # what the fixes leave behind is what still needs a person to choose
    _, choices = edit.propose_fixes(decklist.parse(fixed, str(path)), fmt, index)
    for f in fixes:
        print(("applied: " if apply else "fix: ") + f.describe())
    for choice in choices:
        print(f"needs a choice: {choice}")
    if apply and fixes:
        _save(path, fixed)
    report = _verdict(decklist.parse(fixed if apply else text, str(path)), fmt, index)
    print(_one_line(report))
    raise typer.Exit(EXIT_OK if report.legal else EXIT_ILLEGAL)


def convert(
    source: Annotated[Path, typer.Argument(metavar="IN")],
    to: Annotated[str, typer.Option("--to", help="text, json or csv.")],
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            "-o",
            dir_okay=False,
            help="Write here (atomically) instead of standard output.",
        ),
    ] = None,
    pin_numbers: Annotated[
        bool, typer.Option("--pin-numbers", help="Replace card names by their card numbers.")
    ] = False,
    format: FormatOption = None,
    db: DbOption = None,
) -> None:
    """Convert a deck between the text form, the JSON form and a CSV of
    section,count,number,name. The verdict is the same before and after."""
    from deckcheck import convert as conv

    if to not in conv.FORMS:
        raise UsageError(f"--to {to!r}: use text, json or csv")
    _, deck, fmt, index = _load(source, format, db)
    if format and not deck.format:
        deck.format = fmt.id
    if pin_numbers:
        deck = conv.pin(deck, index, fmt.game)
    result = conv.render(deck, to, index, fmt.game)
    if out is None:
        sys.stdout.write(result)
    else:
        _save(out, result)
        print(f"wrote {out} ({to})", file=sys.stderr)


def diff(
    a: Annotated[Path, typer.Argument(metavar="A")],
    b: Annotated[Path, typer.Argument(metavar="B")],
    format: FormatOption = None,
    as_json: JsonOption = False,
    db: DbOption = None,
) -> None:
    """Per section, the cards that went in and out between two decks, and each verdict."""
    from deckcheck import convert as conv

    _, deck_a, fmt_a, index_a = _load(a, format, db)
    _, deck_b, fmt_b, index_b = _load(b, format, db)
    if fmt_a.game != fmt_b.game:
        raise UsageError(f"{a} is {a_an(fmt_a.game)} deck and {b} {a_an(fmt_b.game)} deck")
    with open_pool(db) as pool:
        index = pool.index_for([e.ref for d in (deck_a, deck_b) for e in d.entries])
    changes = conv.diff(deck_a, deck_b, index, fmt_a.game)
    rep_a, rep_b = _verdict(deck_a, fmt_a, index_a), _verdict(deck_b, fmt_b, index_b)
    if as_json:
        print_json(
            {
                "a": {
                    "path": str(a),
                    "format": rep_a.format,
                    "legal": rep_a.legal,
                    "errors": len(rep_a.errors),
                },
                "b": {
                    "path": str(b),
                    "format": rep_b.format,
                    "legal": rep_b.legal,
                    "errors": len(rep_b.errors),
                },
                "sections": {k: [c.model_dump() for c in v] for k, v in changes.sections.items()},
            }
        )
        return
    from rich.markup import escape

    out = console()
    if changes.empty:
        out.print("no card changes")
    for section, items in changes.sections.items():
        out.print(f"[bold]{escape(f'[{section}]')}[/]")
        for c in items:
            delta = c.after - c.before
            mark = "[green]+[/]" if delta > 0 else "[red]-[/]"
            number = f" ({escape(c.number)})" if c.number else ""
            out.print(
                f"  {mark}{abs(delta)} {escape(c.name)}{number}  [dim]{c.before} → {c.after}[/]"
            )
    out.print(f"A: {escape(_one_line(rep_a))}")
    out.print(f"B: {escape(_one_line(rep_b))}")


__all__ = ["add", "convert", "diff", "fix", "new", "remove"]
