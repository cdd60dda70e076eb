"""The ChaosTCG tables a format may carry, ``[partner]``, ``[os_policy]`` and ``[[pure]]``
(their checks: checks.py), and how the partner rule and goldfish find them in a loaded format."""

from __future__ import annotations

from typing import Literal

from deckcheck.sdk import Check, FormatView


class Partner(Check):
    """Chaos partner choice (§6.2.2): who may be partner, and whether to warn without one."""

    candidate_types: tuple[str, ...]
    partner_types: tuple[str, ...]
    forbid_keywords: tuple[str, ...] = ()
    forbid_appends: tuple[str, ...] = ()
    warn_without_partner_card: bool = True
    warning_source: str | None = None


class OsPolicy(Check):
    """``single``: every card of the deck shares one OS, up to equivalences and mixing groups."""

    mode: Literal["any", "single"]
    appendix_groups: bool = True
    equivalences: tuple[tuple[str, ...], ...] = ()
    mixing_groups: tuple[tuple[str, ...], ...] = ()
    every_title_appends: tuple[str, ...] = ()
    sections: tuple[str, ...] = ("main", "extra")


class Pure(Check):
    """A deck with any card carrying the append word ``append`` must consist only of such cards
    (the format cites the rule: formats/chaos-standard.toml)."""

    append: str
    sections: tuple[str, ...] = ("main", "extra")


def partner_of(fmt: FormatView) -> Partner | None:
    """The format's ``[partner]`` table, if it has one."""
    for table in fmt.tables("partner"):  # a loop, not next() over a generator: once a deck
        if isinstance(table, Partner):  # validated (benchmarks/validate_bench.py)
            return table
    return None


def os_policy_of(fmt: FormatView) -> OsPolicy | None:
    """The format's ``[os_policy]`` table, if it has one."""
    return next((t for t in fmt.tables("os_policy") if isinstance(t, OsPolicy)), None)
