"""A format's parameters (``[parameters]``: opening hand, mulligan, …): each a fact later tools
need, with its source; checked against what the game's code reads (``Construction.all_params``)."""

from __future__ import annotations

from deckcheck import plugins
from deckcheck.checks.table import Strict
from deckcheck.i18n import _
from deckcheck.plugins.contract import ParamValue
from deckcheck.plugins.deal import COMMON_MULLIGANS
from deckcheck.wording import a_an, cited, label


class Parameter(Strict):
    """A fact later tools need (opening hand, mulligan, ...), with its source.

    ``assumption = true`` marks facts the rulebooks do not give; every output shows them.
    """

    value: int | float | str | bool
    source: str
    assumption: bool = False
    note: str | None = None



# sources that make a rule an assumption: printed with every report on the format
ASSUMED = ("outside the rulebooks", "fan source", "deckcheck's reading")


def assumed(source: str) -> bool:
    return source.casefold().startswith(ASSUMED)


def param_name(game: str, key: str) -> str:
    """A parameter as a message names it: its label in the language with its id after it, for
    those who edit format files (``opening hand (opening_hand)``, ``初手の枚数（opening_hand）``:
    issue 34); the id alone when the game gives it no label."""
    declared = plugins.get(game).construction.all_params().get(key)
    if declared is None or not declared.label:
        return key
    return _("{label} ({key})", label=label(game, declared.label), key=key)


def param_value(value: ParamValue) -> str:
    """A value as a format file writes it (TOML: ``false``, not Python's ``False``)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def param_note(game: str, key: str, p: Parameter, with_note: bool = True) -> str:
    """``hand limit (hand_limit) = 8 (source; note)``: an assumed parameter, as reports list
    it; ``with_note=False``: without the format's note (odds and goldfish)."""
    name, value, source = param_name(game, key), param_value(p.value), cited(game, p.source)
    if p.note and with_note:
        return _(
            "{key} = {value} ({source}; {note})",
            key=name,
            value=value,
            source=source,
            note=label(game, p.note),
        )
    return _("{key} = {value} ({source})", key=name, value=value, source=source)


def check_parameters(parameters: dict[str, Parameter], spec: plugins.GameSpec) -> None:
    """Every parameter a format declares must be one the game's code reads, of its type."""
    known = spec.construction.all_params()
    for key, param in parameters.items():
        if key not in known:
            raise ValueError(
                _(
                    "parameters.{key}: nothing in deckcheck reads it for {game} (the parameters "
                    "it reads: {known})",
                    key=key,
                    game=spec.id,
                    known=", ".join(sorted(known)),
                )
            )
        wanted = known[key].type
        value = param.value
        ok = isinstance(value, bool) if wanted is bool else (
            isinstance(value, wanted) and not isinstance(value, bool)
        )
        if not ok:
            raise ValueError(
                _(
                    "parameters.{key}: must be {a_type}, not {value}",
                    key=key,
                    a_type=a_an(wanted.__name__),
                    value=repr(value),
                )
            )
        choices = known[key].choices
        if choices and value not in choices:
            raise ValueError(
                _(
                    "parameters.{key}: {value} is not one of {choices}",
                    key=key,
                    value=repr(value),
                    choices=", ".join(choices),
                )
            )
        least = known[key].minimum
        if least is not None and isinstance(value, int) and value < least:
            raise ValueError(
                _(
                    "parameters.{key}: must be at least {least}, not {value}",
                    key=key,
                    least=least,
                    value=repr(value),
                )
            )
        mulligans = (*COMMON_MULLIGANS, *spec.deal.mulligans) if key == "mulligan" else ()
        if mulligans and value not in mulligans:  # the core's mulligans, then the game's own
            raise ValueError(
                _(
                    "parameters.mulligan: {value} is not one of {choices}",
                    value=repr(value),
                    choices=", ".join(mulligans),
                )
            )
