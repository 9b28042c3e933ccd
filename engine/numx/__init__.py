"""NUM-X (RULES.md section 4, decisions of 0.3 and 0.4): tricks and score rows.

Where each rule lives:

* ``cards.py``: the deck (4.1): 102 numbered cards, 2 Jokers, 4 Infini, Num-X,
  16 actions; :func:`deck` gives the 125 played cards (109 without actions).
  The Malus (X, Y) values are the option ``malus`` (placeholders of 4.12).
* ``state.py``: the state, the modes of 4.2 (``MODES``: Speed Run 13 cards,
  X-Game 10 cards and 2 rounds, Family 12 cards without actions) and options.
* ``tricks.py``: what a trick may be (4.6).
* ``flow.py``: turns, end of a tour, end of a round (4.4, 4.6, 4.9).
* ``rainbow.py``: the out-of-turn Rainbow and :func:`can_add_rainbow` (4.6).
* ``distribution.py``: the winner's hand-out (4.7).
* ``actions.py``: Flip, Swipe, Éclair, Quantique, Block, Malus and the
  Malus targets' choices (4.8).
* ``scoring.py``: :func:`count_steps` and :func:`score` (4.10).
* ``count.py``: the pupil's count phase (0.3, 4.10).
* ``game.py``: the engine contract (``GAME``), :func:`waiting_on`,
  :func:`task` (what a tablet asks for now), the moves and the views.
* ``bots.py``: :func:`bot_moves` at the levels ``beginner``, ``greedy``, ``strategist``.

Moves (dicts with a ``type``): ``choose`` {card}; ``trick`` {cards, value
(for Jokers alone), from_row (a face-up score card taken back)}; ``action``
{card, target, direction | mine, theirs | team, from_row}; ``draw`` then a
``trick``/``action`` with the drawn card (``keep`` in rulebook 1); ``pass``; ``rainbow``
{card, trick, size} from any player; ``distribute`` {cards: [{card, to,
face_up, end}]}; ``malus_discard`` {cards}, ``malus_remove`` {indices},
``malus_place`` {cards: [{card, face_up, end}]}; ``refill`` {choice:
top_up|redraw}; ``count_group`` {value | colour, worth}; ``count_total`` {total}.

Interpretations taken (RULES marks them M or L; each is data or an option
where the rule book leaves room):

* Setup: any card may be chosen; a player may change their choice until all
  have chosen; no unique value: the lowest, ties at random; non-numbered
  cards count as infinite (4.4, L).
* Tricks: same size as the trick below, +1 with a Rainbow, -1 with a Shadow
  (M); Joker for a classic card of any value; Infini and Num-X alone; Infini
  may open a tour; Infini over Infini refused (L).
* A turn that does not cover (action, draw kept, pass) lets the trick stand;
  the tour ends when the turn comes back to the top trick's owner and all the
  others let it stand. A forced pass (Block) lets it stand too, unless the
  trick's owner laid the Block on that very trick: after the owner's "Block
  all" the owner plays again (seed example 2); after another player's Block
  on the last who could cover, or a Block its player laid before they laid or
  completed the top trick, the owner wins the tour (4.6, 4.8). A drawn card
  that can be played is played (4.5). Games of the option ``rulebook`` 1
  (stored before) keep the old reading: no forced pass lets the trick stand, a
  drawn card may be kept; games of rulebook 2 let an owner's Block laid before
  their trick bring the turn back to them.
* A blocked player is asked when the turn reaches them, whatever they hold:
  the forced pass, or Num-X if they hold it (rulebook 4), so whose turn it is
  never tells the other tablets whether they hold Num-X. Games of rulebooks
  1 to 3 keep passing over at once a blocked player without Num-X.
* Out-of-turn Rainbow: allowed to any player but the trick's owner (a
  blocked player too: it is not their turn), when no decision is pending (a
  drawn card, a Shadow's bonus, a Malus choice); the completer owns the trick
  from then on (L); play resumes after the completer, and the players it
  jumps over lose their turn (event ``lost_turn``): those from the current
  one up to the completer when the completer's turn on this trick was still
  to come; no one when it had come already (play goes back), nor when the
  Rainbow was the completer's last card. A move that names a trick (``trick``,
  ``size``) no longer on top is refused with ``trick_changed``. The server
  should ask bots it does not wait on too (``bot_moves`` then returns their
  Rainbow, or nothing).
* Laying one's last card (a trick, a Rainbow, an action) wins the tour and
  ends the round after the distribution (4.9, L).
* Distribution: >= ceil(E/2) cards, <= floor(k/2) per player when k > 1 (M);
  when Quantique leaves too few receivers, as many as the per-player limit
  allows (L); Jokers, Infini, Num-X are not score cards (L); a virgin tour
  gives one numbered card of the tour (L).
* Actions: see ``actions.py`` ("all", Swipe's conveyor belt, Éclair by
  position, Quantique also guards against Flip, Malus choices asked in turn,
  a hand keeps one card). Action cards played or discarded leave the game.
* X-Game: the score rows carry over, one count at the end; round 2 starts
  with the smallest unique face-up score card; discards are shuffled back.
* The pile runs out: the discard is shuffled into it (L).
* Count (0.3): each pupil values each group of ``count_steps`` in order (a
  ``scoring`` attempt, and a ``mul`` attempt when the worth is value x count),
  then types the total (an ``add`` attempt) when there are two groups or more.
  A wrong step is recorded and the right worth shown (event ``expected``).
  All rows are revealed for the count. Family keeps scoring rules 2 and 4
  (option ``rules``); X-Trem belongs to rule 3. Teams: each member counts the
  team's merged row.
"""

from engine.numx.bots import LEVELS, bot_moves
from engine.numx.cards import CARDS, DEFAULT_MALUS, Card, deck
from engine.numx.game import GAME, Numx, can_add_rainbow, final_scores, task, waiting_on
from engine.numx.scoring import CountStep, count_steps, score
from engine.numx.state import MODES, NumxState

__all__ = [
    "CARDS", "DEFAULT_MALUS", "GAME", "LEVELS", "MODES", "Card", "CountStep", "Numx",
    "NumxState", "bot_moves", "can_add_rainbow", "count_steps", "deck", "final_scores", "score",
    "task", "waiting_on",
]
