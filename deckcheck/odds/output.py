"""Odds and sample hands for people: rich tables, CSV (pandas), PNG plots (matplotlib).

pandas and matplotlib are imported inside the writers, so only ``--csv`` and ``--plot`` pay
for them.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from deckcheck.csvsafe import escape_frame
from deckcheck.files import write_atomic
from deckcheck.i18n import _, _n, current
from deckcheck.odds.api import AsideView, OddsResult
from deckcheck.odds.hands import HandsResult
from deckcheck.render import version
from deckcheck.tables import Col, fitted, show


def styled(style: str, text: str) -> str:
    """``text`` in rich markup's ``style`` (the text already escaped)."""
    return f"[{style}]{text}[/]"


def side_label(on_play: bool) -> str:
    """ "on the play" / "on the draw" in the current language."""
    return _("on the play") if on_play else _("on the draw")


def method_label(method: str, games: int | None) -> str:
    """The method as people read it: exact, or Monte Carlo with its number of games."""
    name = _("exact") if method == "exact" else _("monte-carlo")
    return name + (
        _n(", {count} game", ", {count} games", games, count=f"{games:,}") if games else ""
    )


def listing(items: Iterable[str]) -> str:
    """Card names in a row: ``a, b`` / ``a、b``."""
    return ("、" if current() == "ja" else ", ").join(items)


def deck_label(deck: str | None) -> str:
    return deck or _("(deck)")


def render(console: Console, result: OddsResult) -> None:
    console.print(
        f"{styled('bold', escape(deck_label(result.deck)))}  {result.format}  "
        f"{side_label(result.on_play)}  {styled('dim', method_label(result.method, result.games))}"
    )
    version(console, result.format_version)
    # the conditions as typed, all of which must hold
    wanted = _(" and ").join(escape(c) for c in result.conditions)
    console.print(_("  want: {conditions}", conditions=wanted))
    console.print(_("  mulligan: {rule}", rule=escape(result.mulligan)))
    if result.optional_draws:
        console.print(_("  optional draws counted: {draws}", draws=escape(result.optional_draws)))
    for aside in result.aside:
        console.print(aside_line(aside))
    table = Table(_("turn"), _("cards seen"), _("probability"), box=None)
    if result.method == "monte-carlo":
        table.add_column(_("interval (95%)"))
    for row in result.rows:
        cells = [str(row.turn), str(row.cards_seen), f"{row.probability:.2%}"]
        if result.method == "monte-carlo":
            cells.append(f"{row.low:.2%} – {row.high:.2%}")
        table.add_row(*cells)
    console.print(table)
    for note in result.notes:  # why a condition stays at 0%
        console.print(styled("yellow", _("  note: {note}", note=escape(note))))
    if result.table:
        console.print(styled("dim", _("with each number of copies of the --table card:")))
        show(console, copies_tables(result, console.width))


def copies_tables(result: OddsResult, width: int) -> list[Table]:
    """The answer with each number of copies of the ``--table`` card: one row a count, one
    column a turn, split to fit ``width``."""
    entries = result.table or []
    turns = [Col(_("turn {turn}", turn=r.turn), "right") for r in entries[0].rows]
    rows = [[str(e.copies), *(f"{r.probability:.1%}" for r in e.rows)] for e in entries]
    return fitted(width, [Col(_("copies"), "right")], turns, rows)


def aside_line(aside: AsideView) -> str:
    """One line for cards the deal set aside or laid out, with the rule the spec gives."""
    note = f" [dim]({escape(aside.note)})[/]" if aside.note else ""
    cards = listing(escape(c) for c in aside.cards)
    return f"  {escape(aside.label)}: {cards}{note}"


def render_hands(console: Console, result: HandsResult) -> None:
    seed = "" if result.seed is None else "  " + _("seed {seed}", seed=result.seed)
    console.print(f"{styled('bold', escape(deck_label(result.deck)))}  {result.format}{seed}")
    version(console, result.format_version)
    for i, dealt in enumerate(result.hands, start=1):
        redraws = (
            "  "
            + _n(
                "({count} forced redraw)",
                "({count} forced redraws)",
                dealt.redraws,
                count=dealt.redraws,
            )
            if dealt.redraws
            else ""
        )
        console.print(styled("bold", _("hand {i}", i=i)) + redraws)
        marks: dict[str, str] = {}  # hand card -> the label of what the deal made of it
        for aside in dealt.aside:
            if aside.in_hand:
                marks.update((card, aside.label) for card in aside.cards)
            else:
                console.print(aside_line(aside))
        for card in dealt.hand:
            mark = f"  [dim]({escape(marks[card])})[/]" if card in marks else ""
            console.print(f"  {escape(card)}{mark}")
        if dealt.meets is not None:
            console.print("  " + _verdict(dealt.meets, result.mulligans, result.format))
        if dealt.mulligan is not None:
            returned = listing(escape(c) for c in dealt.returned or [])
            console.print(
                f"  {styled('yellow', _('mulligan'))}: "
                + _("returned {cards}; now:", cards=returned)
            )
            for card in dealt.mulligan:
                console.print(f"    {escape(card)}")
            if dealt.mulligan_meets is not None:
                console.print("    " + _verdict(dealt.mulligan_meets, True, result.format))


def _verdict(meets: bool, mulligans: bool, fmt: str) -> str:
    """Whether a dealt hand meets the --want conditions; a format without a mulligan keeps a
    hand that misses them, and the line says so rather than leave the want unanswered."""
    if meets:
        return styled("green", _("✓ meets the want"))
    if mulligans:
        return styled("red", _("✗ misses the want"))
    kept = _("✗ misses the want; {format} has no mulligan, so it is kept", format=fmt)
    return styled("red", kept)


def rows_frame(result: OddsResult) -> Any:  # a pandas DataFrame; pandas is imported late
    import pandas as pd

    records = [{"copies": None, **row.model_dump()} for row in result.rows] + [
        {"copies": entry.copies, **row.model_dump()}
        for entry in result.table or []
        for row in entry.rows
    ]
    frame = pd.DataFrame.from_records(records)
    frame.insert(0, "format", result.format)
    frame.insert(1, "method", result.method)
    frame.insert(2, "on_play", result.on_play)
    frame.insert(3, "conditions", " & ".join(result.conditions))
    return frame


def write_csv(result: OddsResult, path: Path) -> None:
    write_atomic(path, lambda tmp: escape_frame(rows_frame(result)).to_csv(tmp, index=False))


def plot_title(result: OddsResult) -> str:
    """Deck, format, side and the conditions, as the plot's title."""
    head = _(
        "{name} ({format}), {side}",
        name=deck_label(result.deck and Path(result.deck).name),
        format=result.format,
        side=side_label(result.on_play),
    )
    return head + "\n" + _(" and ").join(result.conditions)


def write_plot(result: OddsResult, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from deckcheck.plotting import labels, save

    turns = [r.turn for r in result.rows]
    with labels():
        fig, ax = plt.subplots(figsize=(7, 4), dpi=120)
        method = method_label(result.method, result.games)
        ax.plot(turns, [r.probability for r in result.rows], marker="o", label=method)
        if result.method == "monte-carlo":
            low = [r.low or 0 for r in result.rows]
            high = [r.high or 0 for r in result.rows]
            ax.fill_between(turns, low, high, alpha=0.25, label=_("interval (95%)"))
        for n, entry in enumerate(result.table or []):
            ax.plot(
                turns,
                [r.probability for r in entry.rows],
                linestyle=("--", "-.", ":")[n % 3],
                marker=("s", "^", "D", "v")[n % 4],
                markersize=4,
                label=_n(
                    "{count} copy of the --table card",
                    "{count} copies of the --table card",
                    entry.copies,
                    count=entry.copies,
                ),
            )
        ax.set_xlabel(_("turn (0 = kept opening hand)"))
        ax.set_ylabel(_("probability"))
        ax.set_ylim(0, 1.02)
        ax.set_xticks(turns)
        ax.grid(alpha=0.3)
        ax.set_title(plot_title(result), fontsize="medium")
        ax.legend(loc="lower right", fontsize="small")
        save(fig, path)
