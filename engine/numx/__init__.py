"""NUM-X (RULES.md section 4): the card game of tricks and score rows."""

from engine.numx.cards import CARDS, DEFAULT_MALUS, Card, deck
from engine.numx.scoring import CountStep, count_steps, score

__all__ = ["CARDS", "DEFAULT_MALUS", "Card", "CountStep", "count_steps", "deck", "score"]
