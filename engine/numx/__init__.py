"""NUM-X (RULES.md section 4): the card game of tricks and score rows."""

from engine.numx.cards import CARDS, DEFAULT_MALUS, Card, deck
from engine.numx.game import GAME, Numx, can_add_rainbow, final_scores, waiting_on
from engine.numx.scoring import CountStep, count_steps, score
from engine.numx.state import MODES, NumxState

__all__ = ["CARDS", "DEFAULT_MALUS", "GAME", "MODES", "Card", "CountStep", "Numx", "NumxState",
           "can_add_rainbow", "count_steps", "deck", "final_scores", "score", "waiting_on"]
