"""Goldfish: solitaire games by each game's turn rules, with pilots as data."""
