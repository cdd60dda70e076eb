"""Print the figures ``make bench`` collected (build/bench.json) as one table."""

from __future__ import annotations

import json
import sys

from rich.console import Console
from rich.table import Table

from benchmarks.common import RESULTS


def _num(value: float | None, unit: str = "") -> str:
    if value is None:
        return ""
    text = f"{value:,.0f}" if value >= 100 else f"{value:.3g}"
    return f"{text} {unit}".strip()


def main() -> None:
    if not RESULTS.exists():
        sys.exit("no figures yet: run the benchmarks first (make bench)")
    rows = json.loads(RESULTS.read_text())
    table = Table(title=f"deckcheck benchmarks on {rows[0]['machine']}" if rows else None)
    for column in ("figure", "value", "plain Python", "ratio", "goal", ""):
        table.add_column(column, justify="left" if column == "figure" else "right")
    for row in rows:
        goal = ""
        if row["goal"] is not None:
            goal = ("≤ " if row["lower_is_better"] else "≥ ") + _num(row["goal"], row["unit"])
        if row["ratio_goal"] is not None:
            goal += f"{', ' if goal else ''}≥ {row['ratio_goal']:g}x"
        mark = {True: "✓", False: "✗", None: ""}[row["met"]]
        ratio = f"{row['ratio']:.1f}x" if row["ratio"] is not None else ""
        table.add_row(
            row["what"],
            _num(row["value"], row["unit"]),
            _num(row["reference"], row["unit"]),
            ratio,
            goal,
            mark,
        )
    Console(width=140).print(table)


if __name__ == "__main__":
    main()
