"""Check kinds: the registry (checks/kind.py) and deckcheck's own kinds, one module per family
(sections, copies, counts, restrictions). Game-specific kinds register from their game's checks
module (games/<game>/checks.py) through the same ``register_kind``."""

from __future__ import annotations

from deckcheck.checks.kind import Check as Check
from deckcheck.checks.kind import CheckFn as CheckFn
from deckcheck.checks.kind import CheckKind as CheckKind
from deckcheck.checks.kind import Row as Row
from deckcheck.checks.kind import kinds as kinds
from deckcheck.checks.kind import register_kind as register_kind
from deckcheck.checks.kind import unregister_kind as unregister_kind
