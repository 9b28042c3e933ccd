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
* ``bots.py``: three bot levels, ``missed_calculation`` (the skills of a
  calculation a pupil could have made, for a concordance or a draw) and
  ``opportunity`` (Number Quest's ``(player, numbers, could)`` shape, at the
  start of a turn). Bots look at calculations of up to 6 cards and check at
  most 120 sets of cards a move, so a hand grown big stays fast.

L decisions, kept as data or options:

* The animal table: pairs (n, n + 5) share two animals, A1..A7 are placeholders
  (``cards.ANIMALS``).
* A joker turned up first is buried at the bottom of the pile (``game._deal``).
* Simplest = no proper part of 2 cards or more of the played cards reaches the
  target; the stricter "no shorter calculation anywhere in the hand" reading
  is the option ``strict_simplest`` (off).
* Intermediate results are whole numbers >= 0, division exact. Not done: the
  ``fractions`` option of RULES 0.1 and negatives.
* The last player of a 2-5 round is paid for their rank (option ``last_paid``).
* A change joker's follow-up card must be of the joker's family; a lone change
  joker binds the next player to one card of that family, a joker, or a draw.
  Jokers may chain (a play-again joker may be followed by another joker).
* Extra rounds while the leaders tie (option ``tie_break``): everybody plays
  them, and the game ends at the first round end without a tie at the top.
  The player with the most points starts each new round (lowest seat on a tie).
* Young players: option ``young`` (or ``operations="+-"``).
* Refused moves are refused, not penalised (3.7: no "draw 3" mode). A wrong
  typed result is not refused: it is recorded (attempts, ``wrong_result``)
  and the pupil tries again with the cards still in hand.
* Drawing is always allowed, even with a play in hand (3.4 d says "if the
  player has no legal play"): the missed calculation is reported instead.
* Tags: ``multi_step`` from 3 cards; ``left_to_right`` for a calculation of 3
  cards or more laid left to right (with 2 cards there is no order to follow);
  ``brackets`` for a calculation of the brackets variant that is not left to
  right. Each is one attempt per calculation, operands = the cards' numbers.
* A round where nobody can play or draw (pile and discard empty) ends after a
  full turn of passes, those still holding cards ranked by fewer cards.
"""

from engine.nambarz.bots import LEVELS, bot_moves, missed_calculation, opportunity
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
    "opportunity", "rank_points", "reaches", "simplest", "smaller_part", "solve",
]
