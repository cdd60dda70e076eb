"""Deck tuning sweeps: the same questions (odds, goldfish milestones) over many variants of a
deck, or over every deck of a folder, in-process or on a Dask cluster."""

from deckcheck.sweep.run import SweepRequest, SweepResult, VariantResult, sweep
from deckcheck.sweep.variants import Variant, parse_vary

__all__ = ["SweepRequest", "SweepResult", "Variant", "VariantResult", "parse_vary", "sweep"]
