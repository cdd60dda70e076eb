"""Goldfish results for people and tools: a rich table, CSV / Parquet (pandas), a PNG plot."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from deckcheck.csvsafe import escape_frame
from deckcheck.files import write_atomic
from deckcheck.goldfish.run import GoldfishResult
from deckcheck.odds.output import aside_line
from deckcheck.render import version


def render(console: Console, result: GoldfishResult) -> None:
    side = "on the play" if result.on_play else "on the draw"
    stopped = " [yellow](interrupted)[/]" if result.interrupted else ""
    console.print(
        f"[bold]{escape(result.deck or '(deck)')}[/]  {result.format}  {side}  "
        f"{result.games:,} games × {result.turns} turns  seed {result.seed}  "
        f"policy {escape(result.policy.get('name', ''))}  engine {result.engine}{stopped}"
    )
    version(console, result.format_version)
    for aside in result.aside:  # what the deal set aside (the pilot's choice, or the pick)
        console.print(aside_line(aside))
    s = result.summary
    reasons = {r.name: r for r in result.loss_reasons}  # the game's own, from its spec
    rates = s.get("losses", {})
    losses = ", ".join(
        f"{escape(reasons[k].label) if k in reasons else escape(k)} {v:.1%}"
        for k, v in rates.items()
    )
    console.print(
        f"  mulligans per game {s.get('mulligans_mean', 0):.2f}; losses "
        f"{s.get('loss_rate', 0):.1%} ({losses})"
    )
    for name, rate in rates.items():
        if rate and name in reasons:  # the rule behind each loss that happened
            why = reasons[name]
            console.print(f"  [dim]lost by {escape(why.label)}: {escape(why.rule)}[/]")
    if result.per_turn:
        names = [k[: -len("_mean")] for k in result.per_turn[0] if k.endswith("_mean")]
        table = Table("turn", "alive", *names, box=None)
        for row in result.per_turn:
            cells = [str(row["turn"]), f"{row['alive']:.0%}"]
            for name in names:
                mean, p10, p90 = row[f"{name}_mean"], row[f"{name}_p10"], row[f"{name}_p90"]
                cells.append("-" if mean is None else f"{mean:.2f} [dim]{p10:g}–{p90:g}[/]")
            table.add_row(*cells)
        console.print(table)
    for name, m in result.milestones.items():
        when = "never" if m["mean_turn"] is None else f"mean turn {m['mean_turn']:.2f}"
        console.print(f"  {name}: {m['rate']:.1%} of games, {when}")
    for note in result.assumptions:
        console.print(f"  [dim]assumption: {escape(note)}[/]")


def per_turn_frame(result: GoldfishResult) -> Any:
    import pandas as pd

    frame = pd.DataFrame.from_records(result.per_turn)
    frame.insert(0, "format", result.format)
    frame.insert(1, "seed", result.seed)
    frame.insert(2, "on_play", result.on_play)
    return frame


def write_csv(result: GoldfishResult, path: Path) -> None:
    write_atomic(path, lambda tmp: escape_frame(per_turn_frame(result)).to_csv(tmp, index=False))


def write_parquet(result: GoldfishResult, path: Path) -> None:
    write_atomic(path, lambda tmp: per_turn_frame(result).to_parquet(tmp, index=False))


def write_plot(result: GoldfishResult, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4), dpi=120)
    turns = list(range(1, result.turns + 1))
    for name, m in result.milestones.items():
        ax.plot(turns, m["by_turn"], marker="o", label=name)
    ax.set_xlabel("turn")
    ax.set_ylabel("share of games that reached it")
    ax.set_ylim(0, 1.02)
    ax.set_xticks(turns)
    ax.grid(alpha=0.3)
    ax.set_title(f"{result.format}: milestones over {result.games:,} games")
    ax.legend(loc="lower right")
    fig.tight_layout()
    write_atomic(path, lambda tmp: fig.savefig(tmp, format="png"))
    plt.close(fig)
