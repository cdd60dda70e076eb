"""Goldfish results for people and tools: a rich table, CSV / Parquet (pandas), a PNG plot."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from deckcheck.csvsafe import escape_frame
from deckcheck.files import write_atomic
from deckcheck.goldfish.run import GoldfishResult
from deckcheck.i18n import _
from deckcheck.odds.output import (
    aside_line,
    assumption_lines,
    deck_label,
    listing,
    side_label,
    styled,
)
from deckcheck.render import version

_NUMBERED = re.compile(r"^(?P<stem>[a-z_]+?)_(?P<k>\d+)$")


def word(name: str) -> str:
    """A metric's or milestone's id as people read it: the catalogue's word for the id (a
    numbered one such as ``node_3`` through ``node_{k}``); in English, the id itself."""
    text = _(name)
    numbered = _NUMBERED.match(name)
    if text == name and numbered is not None:
        pattern = numbered["stem"] + "_{k}"
        if _(pattern) != pattern:
            return _(pattern, k=numbered["k"])
    return text


def render(console: Console, result: GoldfishResult) -> None:
    stopped = " " + styled("yellow", _("(interrupted)")) if result.interrupted else ""
    head = _(
        "{games} games × {turns} turns  seed {seed}  policy {policy}  engine {engine}",
        games=f"{result.games:,}",
        turns=result.turns,
        seed=result.seed,
        policy=escape(_(result.policy["name"]) if result.policy.get("name") else ""),
        engine=_("reference") if result.engine == "reference" else _("batch"),
    )
    console.print(
        f"{styled('bold', escape(deck_label(result.deck)))}  {result.format}  "
        f"{side_label(result.on_play)}  {head}{stopped}"
    )
    version(console, result.format_version)
    for aside in result.aside:  # what the deal set aside (the pilot's choice, or the pick)
        console.print(aside_line(aside))
    s = result.summary
    reasons = {r.name: r for r in result.loss_reasons}  # the game's own, from its spec
    rates = s.get("losses", {})
    losses = listing(
        f"{escape(reasons[k].label) if k in reasons else escape(k)} {v:.1%}"
        for k, v in rates.items()
    )
    console.print(
        "  "
        + _(
            "mulligans per game {mulligans}; losses {rate} ({reasons})",
            mulligans=f"{s.get('mulligans_mean', 0):.2f}",
            rate=f"{s.get('loss_rate', 0):.1%}",
            reasons=losses,
        )
    )
    for name, rate in rates.items():
        if rate and name in reasons:  # the rule behind each loss that happened
            why = reasons[name]
            line = _("lost by {reason}: {rule}", reason=escape(why.label), rule=escape(why.rule))
            console.print("  " + styled("dim", line))
    if result.per_turn:
        names = [k[: -len("_mean")] for k in result.per_turn[0] if k.endswith("_mean")]
        table = Table(_("turn"), _("alive"), *(word(n) for n in names), box=None)
        for row in result.per_turn:
            cells = [str(row["turn"]), f"{row['alive']:.0%}"]
            for name in names:
                mean, p10, p90 = row[f"{name}_mean"], row[f"{name}_p10"], row[f"{name}_p90"]
                cells.append("-" if mean is None else f"{mean:.2f} [dim]{p10:g}–{p90:g}[/]")
            table.add_row(*cells)
        console.print(table)
    for name, m in result.milestones.items():
        if m["mean_turn"] is None:
            line = _(
                "{milestone}: {rate} of games, never", milestone=word(name), rate=f"{m['rate']:.1%}"
            )
        else:
            line = _(
                "{milestone}: {rate} of games, mean turn {turn}",
                milestone=word(name),
                rate=f"{m['rate']:.1%}",
                turn=f"{m['mean_turn']:.2f}",
            )
        console.print("  " + line)
    assumption_lines(console, result.assumptions)


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

    from deckcheck.plotting import labels, save

    with labels():
        fig, ax = plt.subplots(figsize=(7, 4), dpi=120)
        turns = list(range(1, result.turns + 1))
        for name, m in result.milestones.items():
            ax.plot(turns, m["by_turn"], marker="o", label=word(name))
        ax.set_xlabel(_("turn"))
        ax.set_ylabel(_("share of games that reached it"))
        ax.set_ylim(0, 1.02)
        ax.set_xticks(turns)
        ax.grid(alpha=0.3)
        ax.set_title(
            _(
                "{format}: milestones over {games} games",
                format=result.format,
                games=f"{result.games:,}",
            )
        )
        ax.legend(loc="lower right")
        save(fig, path)
