"""A sweep as a picture: a heatmap of one metric over two varied keys, each cell with its value
and 95% interval, or one curve per variant.

The heatmap's colours span the metric's whole range (0–1: it is a share or a probability), so
differences within the noise stay one colour; when every cell's interval overlaps every other's
the plot says so. ``heatmap`` holds what the picture shows, so it can be read without pixels.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from deckcheck.i18n import _
from deckcheck.sweep.output import axis_word, short_labels
from deckcheck.sweep.run import SweepResult, VariantResult, split_metric


@dataclass(frozen=True)
class Cell:
    value: float
    low: float
    high: float

    @property
    def text(self) -> str:
        """``68.7%`` and, below it, its interval (none for an exact probability)."""
        if self.low == self.high == self.value:
            return f"{self.value:.1%}"
        return f"{self.value:.1%}\n{self.low:.1%}–{self.high:.1%}"


@dataclass(frozen=True)
class Heatmap:
    x: str  # the axis titles, in words
    y: str
    xs: list[str]  # the tick labels
    ys: list[str]
    cells: list[list[Cell | None]]  # [y][x]; None: no legal variant there
    within_noise: bool  # every interval overlaps every other: no variant is shown better


def value_of(v: VariantResult, metric: str, games: int) -> Cell:
    """The metric of one variant with its 95% interval: a milestone's share of games
    (Wilson), an odds probability (exact, so no interval)."""
    from deckcheck.odds.simulate import wilson

    turns = len(next(iter(v.odds.values()), [])) - 1
    source, name, turn = split_metric(metric, list(v.odds), turns)
    if source == "milestone":
        rate = float(v.milestones[name]["rate"])
        low, high = wilson(round(rate * games), games)
        return Cell(rate, low, high)
    p = float(v.odds[name][turn])
    return Cell(p, p, p)


def varied_keys(result: SweepResult) -> list[str]:
    legal = [v for v in result.variants if v.legal]
    keys = list(legal[0].keys) if legal else []
    return [k for k in keys if len({str(v.keys.get(k)) for v in legal}) > 1]


def heatmap(result: SweepResult, metric: str, names: Mapping[str, str]) -> Heatmap:
    """The grid of ``metric`` over the two varied keys (the first across, the second up)."""
    from deckcheck.sweep.output import key_value

    kx, ky = varied_keys(result)[:2]
    legal = [v for v in result.variants if v.legal]
    xs = sorted({v.keys[kx] for v in legal}, key=_order)
    ys = sorted({v.keys[ky] for v in legal}, key=_order)
    cells: list[list[Cell | None]] = [[None] * len(xs) for _y in ys]
    for v in legal:
        cells[ys.index(v.keys[ky])][xs.index(v.keys[kx])] = value_of(v, metric, result.games)
    found = [c for row in cells for c in row if c is not None]
    overlap = max(c.low for c in found) <= min(c.high for c in found)
    return Heatmap(
        x=axis_word(kx, names),
        y=axis_word(ky, names),
        xs=[_tick(kx, x, names, key_value) for x in xs],
        ys=[_tick(ky, y, names, key_value) for y in ys],
        cells=cells,
        within_noise=len(found) > 1 and overlap,
    )


def _order(value: Any) -> tuple[int, Any]:
    return (0, value) if isinstance(value, int | float) else (1, str(value))


def _tick(key: str, value: Any, names: Mapping[str, str], key_value: Any) -> str:
    return str(value) if key.startswith("name:") else str(key_value(key, value, names))


def metric_label(metric: str) -> str:
    """The metric in words: ``first level 3 deploy by turn T`` / ``P(cond) by turn T``."""
    from deckcheck.goldfish.output import word

    source, _sep, name = metric.partition(":")
    if source == "milestone":
        return _("{milestone}: share of games", milestone=word(name))
    return _("probability of {condition}", condition=name)


def title(result: SweepResult, metric: str | None) -> str:
    decks = sorted({Path(v.deck).stem for v in result.variants if v.deck})
    return _(
        "{name} ({format}): {games} games per variant, {turns} turns",
        name=", ".join(decks) or _("(deck)"),
        format=result.format,
        games=f"{result.games:,}",
        turns=result.turns,
    ) + ("\n" + metric_label(metric) if metric else "")


def plot(result: SweepResult, path: Path, metric: str | None, names: Mapping[str, str]) -> None:
    """A heatmap when two keys were varied and a metric is named; else one curve a variant
    (a milestone's share by turn, or a condition's odds)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from deckcheck.plotting import labels, save

    with labels():
        fig, ax = plt.subplots(figsize=(8, 5), dpi=120)
        if metric and len(varied_keys(result)) >= 2:
            _draw_heatmap(fig, ax, heatmap(result, metric, names), metric)
        else:
            _draw_curves(ax, result, metric, names)
        ax.set_title(title(result, metric), fontsize="medium")
        save(fig, path)


def _draw_heatmap(fig: Any, ax: Any, grid: Heatmap, metric: str) -> None:
    values = [[float("nan") if c is None else c.value for c in row] for row in grid.cells]
    image = ax.imshow(values, origin="lower", aspect="auto", cmap="viridis", vmin=0, vmax=1)
    for j, row in enumerate(grid.cells):
        for i, cell in enumerate(row):
            if cell is not None:
                colour = "black" if cell.value > 0.6 else "white"
                ax.text(i, j, cell.text, ha="center", va="center", fontsize=8, color=colour)
    ax.set_xticks(range(len(grid.xs)), grid.xs)
    ax.set_yticks(range(len(grid.ys)), grid.ys)
    ax.set_xlabel(grid.x)
    ax.set_ylabel(grid.y)
    fig.colorbar(image, label=metric_label(metric))
    if grid.within_noise:
        note = _(
            "the differences are within the noise: every {level} interval overlaps the others",
            level="95%",
        )
        fig.text(0.01, 0.01, note, fontsize="small", color="firebrick")


STYLES = ("-", "--", "-.", ":")
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")


def _draw_curves(
    ax: Any, result: SweepResult, metric: str | None, names: Mapping[str, str]
) -> None:
    source, _sep, name = (metric or "").partition(":")
    labels = short_labels(result, names)
    shown = metric
    for n, (v, label) in enumerate(zip(result.variants, labels, strict=True)):
        if not v.legal:
            continue
        style = {"linestyle": STYLES[n % len(STYLES)], "marker": MARKERS[n % len(MARKERS)]}
        cond = name.split("@")[0]
        if source == "odds" and cond in v.odds:
            ax.plot(range(len(v.odds[cond])), v.odds[cond], label=label, **style)
        elif v.milestones:
            if name not in v.milestones:
                name = next(iter(v.milestones))
            shown = f"milestone:{name}"
            m = v.milestones[name]
            ax.plot(range(1, len(m["by_turn"]) + 1), m["by_turn"], label=label, **style)
    ax.set_xlabel(_("turn"))
    ax.set_ylabel(metric_label(shown) if shown else _("probability"))
    ax.set_ylim(0, 1.02)
    ax.grid(alpha=0.3)
    ax.legend(fontsize="small")
