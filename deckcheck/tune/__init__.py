"""Deck tuning: which legal changes of a deck raise a goal, found by search (exact for odds
goals, raced on shared shuffles for goldfish goals)."""
