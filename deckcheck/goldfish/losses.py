"""The ways a goldfish game is lost, as the game's spec declares them (``GameSpec.play.losses``).

An engine ends a game with ``Record.loss`` set to a declared name; a batch engine reports
``1 +`` its index. Anything else is a bug in that game's package, reported by game and reason
(``GameContractError``: exit 70, HTTP 500) rather than as a traceback.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray
from pydantic import BaseModel

from deckcheck.errors import GameContractError
from deckcheck.i18n import _
from deckcheck.plugins.registry import GameSpec


class LossReason(BaseModel):
    """A way the game's spec says a game can be lost: ``summary.losses`` keys are names."""

    name: str
    label: str
    rule: str


def reasons(spec: GameSpec) -> list[LossReason]:
    """The spec's losses, their label and rule in the current language."""
    return [LossReason(name=x.name, label=_(x.label), rule=_(x.rule)) for x in spec.play.losses]


def _declared(spec: GameSpec) -> str:
    return ", ".join(loss.name for loss in spec.play.losses) or _("none")


def code(spec: GameSpec, reason: str) -> int:
    """1 + the index of ``reason`` in the spec's losses."""
    for i, loss in enumerate(spec.play.losses):
        if loss.name == reason:
            return i + 1
    raise GameContractError(
        _(
            "game {game}: its engine ended a game with loss reason {reason}, which its spec "
            "does not declare (declared: {declared})",
            game=repr(spec.id),
            reason=repr(reason),
            declared=_declared(spec),
        )
    )


def check_codes(spec: GameSpec, loss: NDArray[np.int8]) -> None:
    """A batch engine's loss codes are 0 (none) or 1 + an index of the spec's losses."""
    worst = int(loss.max()) if loss.size else 0
    if worst > len(spec.play.losses):
        raise GameContractError(
            _(
                "game {game}: its batch engine ended a game with loss code {code}, but its "
                "spec declares {n} loss reason(s) ({declared})",
                game=repr(spec.id),
                code=worst,
                n=len(spec.play.losses),
                declared=_declared(spec),
            )
        )
