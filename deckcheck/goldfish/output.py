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
    deck_label,
    listing,
    side_label,
    styled,
)
from deckcheck.render import version
from deckcheck.tables import Col, fitted, show

_NUMBERED = re.compile(r"^(?P<stem>[a-z_]+?)_(?P<k>\d+)$")


def word(name: str) -> str:
    """A metric's or milestone's id as people read it: the catalogue's word for the id (a
    numbered one such as ``node_3`` through ``node_{k}``); in English, the id with spaces
    (``partner level 2``)."""
    text = _(name)
    numbered = _NUMBERED.match(name)
    if text == name and numbered is not None:
        pattern = numbered["stem"] + "_{k}"
        if _(pattern) != pattern:
            return _(pattern, k=numbered["k"])
    return text.replace("_", " ") if text == name else text


def render(console: Console, result: GoldfishResult) -> None:
    """The result without its assumptions (the command prints them once, at the end)."""
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
    _losses(console, result)
    if result.per_turn:
        console.print("  " + styled("dim", _("cells: mean (p10–p90)")))
        show(console, per_turn_tables(result, console.width))
    _milestones(console, result)


def _losses(console: Console, result: GoldfishResult) -> None:
    """Mulligans and losses: only the ways the game declares it can be lost."""
    s = result.summary
    reasons = {r.name: r for r in result.loss_reasons}  # the game's own, from its spec
    rates = {k: v for k, v in s.get("losses", {}).items() if k in reasons}
    losses = listing(f"{escape(reasons[k].label)} {v:.1%}" for k, v in rates.items())
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
        if rate:  # the rule behind each loss that happened
            why = reasons[name]
            line = _("lost by {reason}: {rule}", reason=escape(why.label), rule=escape(why.rule))
            console.print("  " + styled("dim", line))


def per_turn_tables(result: GoldfishResult, width: int) -> list[Table]:
    """Turn by turn, each metric's mean (p10–p90), split to fit ``width``."""
    names = [k[: -len("_mean")] for k in result.per_turn[0] if k.endswith("_mean")]
    rows = []
    for row in result.per_turn:
        cells = [str(row["turn"]), f"{row['alive']:.0%}"]
        for name in names:
            mean, p10, p90 = row[f"{name}_mean"], row[f"{name}_p10"], row[f"{name}_p90"]
            cells.append("-" if mean is None else f"{mean:.2f} [dim]({p10:g}–{p90:g})[/]")
        rows.append(cells)
    keys = [Col(_("turn")), Col(_("alive"), "right")]
    return fitted(width, keys, [Col(word(n), "right") for n in names], rows)


def _milestones(console: Console, result: GoldfishResult) -> None:
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


def plot_title(result: GoldfishResult, both: bool = False) -> str:
    """Deck, format, side, games and pilot, as the plot's title."""
    side = _("on the play and on the draw") if both else side_label(result.on_play)
    return _(
        "{name} ({format}), {side}: {games} games, policy {policy}",
        name=deck_label(result.deck and Path(result.deck).name),
        format=result.format,
        side=side,
        games=f"{result.games:,}",
        policy=_(result.policy["name"]) if result.policy.get("name") else "",
    )


STYLES = ("-", "--", "-.", ":")
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")


def write_plot(result: GoldfishResult, path: Path, other: GoldfishResult | None = None) -> None:
    """Each milestone's share of games reached by each turn; with ``other`` (the same deck on
    the other side), both sides, the draw's curves dashed."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from deckcheck.plotting import labels, save

    with labels():
        fig, ax = plt.subplots(figsize=(7, 4.5), dpi=120)
        turns = list(range(1, result.turns + 1))
        for side, shown in enumerate(r for r in (result, other) if r is not None):
            for n, (name, m) in enumerate(shown.milestones.items()):
                label = word(name) + (f" ({side_label(shown.on_play)})" if other else "")
                ax.plot(
                    turns,
                    m["by_turn"],
                    color=f"C{n}",
                    linestyle=STYLES[(n + 2 * side) % len(STYLES)] if other else STYLES[n % 4],
                    marker=MARKERS[n % len(MARKERS)],
                    markersize=4,
                    alpha=0.9,
                    label=label,
                )
        ax.set_xlabel(_("turn"))
        ax.set_ylabel(_("share of games that reached it"))
        ax.set_ylim(0, 1.02)
        ax.set_xticks(turns)
        ax.grid(alpha=0.3)
        ax.set_title(plot_title(result, other is not None), fontsize="medium")
        columns = 2 if len(result.milestones) > 4 or other else 1
        ax.legend(loc="lower right", fontsize="x-small", ncol=columns)
        save(fig, path)
