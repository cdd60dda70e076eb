"""Deck-file commands: new, add, remove, fix, convert, diff. Every edit is atomic."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from deckcheck.cli.common import console, format_for, open_pool, print_json, read_text
from deckcheck.cli.named import count_and_ref, printings_note, same_card
from deckcheck.cli.options import CountArgument, DbOption, FormatOption, JsonOption, RefArgument
from deckcheck.cli.outputs import wrote
from deckcheck.errors import EXIT_ILLEGAL, EXIT_OK, UsageError
from deckcheck.i18n import N_, _, current
from deckcheck.wording import a_an, listing, word

if TYPE_CHECKING:
    from deckcheck.formats import Format
    from deckcheck.models import DeckList, Report
    from deckcheck.resolve import CardIndex


def _load(
    path: Path, format: str | None, db: Path | None, extra: Sequence[str] = ()
) -> tuple[str, DeckList, Format, CardIndex]:
    return _load_text(path, read_text(path), format, db, extra)


def _load_text(
    path: Path, text: str, format: str | None, db: Path | None, extra: Sequence[str] = ()
) -> tuple[str, DeckList, Format, CardIndex]:
    """``_load`` of a text already in hand (a deck as fixed so far)."""
    from deckcheck import decklist

    deck = decklist.parse(text, str(path))
    with open_pool(db) as pool:
        index = pool.index_for([*(e.ref for e in deck.entries), *extra])
    fmt = format_for(format or deck.format, path, deck.date, (deck, index))
    from deckcheck.bare_counts import settled

    return text, settled(deck, fmt, index), fmt, index  # convert, diff: the lines read


def _verdict(deck: DeckList, fmt: Format, index: CardIndex) -> Report:
    from deckcheck.validate import validate

    return validate(deck, fmt, index)


def _one_line(report: Report) -> str:
    # a section as the game words it in Japanese, by its id in English
    counts = listing(f"{word(report.game, k)} {v}" for k, v in report.counts.items())
    fields = {"path": report.path, "format_id": report.format, "counts": counts}
    if report.legal and report.warnings:
        n = len(report.warnings)
        return _("{path}: {format_id} LEGAL ({counts}); {n} warning(s)", **fields, n=n)
    if report.legal:
        return _("{path}: {format_id} LEGAL ({counts})", **fields)
    rules = ", ".join(dict.fromkeys(v.rule for v in report.errors))
    return _(
        "{path}: {format_id} ILLEGAL ({counts}): {n} error(s): {rules}",
        **fields,
        n=len(report.errors),
        rules=rules,
    )


def _save(path: Path, text: str) -> None:
    from deckcheck.files import write_text_atomic

    write_text_atomic(path, text)  # exit 2 for a target that is no regular file


NEW_HELP = N_(
    "Write an empty deck file with its format: line and the format's sections.\n\n"
    "Exit status: 0 written, 2 bad format, or a file that exists (--force replaces it)."
)


def new(
    path: Annotated[Path, typer.Argument(metavar="FILE", help=N_("The deck file to create."))],
    format: Annotated[str, typer.Option("--format", "-f", help=N_("Format id."))],
    force: Annotated[bool, typer.Option("--force", help=N_("Replace an existing file."))] = False,
) -> None:
    from deckcheck import edit

    if path.exists() and not force:
        raise UsageError(_("{path} exists (use --force to replace it)", path=path))
    fmt = format_for(format, path)
    _save(path, edit.new_deck_text(fmt))
    sections = ", ".join(s.name for s in fmt.sections)
    what = _("a new deck, {format_id}: {sections}", format_id=fmt.id, sections=sections)
    wrote(path, what)


ADD_HELP = N_(
    "Add N copies of a card, in place (comments and order kept), and print the verdict.\n\n"
    "Exit status: 0 written, whatever the verdict (a deck being built is illegal until it is "
    "whole), 2 bad input."
)


def add(
    path: Annotated[Path, typer.Argument(metavar="FILE")],
    first: CountArgument,
    second: RefArgument = None,
    section: Annotated[
        str | None,
        typer.Option(
            "--section",
            "-s",
            help=N_("main, extra, gate or side (default: where the card type goes)."),
        ),
    ] = None,
    db: DbOption = None,
) -> None:
    from deckcheck import decklist, edit

    asked = count_and_ref([first, *(second or [])])
    text, _deck, fmt, index = _load(path, None, db, asked.refs)
    count, ref = asked.settled(index, fmt.game)
    card, same = same_card(index, fmt, ref)
    target = _section(section, fmt) or edit.default_section(fmt, card.type)
    # written as the user wrote it, or as the card's own name when found only loosely
    written = index.resolve(fmt.game, ref).spelling or ref.strip()
    new_text = edit.add(text, target, count, written, same)
    _save(path, new_text)
    printings_note(index, fmt, ref)
    print(_one_line(_verdict(decklist.parse(new_text, str(path)), fmt, index)))


def _section(name: str | None, fmt: Format) -> str | None:
    if name is None:
        return None
    from deckcheck.decklist import section_name

    canonical = section_name(name)
    if canonical is None or canonical not in fmt.section_map:
        raise UsageError(
            _(
                "--section {name}: {format_id} has {sections}",
                name=repr(name),
                format_id=fmt.id,
                sections=", ".join(fmt.section_map),
            )
        )
    return canonical


REMOVE_HELP = N_(
    "Remove N copies of a card, in place, and print the verdict.\n\n"
    "Exit status: 0 written, whatever the verdict, 2 bad input."
)


def remove(
    path: Annotated[Path, typer.Argument(metavar="FILE")],
    first: CountArgument,
    second: RefArgument = None,
    section: Annotated[str | None, typer.Option("--section", "-s")] = None,
    db: DbOption = None,
) -> None:
    from deckcheck import decklist, edit

    asked = count_and_ref([first, *(second or [])])
    text, _deck, fmt, index = _load(path, None, db, asked.refs)
    count, ref = asked.settled(index, fmt.game)
    card, same = same_card(index, fmt, ref)
    new_text = edit.remove(text, _section(section, fmt), count, same, card.name)
    _save(path, new_text)
    print(_one_line(_verdict(decklist.parse(new_text, str(path)), fmt, index)))


FIX_HELP = N_(
    "Apply the certain changes to the file: a card's own spelling where only one card can be "
    "meant (a name without its space, in half-width kana, or a typo with one suggestion), "
    "then the counts and "
    "moves only one change can make; the rest are listed as choices. --dry-run shows the "
    "changes as a diff and writes nothing.\n\n"
    "Exit status: 0 legal, 1 still illegal, 2 input error."
)


@dataclass(frozen=True)
class _Fixed:
    """``fix``'s work on one deck text: the text as fixed, the changes made, what is left."""

    text: str
    done: list[str]
    choices: list[str]


def _fixed(
    path: Path, format: str | None, db: Path | None
) -> tuple[str, _Fixed, Format, CardIndex]:
    from deckcheck import decklist, edit, respell

    text, deck, fmt, index = _load(path, format, db)
    found = respell.respellings(deck, fmt.game, index)
    spellings = [] if decklist.looks_like_json(text) else found.fixes  # text lists only
    respelled = respell.respelled(text, spellings)
    if spellings:  # what is left to choose, on the deck as respelled
        _text, deck, fmt, index = _load_text(path, respelled, format, db)
        found = respell.respellings(deck, fmt.game, index)
    fixes, _choices = edit.propose_fixes(deck, fmt, index)
    fixed = edit.apply_fixes(respelled, fixes) if fixes else respelled
    # what the fixes leave behind is what still needs a person to choose
    _fixes, choices = edit.propose_fixes(decklist.parse(fixed, str(path)), fmt, index)
    done = [s.describe() for s in spellings] + [f.describe() for f in fixes]
    return text, _Fixed(fixed, done, [*found.choices, *choices]), fmt, index


def fix(
    path: Annotated[Path, typer.Argument(metavar="FILE")],
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help=N_("Show the changes as a diff; write nothing."))
    ] = False,
    # what v0.1.0 needed to write (its README: ``deckcheck fix FILE --apply``); writing is
    # the default now, so it changes nothing, and scripts that pass it keep working
    _apply: Annotated[bool, typer.Option("--apply", hidden=True)] = False,
    format: FormatOption = None,
    db: DbOption = None,
) -> None:
    import difflib

    from deckcheck import decklist

    text, found, fmt, index = _fixed(path, format, db)
    report = _verdict(decklist.parse(text if dry_run else found.text, str(path)), fmt, index)
    for fix_text in found.done:
        print(_("fix: {fix}", fix=fix_text) if dry_run else _("applied: {fix}", fix=fix_text))
    for choice in found.choices:
        print(_("needs a choice: {choice}", choice=choice))
    for note in report.notes:  # the printing that stands for a name, as validate says
        shown = _("line {n}: {text}", n=note.line, text=note.message) if note.line else note.message
        print(_("note: {note}", note=shown))
    if dry_run:
        sys.stdout.writelines(
            difflib.unified_diff(
                text.splitlines(keepends=True),
                found.text.splitlines(keepends=True),
                str(path),
                str(path),
            )
        )
    elif found.done:
        _save(path, found.text)
    print(_one_line(report))
    raise typer.Exit(EXIT_OK if report.legal else EXIT_ILLEGAL)


CONVERT_HELP = N_(
    "Convert a deck between the text form, the JSON form and a CSV of "
    "section,count,number,name. The verdict is the same before and after.\n\n"
    "Exit status: 0 converted, whatever the verdict, 2 bad input."
)


def convert(
    source: Annotated[Path, typer.Argument(metavar="IN")],
    target: Annotated[
        Path | None,
        typer.Argument(
            metavar="[OUT]",
            dir_okay=False,
            show_default=False,
            help=N_("The file to write, as --out; its suffix (.json, .csv, .deck) gives --to."),
        ),
    ] = None,
    to: Annotated[
        str | None,
        typer.Option(
            "--to", help=N_("text, json or csv (default: from the output file's suffix).")
        ),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            "-o",
            dir_okay=False,
            help=N_("Write here (atomically) instead of standard output."),
        ),
    ] = None,
    pin_numbers: Annotated[
        bool, typer.Option("--pin-numbers", help=N_("Replace card names by their card numbers."))
    ] = False,
    format: FormatOption = None,
    db: DbOption = None,
) -> None:
    from deckcheck import convert as conv

    if target is not None and out is not None and target != out:
        raise UsageError(_("two files to write: {a} and --out {b}; give one", a=target, b=out))
    out = out or target
    to = to or conv.form_of(out)
    if to is None:
        raise UsageError(
            _("say which form to write: --to text, json or csv (or a .json, .csv or .deck file)")
        )
    if to not in conv.FORMS:
        raise UsageError(_("--to {value}: use text, json or csv", value=repr(to)))
    _text, deck, fmt, index = _load(source, format, db)
    if format and not deck.format:
        deck.format = fmt.id
    if pin_numbers:
        deck = conv.pin(deck, index, fmt.game)
    result = conv.render(deck, to, index, fmt.game)
    if out is None:
        sys.stdout.write(result)
    else:
        _save(out, result)
        wrote(out, _("the deck list as {form}", form=to))


DIFF_HELP = N_(
    "Per section, the cards that went in and out between two decks, and each verdict.\n\n"
    "Exit status: 0 compared, whatever the verdicts, 2 bad input (or decks of two games)."
)


def diff(
    a: Annotated[Path, typer.Argument(metavar="A")],
    b: Annotated[Path, typer.Argument(metavar="B")],
    format: FormatOption = None,
    as_json: JsonOption = False,
    db: DbOption = None,
) -> None:
    from deckcheck import convert as conv

    _text_a, deck_a, fmt_a, index_a = _load(a, format, db)
    _text_b, deck_b, fmt_b, index_b = _load(b, format, db)
    if fmt_a.game != fmt_b.game:
        article = a_an if current() == "en" else str  # Japanese has no article
        raise UsageError(
            _(
                "{a} is {a_game} deck and {b} {b_game} deck",
                a=a,
                a_game=article(fmt_a.game),
                b=b,
                b_game=article(fmt_b.game),
            )
        )
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
        out.print(_("no card changes"))
    for section, items in changes.sections.items():
        out.print(f"[bold]{escape(f'[{section}]')}[/]")  # i18n: machine (markup)
        for c in items:
            delta = c.after - c.before
            mark = "[green]+[/]" if delta > 0 else "[red]-[/]"
            number = f" ({escape(c.number)})" if c.number else ""
            counts = f"[dim]{c.before} → {c.after}[/]"  # i18n: machine (markup)
            out.print(f"  {mark}{abs(delta)} {escape(c.name)}{number}  {counts}")
    out.print(f"A: {escape(_one_line(rep_a))}")
    out.print(f"B: {escape(_one_line(rep_b))}")


# the commands, with their help (deckcheck.cli registers them)
HELPS: dict[Callable[..., None], str] = {
    new: NEW_HELP,
    add: ADD_HELP,
    remove: REMOVE_HELP,
    fix: FIX_HELP,
    convert: CONVERT_HELP,
    diff: DIFF_HELP,
}

__all__ = ["HELPS", "add", "convert", "diff", "fix", "new", "remove"]
