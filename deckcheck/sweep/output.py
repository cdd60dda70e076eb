"""A sweep's results as a table (rich), a data frame (CSV, Parquet) and a plot."""

from __future__ import annotations

from collections.abc import Mapping
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


def short_labels(result: SweepResult, names: Mapping[str, str] | None = None) -> list[str]:
    """Each variant as people tell them apart: only the keys that differ between variants,
    a varied card as its count and name (``3 × NAME``), the side when both were played, the
    deck when several were; the full label when these would not be distinct."""
    names = names or {}
    keys = list(dict.fromkeys(k for v in result.variants for k in v.keys))
    varied = [k for k in keys if len({str(v.keys.get(k)) for v in result.variants}) > 1]
    decks = len({v.deck for v in result.variants}) > 1
    out = []
    for v in result.variants:
        parts = [Path(v.deck).stem] if decks and v.deck else []
        parts += [key_value(k, v.keys.get(k), names) for k in varied]
        out.append(", ".join(parts) or v.label)
    return out if len(set(out)) == len(out) else [v.label for v in result.variants]


def key_value(key: str, value: Any, names: Mapping[str, str]) -> str:
    """One key of a variant: ``3 × NAME`` (copies of a card), ``先攻``, ``KEY=value``."""
    from deckcheck.odds.output import side_label

    varies, _sep, ref = key.partition(":")
    if key == "side":
        return side_label(value == "play")
    if varies == "name":
        return f"{value} × {names.get(ref, ref)}"
    return f"{ref or key}={value}"


def axis_word(key: str, names: Mapping[str, str]) -> str:
    """A varied key as an axis title: ``copies of NAME``, a pilot key as written."""
    varies, _sep, ref = key.partition(":")
    if key == "side":
        return _("play or draw")
    if varies == "name":
        return _("copies of {card}", card=names.get(ref, ref))
    return ref or key


def render(console: Console, result: SweepResult, names: Mapping[str, str] | None = None) -> None:
    """The variants' table, split to fit; without the assumptions (the command prints them)."""
    from rich.markup import escape

    from deckcheck.goldfish.output import word
    from deckcheck.odds.output import styled
    from deckcheck.tables import Col, fitted, show

    title = _(
        "sweep: {format}, {games} games × {turns} turns",
        format=result.format,
        games=f"{result.games:,}",
        turns=result.turns,
    )
    labels = short_labels(result, names)
    conds = list(next((v.odds for v in result.variants if v.legal), {}))
    names_ = sorted({n for v in result.variants for n in v.milestones})
    cols = [
        Col(_("{condition} by turn {turn}", condition=c, turn=result.turns), "right") for c in conds
    ] + [Col(_("{milestone} (mean turn)", milestone=word(n)), "right") for n in names_]
    rows = []
    for v, label in zip(result.variants, labels, strict=True):
        if not v.legal:
            first = v.violations[0] if v.violations else None
            why = _("illegal: {rule}", rule=first.rule) if first else _("illegal")
            rows.append([escape(label), why, *[""] * (len(cols) - 1)])
            continue
        cells = [f"{v.odds[c][-1]:.1%}" for c in conds]
        for name in names_:
            m = v.milestones.get(name)
            mean = f" ({m['mean_turn']:.2f})" if m and m["mean_turn"] is not None else ""
            cells.append(f"{m['rate']:.1%}{mean}" if m else "")
        rows.append([escape(label) + (" ★" if v.label == result.best else ""), *cells])
    show(console, fitted(console.width, [Col(_("variant"))], cols, rows, title=title))
    if names_:
        console.print(styled("dim", _("milestone cells: share of games (mean turn)")))
    shown = dict(zip((v.label for v in result.variants), labels, strict=True))
    if result.best:
        console.print(
            _(
                "best by {metric}: {variant}",
                metric=escape(metric_word(result.best_metric or "")),
                variant=escape(shown.get(result.best, result.best)),
            )
        )
    for v in result.variants:
        for x in v.violations if not v.legal else ():
            label = styled("red", escape(shown[v.label]))
            console.print(f"  {label}: {x.rule}: {escape(x.message)}")


def metric_word(metric: str) -> str:
    """``milestone:NAME`` with the milestone's word; odds conditions stay as typed."""
    from deckcheck.goldfish.output import word

    source, sep, name = metric.partition(":")
    return f"{source}{sep}{word(name)}" if source == "milestone" else metric
