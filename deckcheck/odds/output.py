"""Odds and sample hands for people: rich tables, CSV (pandas), PNG plots (matplotlib).

pandas and matplotlib are imported inside the writers, so only ``--csv`` and ``--plot`` pay
for them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from deckcheck.csvsafe import escape_frame
from deckcheck.files import write_atomic
from deckcheck.odds.api import AsideView, HandsResult, OddsResult
from deckcheck.render import version


def render(console: Console, result: OddsResult) -> None:
    side = "on the play" if result.on_play else "on the draw"
    console.print(
        f"[bold]{escape(result.deck or '(deck)')}[/]  {result.format}  {side}  "
        f"[dim]{result.method}{f', {result.games:,} games' if result.games else ''}[/]"
    )
    version(console, result.format_version)
    console.print("  want: " + " and ".join(escape(c) for c in result.conditions))
    console.print(f"  mulligan: {escape(result.mulligan)}")
    if result.optional_draws:
        console.print(f"  optional draws counted: {escape(result.optional_draws)}")
    for aside in result.aside:
        console.print(aside_line(aside))
    table = Table("turn", "cards seen", "probability", box=None)
    if result.method == "monte-carlo":
        table.add_column("95% interval")
    for row in result.rows:
        cells = [str(row.turn), str(row.cards_seen), f"{row.probability:.2%}"]
        if result.method == "monte-carlo":
            cells.append(f"{row.low:.2%} – {row.high:.2%}")
        table.add_row(*cells)
    console.print(table)
    if result.table:
        copies = Table("copies", *(f"turn {r.turn}" for r in result.table[0].rows), box=None)
        for entry in result.table:
            copies.add_row(str(entry.copies), *(f"{r.probability:.1%}" for r in entry.rows))
        console.print(copies)
    for note in result.assumptions:
        console.print(f"  [dim]assumption: {escape(note)}[/]")


def aside_line(aside: AsideView) -> str:
    """One line for cards the deal set aside or laid out, with the rule the spec gives."""
    note = f" [dim]({escape(aside.note)})[/]" if aside.note else ""
    return f"  {escape(aside.label)}: {', '.join(escape(c) for c in aside.cards)}{note}"


def render_hands(console: Console, result: HandsResult) -> None:
    seed = "" if result.seed is None else f"  seed {result.seed}"
    console.print(f"[bold]{escape(result.deck or '(deck)')}[/]  {result.format}{seed}")
    version(console, result.format_version)
    for i, dealt in enumerate(result.hands, start=1):
        console.print(
            f"[bold]hand {i}[/]" + (f"  ({dealt.redraws} forced redraws)" if dealt.redraws else "")
        )
        marks: dict[str, str] = {}  # hand card -> the label of what the deal made of it
        for aside in dealt.aside:
            if aside.in_hand:
                marks.update((card, aside.label) for card in aside.cards)
            else:
                console.print(aside_line(aside))
        for card in dealt.hand:
            mark = f"  [dim]({escape(marks[card])})[/]" if card in marks else ""
            console.print(f"  {escape(card)}{mark}")
        if dealt.mulligan is not None:
            returned = ", ".join(escape(c) for c in dealt.returned or [])
            console.print(f"  [yellow]mulligan[/]: returned {returned}; now:")
            for card in dealt.mulligan:
                console.print(f"    {escape(card)}")
    for note in result.assumptions:
        console.print(f"  [dim]assumption: {escape(note)}[/]")


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


def write_plot(result: OddsResult, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    turns = [r.turn for r in result.rows]
    fig, ax = plt.subplots(figsize=(7, 4), dpi=120)
    ax.plot(turns, [r.probability for r in result.rows], marker="o", label=result.method)
    if result.method == "monte-carlo":
        low = [r.low or 0 for r in result.rows]
        high = [r.high or 0 for r in result.rows]
        ax.fill_between(turns, low, high, alpha=0.25, label="95% interval")
    for entry in result.table or []:
        ax.plot(
            turns,
            [r.probability for r in entry.rows],
            linestyle="--",
            label=f"{entry.copies} copies",
        )
    ax.set_xlabel("turn (0 = kept opening hand)")
    ax.set_ylabel("probability")
    ax.set_ylim(0, 1.02)
    ax.set_xticks(turns)
    ax.grid(alpha=0.3)
    side = "on the play" if result.on_play else "on the draw"
    ax.set_title(f"{result.format}, {side}: {len(result.conditions)} condition(s)")
    ax.legend(loc="lower right")
    fig.tight_layout()
    write_atomic(path, lambda tmp: fig.savefig(tmp, format="png"))
    plt.close(fig)
