"""What every check table is: a strict, frozen pydantic model; a ``Check`` also names the rule
it reports and where that rule comes from. Below the validator's slots (slots.py), which read
the copy tables (copy_tables.py) built on these."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from deckcheck.models import Severity


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Check(Strict):
    """What a check reports: its rule id, where the rule comes from, and how severe it is."""

    rule: str
    source: str
    severity: Severity = "error"
