"""Nambarz (RULES.md section 3): a card game of concordances and calculations.

Where each rule lives:

* ``cards.py``: the 92-card deck as data (3.2), the animal table ``ANIMALS``
  (one place, to be replaced by the real one), jokers by difficulty 12/8/4
  (3.3), concordance by number or drawing (3.4 a).
* ``calc.py``: left to right and brackets evaluation (3.4 b3-b4), ``reaches``,
  ``simplest`` (b5), whole numbers >= 0 and exact division at every step (b6),
  ``calculation_bonus`` 7 × (k − 3) and ``rank_points`` 40/32/25/19/14/0 (3.5).
* ``state.py``: the options and the state.
* ``game.py``: dealing (7 cards, first target never a joker, reshuffle of the
  discard), every action of 3.4 and the jokers' follow-ups (3.6), going out,
  end of round (2-5 and 6-12 players), rounds, extra rounds, teams; the move
  format and how a wrong typed result becomes evidence are in its docstring.
* ``bots.py``: three bot levels and ``missed_calculation`` (the report's
  opportunities).

L decisions, kept as data or options:

* The animal table: pairs (n, n + 5) share two animals, A1..A7 are placeholders
  (``cards.ANIMALS``).
* A joker turned up first is buried at the bottom of the pile (``game._deal``).
* Simplest = no proper part of 2 cards or more of the played cards reaches the
  target (the stricter "anywhere in the hand" reading is not offered).
* Intermediate results are whole numbers >= 0, division exact (no option for
  negatives or fractions).
* The last player of a 2-5 round is paid for their rank (option ``last_paid``).
* A change joker's follow-up card must be of the joker's family; a lone change
  joker binds the next player to one card of that family, a joker, or a draw.
  Jokers may chain (a play-again joker may be followed by another joker).
* Extra rounds while the leaders tie (option ``tie_break``).
* Young players: option ``young`` (or ``operations="+-"``).
* Refused moves are refused, not penalised (3.7: no "draw 3" mode).
* A round where nobody can play or draw (pile and discard empty) ends after a
  full turn of passes, those still holding cards ranked by fewer cards.
"""

from engine.nambarz.bots import LEVELS, bot_moves, missed_calculation
from engine.nambarz.calc import (
    calculation_bonus,
    rank_points,
    reaches,
    simplest,
    smaller_part,
    solve,
)
from engine.nambarz.cards import ANIMALS, JOKER_KINDS, Card, deck, match_kind
from engine.nambarz.game import GAME, Nambarz
from engine.nambarz.state import NambarzState, Options

__all__ = [
    "ANIMALS", "GAME", "JOKER_KINDS", "LEVELS", "Card", "Nambarz", "NambarzState", "Options",
    "bot_moves", "calculation_bonus", "deck", "match_kind", "missed_calculation",
    "rank_points", "reaches", "simplest", "smaller_part", "solve",
]
