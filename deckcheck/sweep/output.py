"""A sweep's results as a table (rich), a data frame (CSV, Parquet) and a plot."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from deckcheck.csvsafe import escape_frame
from deckcheck.files import write_atomic
from deckcheck.i18n import _
from deckcheck.sweep.run import SweepResult

if TYPE_CHECKING:
    import pandas as pd
    from rich.console import Console


def rows(result: SweepResult) -> list[dict[str, Any]]:
    """One flat row per variant: its keys, legality, odds at each turn, milestone rates."""
    out = []
    for v in result.variants:
        row: dict[str, Any] = {"variant": v.label, **v.keys, "legal": v.legal}
        for cond, probs in v.odds.items():
            for turn, p in enumerate(probs):
                row[f"odds:{cond}@{turn}"] = p
        for name, m in v.milestones.items():
            row[f"milestone:{name}:rate"] = m["rate"]
            row[f"milestone:{name}:mean_turn"] = m["mean_turn"]
        if not v.legal:
            row["violations"] = "; ".join(f"{x.rule}: {x.message}" for x in v.violations)
        out.append(row)
    return out


def frame(result: SweepResult) -> pd.DataFrame:
    import pandas as pd

    return pd.DataFrame(rows(result))


def write_csv(result: SweepResult, path: Path) -> None:
    write_atomic(path, lambda tmp: escape_frame(frame(result)).to_csv(tmp, index=False))


def write_parquet(result: SweepResult, path: Path) -> None:
    write_atomic(path, lambda tmp: frame(result).to_parquet(tmp, index=False))


def render(console: Console, result: SweepResult) -> None:
    from rich.markup import escape
    from rich.table import Table

    from deckcheck.goldfish.output import word
    from deckcheck.odds.output import assumption_lines, styled

    title = _(
        "sweep: {format}, {games} games × {turns} turns",
        format=result.format,
        games=f"{result.games:,}",
        turns=result.turns,
    )
    table = Table(title=title)
    table.add_column(_("variant"))
    conds = list(next((v.odds for v in result.variants if v.legal), {}))
    names = sorted({n for v in result.variants for n in v.milestones})
    for cond in conds:
        table.add_column(
            _("{condition} by turn {turn}", condition=cond, turn=result.turns), justify="right"
        )
    for name in names:
        table.add_column(_("{milestone} (mean turn)", milestone=word(name)), justify="right")
    for v in result.variants:
        mark = " ★" if v.label == result.best else ""
        if not v.legal:
            first = v.violations[0] if v.violations else None
            why = _("illegal: {rule}", rule=first.rule) if first else _("illegal")
            table.add_row(escape(v.label), why, *[""] * (len(conds) + len(names) - 1))
            continue
        cells = [f"{v.odds[c][-1]:.1%}" for c in conds]
        for name in names:
            m = v.milestones.get(name)
            mean = f" ({m['mean_turn']:.2f})" if m and m["mean_turn"] is not None else ""
            cells.append(f"{m['rate']:.1%}{mean}" if m else "")
        table.add_row(escape(v.label) + mark, *cells)
    console.print(table)
    if result.best:
        console.print(
            _(
                "best by {metric}: {variant}",
                metric=escape(metric_word(result.best_metric or "")),
                variant=escape(result.best),
            )
        )
    illegal = [v for v in result.variants if not v.legal]
    for v in illegal:
        for x in v.violations:
            console.print(f"  {styled('red', escape(v.label))}: {x.rule}: {escape(x.message)}")
    assumption_lines(console, result.assumptions)


def plot(result: SweepResult, path: Path, metric: str | None) -> None:
    """One line per variant (a milestone's cumulative rate, or a condition's odds, by turn);
    a heatmap when exactly two keys were varied and a metric is named."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from deckcheck.plotting import labels

    with labels():
        _draw(result, path, metric, plt)


def metric_word(metric: str) -> str:
    """``milestone:NAME`` with the milestone's word; odds conditions stay as typed."""
    from deckcheck.goldfish.output import word

    source, sep, name = metric.partition(":")
    return f"{source}{sep}{word(name)}" if source == "milestone" else metric


def _draw(result: SweepResult, path: Path, metric: str | None, plt: Any) -> None:
    legal = [v for v in result.variants if v.legal]
    varied = [
        k for k in (legal[0].keys if legal else {}) if len({str(v.keys[k]) for v in legal}) > 1
    ]
    fig, ax = plt.subplots(figsize=(8, 5))
    if metric and len(varied) == 2:
        from deckcheck.sweep.run import metric_of

        xs = sorted({v.keys[varied[0]] for v in legal}, key=str)
        ys = sorted({v.keys[varied[1]] for v in legal}, key=str)
        grid = [[float("nan")] * len(xs) for _row in ys]
        for v in legal:
            grid[ys.index(v.keys[varied[1]])][xs.index(v.keys[varied[0]])] = metric_of(v, metric)[0]
        image = ax.imshow(grid, origin="lower", aspect="auto", cmap="viridis")
        ax.set_xticks(range(len(xs)), [str(x) for x in xs])
        ax.set_yticks(range(len(ys)), [str(y) for y in ys])
        ax.set_xlabel(varied[0])
        ax.set_ylabel(varied[1])
        fig.colorbar(image, label=metric_word(metric))
    else:
        source, _sep, name = (metric or "").partition(":")
        for v in legal:
            if source == "odds" and name.split("@")[0] in v.odds:
                values = v.odds[name.split("@")[0]]
                ax.plot(range(len(values)), values, marker="o", label=v.label)
            elif v.milestones:
                m = v.milestones.get(name) or next(iter(v.milestones.values()))
                ax.plot(range(1, len(m["by_turn"]) + 1), m["by_turn"], marker="o", label=v.label)
        ax.set_xlabel(_("turn"))
        ax.set_ylabel(metric_word(metric) if metric else _("milestone reached by turn"))
        ax.set_ylim(0, 1)
        ax.legend(fontsize="small")
    ax.set_title(
        _(
            "{format}: {games} games per variant",
            format=result.format,
            games=f"{result.games:,}",
        )
    )
    from deckcheck.plotting import save

    save(fig, path)
