"""A tune's answer as people read it: each variant's changes, the goal's value with its 95%
interval (or "exact"), what else moved against the deck as it is, what was never tried, and
whose assumptions the value is."""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape

from deckcheck.i18n import _
from deckcheck.tune.run import TuneResult, VariantView


def value_text(v: VariantView, method: str) -> str:
    if method == "exact" or v.low == v.high:
        return _("{value:.4f} (exact)", value=v.value)
    return _("{value:.4f} (95%: {low:.4f}–{high:.4f})", value=v.value, low=v.low, high=v.high)


def moved(result: TuneResult, v: VariantView, most: int = 4) -> str:
    """The ``also`` figures that differ most from the deck as it is, signed."""
    base = result.base.also
    diffs = [(k, v.also[k] - base[k]) for k in v.also if k in base and v.also[k] != base[k]]
    diffs.sort(key=lambda kd: -abs(kd[1]))
    parts = []
    for key, diff in diffs[:most]:
        word = result.words.get(key, key)
        parts.append(f"{word} {diff:+.2f}" if key == "hand" else f"{word} {diff:+.1%}")
    return ", ".join(parts)


def render(console: Console, result: TuneResult) -> None:
    from deckcheck.tables import Col, fitted, show

    title = _("tune: {goal}", goal=" + ".join(result.goal))
    cols = [Col(_("value"), "right"), Col(_("what else moved (turn {t})", t=result.also_turn))]
    base = result.base
    rows = [[_("the deck as it is"), value_text(base, result.method), ""]]
    for i, v in enumerate(result.variants, 1):
        alike = _(" (and {n} alike)", n=v.alike - 1) if v.alike > 1 else ""
        rows.append(
            [f"{i}. {escape(v.words)}{alike}", value_text(v, result.method), moved(result, v)]
        )
    show(console, fitted(console.width, [Col(_("variant"))], cols, rows, title=title))
    if result.method == "raced":
        console.print(
            _(
                "raced on shared shuffles (seed {seed}): {games:,} games, where comparing every"
                " variant on the last round's games takes {fixed:,}",
                seed=result.seed,
                games=result.games,
                fixed=result.fixed_games,
            )
        )
    if not any(v.value > base.value for v in result.variants):
        console.print(_("No change within the limits raises the goal above the deck as it is."))
    if any(v.alike > 1 for v in result.variants):
        console.print(
            _("alike: other cards cut or added in the same places give the same exact value")
        )
    for note in result.never_tried:
        console.print("  " + escape(_("never tried: {why}", why=note)))
    console.print(honesty(result))


def honesty(result: TuneResult) -> str:
    if result.method == "exact":
        return _(
            "The odds are counted exactly under the format's deal and its assumptions; the"
            " goldfish figures are the goldfish pilot's, not a real opponent's game."
        )
    return _(
        "The value is the goldfish pilot's play under the format's assumptions, not a real"
        " opponent's game; intervals are 95% (Wilson)."
    )
