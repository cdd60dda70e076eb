"""Check tables: the registry (checks/table.py) and deckcheck's own check tables, one module
per family (sections, copies, counts, restrictions). A game's own are declared by its spec
(``GameSpec.construction.check_tables``) and apply to that game's formats only."""

from __future__ import annotations

from deckcheck.checks.table import Check as Check
from deckcheck.checks.table import CheckFn as CheckFn
from deckcheck.checks.table import CheckTable as CheckTable
from deckcheck.checks.table import Row as Row
from deckcheck.checks.table import check_tables as check_tables
from deckcheck.checks.table import register_table as register_table
from deckcheck.checks.table import unregister_table as unregister_table
