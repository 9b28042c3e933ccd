"""The presenter contract and the defaults most games share."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from functools import lru_cache
from itertools import takewhile
from typing import Any, Generic, TypeVar

from django import forms
from django.conf import settings
from django.http import QueryDict
from django.template.loader import render_to_string
from django.urls import get_script_prefix, get_urlconf, reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext_lazy

from engine.core import Attempt, Game, IllegalMove, Outcome
from games import selectors

# A player's colour on every board, and its name for those who can't see it.
# A token's number is white on the first three, dark on the yellow (static/css/numbo.css,
# tests/test_token_contrast.py): change them together.
PLAYER_COLOURS = ["#c62828", "#1565c0", "#2e7d32", "#f9a825"]
PLAYER_COLOUR_NAMES = ["red", "blue", "green", "yellow"]

MAX_FIELD = 40  # no move field needs more; a huge paste is cut before it reaches the engine

Kept = TypeVar("Kept")


class KeptHtml(Generic[Kept]):
    """Drawn HTML (or what a page is drawn from) kept in the process, the
    least recently used dropped first: a hit costs a dict lookup, not a round
    trip. Threads share it (gthread)."""

    def __init__(self, most: int) -> None:
        self.most = most
        self._kept: OrderedDict[Hashable, Kept] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._kept)

    def __contains__(self, key: Hashable) -> bool:
        return key in self._kept

    def get(self, key: Hashable, draw: Callable[[], Kept]) -> Kept:
        with self._lock:
            html = self._kept.get(key)
            if html is not None:
                self._kept.move_to_end(key)
                return html
        html = draw()
        with self._lock:
            self._kept[key] = html
            if len(self._kept) > self.most:
                self._kept.popitem(last=False)
        return html


# A board is 15-25 kB: a class or three of tables, some MB per process.
_drawn: KeptHtml[str] = KeptHtml(most=256)


# A board whose squares are buttons carries the table's version and the tap's
# id; it is drawn with these slots and each request fills in its own values.
VERSION_SLOT = "board-version-slot"
TAP_SLOT = "board-tap-slot"
# Its pieces (squares) are kept for every table: each board fills in its own
# table's address once, as it is drawn.
MOVE_URL_SLOT = "board-move-url-slot"


def drawn_once(kind: str, what: Hashable, draw: Callable[[], str],
               fill: dict[str, str] | None = None) -> str:
    """A board's SVG, drawn once per process for what it shows.

    ``what`` must name everything ``draw`` reads (the tokens, the pawns, the
    names, which squares are buttons); boards that show the same are drawn
    once and served to every tablet at every table until they change. Most
    moves (a calculation step, a pass) change no square, so the key is the
    board's content, not the table's version. ``fill`` maps the slots a
    board of buttons was drawn with (VERSION_SLOT, TAP_SLOT) to this
    request's values. Kept in the process, not in Redis: a hit costs a dict
    lookup, not a round trip."""
    html = _drawn.get((kind, what, get_language()), draw)
    for slot, value in (fill or {}).items():
        html = html.replace(slot, value)
    return mark_safe(html)  # noqa: S308 - our own rendered template


# A fragment (a card, the keypad, a row of players) is 0.2-3 kB: some MB per
# process hold every card of every deck in both languages and the live parts
# of a school's tables.
_fragments: KeptHtml[str] = KeptHtml(most=4096)


def drawn_fragment(key: Hashable, draw: Callable[[], str]) -> str:
    """A small piece of a page, drawn once per process for ``key`` (the
    ``{% drawn %}`` tag's: the template, everything it may read, the language)."""
    return _fragments.get(key, draw)


# Set in a fragment's own context (an argument can't be named so: token_kwargs
# takes identifiers only, and this is not one): its move forms leave
# MOVE_FIELDS_SLOT for the page that shows it to fill with its own fields.
IN_FRAGMENT = "numbo:fragment"
MOVE_FIELDS_SLOT = "<!--move-fields-slot-->"
# Where the page the watchers of a table share leaves out what only one of
# them may see (their hand): games.watching fills it per watcher.
OWN_SLOT = "<!--watcher-own-->"
# Where a move form drawn in a kept piece says why the move it sent was
# refused: next to the choices the pupil is correcting, not at the top of a
# page they have scrolled down (games.views.tables.table_context fills it).
FORM_NOTE_SLOT = "<!--form-note-slot-->"


def you_slot(player: int) -> str:
    """Where the watchers' page marks a player "(you)" (games.watching fills
    in each watcher's own; the others' stay comments)."""
    return f"<!--you:{player}-->"


def you_class_slot(player: int) -> str:
    """Where the watchers' page gives a player's seat the class " you", inside
    a class attribute: games.watching fills in each watcher's own and clears
    the others."""
    return f"<!--you-class:{player}-->"


# A pupil's hand zone is 2-30 kB and changes with their hand: kept apart from
# the fragments, so that a school's hands do not push its cards out.
_pieces: KeptHtml[str] = KeptHtml(most=2048)


def drawn_piece(
    kind: str, what: Hashable, template: str, context: Callable[[], dict[str, Any]]
) -> SafeString:
    """``template`` drawn with ``context()`` once per process for ``what`` and
    the language, like a ``{% drawn %}`` fragment whose key a presenter builds
    from what the piece shows (card ids, not the dicts a page draws them
    from): on a hit nothing of it is worked out. ``what`` must name
    everything ``context`` reads, as ``drawn_once``'s; the page shows the
    piece with ``{% fragment %}``, which gives its forms the page's move
    fields."""

    def draw() -> str:
        return render_to_string(template, {**context(), IN_FRAGMENT: True})

    return mark_safe(_pieces.get((kind, what, get_language()), draw))  # noqa: S308


# What a table's log says of its last moves, for those moves (their key), the
# names and the language: every tablet at the table reads the same moves, and
# the log was a tenth of a card game's page.
_words: KeptHtml[tuple[str, ...]] = KeptHtml(most=1024)


def kept_words(
    kind: str, what: Hashable, write: Callable[[], tuple[str, ...]]
) -> tuple[str, ...]:
    """``write()``, worked out once per process for ``what`` (which must name
    everything it reads) and the language."""
    return _words.get((kind, what, get_language()), write)


def recent_moves(table, count: int) -> tuple[list[tuple], tuple]:
    """The table's last ``count`` moves, newest first, as (number, player,
    pupil id, events), and a key of what they hold (selectors.recent_moves),
    read once per table object: a move's answer and the pages drawn with it
    share the saved table. The live card's select, written out in SQL: the
    ORM took longer to build it than the database to answer."""
    kept = table.__dict__.get("_recent_moves")
    if kept is None or kept[0] != (table.version, count):
        kept = table.__dict__["_recent_moves"] = (
            (table.version, count), selectors.recent_moves(table.pk, count)
        )
    return kept[1]


@lru_cache(maxsize=8192)
def _url(name: str, pk: int | None, prefix: str, urlconf: str | None) -> str:
    return reverse(name, args=[] if pk is None else [pk], urlconf=urlconf)


def table_url(name: str, pk: int | None = None) -> str:
    """``reverse(name, args=[pk])``, kept per process: a table's page asks for
    the same few URLs at every draw (a reverse() is some 30 µs)."""
    return _url(name, pk, get_script_prefix(), get_urlconf() or settings.ROOT_URLCONF)


@dataclass(frozen=True)
class FeedbackLine:
    text: str
    wrong: bool = False

    def __str__(self) -> str:
        return self.text


class Presenter:
    """Subclass per game. ``move_fields`` maps a move type to the form fields
    it reads; fields in ``number_fields`` must be whole numbers."""

    slug: str = ""
    title: str = ""
    # The line that names the game on the start form.
    pitch: str = ""
    # What makes a turn a chance to use an operation, in the game's words, for
    # the pupil report's "Operations chosen" ("" for a game that records none).
    chance_words: str = ""
    engine: Game
    # The game's own fields on the start form (a Form class whose
    # ``engine_options(second_chance)`` gives the engine's options) and the
    # template that lays them out with the name ``options``.
    options_form: type[forms.Form]
    # The game's own stylesheet (under static/), for the pages that show its
    # boards beside other things: the live view.
    stylesheet: str | None = None
    # Whether the start form's "second chance after a wrong step" means
    # something in this game.
    second_chance: bool = True
    # The module of the game's own pages (its ``urlpatterns``), if it has some.
    urls: str | None = None
    move_fields: dict[str, tuple[str, ...]] = {}
    number_fields: frozenset[str] = frozenset()
    signed_fields: frozenset[str] = frozenset()

    @property
    def options_template(self) -> str:
        return f"games/{self.slug}/_options.html"

    def options_preview(self, query: QueryDict) -> str | None:
        """A part of the start form redrawn while the teacher chooses (htmx),
        when ``query`` asks for one; None otherwise."""
        return None

    def options_initial(self, options: dict[str, Any]) -> dict[str, Any]:
        """The game's start-form fields showing these engine options (a plan
        of the class report's "Start these tables"); {} shows the usual ones."""
        return {}

    # ------------------------------------------------------------------ moves

    def read_move(self, post: QueryDict) -> dict[str, Any] | None:
        """The move a form posted, as the engine wants it; None if the type is
        unknown, and ``{"type": ..., "invalid": field}`` for a field that is
        not what it must be (the page says which)."""
        kind = post.get("type", "")
        if kind not in self.move_fields:
            return None
        move: dict[str, Any] = {"type": kind}
        for name in self.move_fields[kind]:
            raw = post.get(name, "").strip()[:MAX_FIELD]
            if name in self.number_fields:
                digits = raw[1:] if name in self.signed_fields and raw.startswith("-") else raw
                # isdigit() alone accepts "²" and other digits int() refuses.
                if not (digits.isascii() and digits.isdigit()):
                    return {"type": kind, "invalid": name}
                move[name] = int(raw)
            else:
                move[name] = raw
        return move

    def invalid_note(self, move: dict[str, Any] | None) -> str:
        """What the pupil reads when ``read_move`` refused the form."""
        from django.utils.translation import gettext as _

        return _("Type a number with the keypad.")

    def check(self, table, state, player: int, move: dict[str, Any]) -> None:
        """A rule of the session beyond the engine's (raise IllegalMove)."""

    # ------------------------------------------------------------------ turns

    def waiting_on(self, state) -> set[int]:
        """The players the game waits on now (for turn-based games, one)."""
        current = getattr(state, "current", None)
        return set() if current is None else {current}

    def current(self, state) -> int | None:
        """The one player whose turn it is, or None in a game everyone plays at once."""
        return getattr(state, "current", None)

    def scene(self, state, player: int | None) -> str:
        """What a player's move depends on. A move sent from an older version
        of the table still goes through when the player's scene is the same
        now: in a game everyone plays at once, another player's move (a
        computer's, often) must not send a child back to redo theirs. ''
        (the default): any change makes an older move stale. The player's
        page carries it (its forms' ``seen`` field): it is made of what they
        see only, or it would tell them a card hidden from them."""
        return ""

    def turn_key(self, state) -> Any:
        """Changes when a new turn starts: the clock of timed turns restarts."""
        return (getattr(state, "current", None), getattr(state, "turn", None))

    def bot_moves(self, state, player: int, level: str, seed: int) -> list[dict[str, Any]]:
        raise NotImplementedError

    def bystander_moves(self, state, player: int, level: str, seed: int) -> list[dict[str, Any]]:
        """Moves a computer player makes now though the game does not wait on
        it (NUM-X's out-of-turn Rainbow); none in most games. Asked after every
        move for each such computer player: it must be cheap when it says no."""
        return []

    def may_move_out_of_turn(self, state, player: int) -> bool:
        """Whether ``player`` might now make a move though the game does not
        wait on them, as far as every player can tell (NUM-X: a Rainbow of
        the last trick's value, which only their hand says). Read from what
        every tablet sees, never from a hidden card: a computer player that
        may is why the tablets keep polling (services.server_may_move)."""
        return False

    # Games of open information, where every player the game is not waiting on
    # sees the same page but for the "(you)" mark (games.watching).
    watchers_share_a_page = False

    def watching(self, table, state, player: int | None) -> bool:
        """Whether this player, on their own tablet, sees the watchers' page:
        the game goes on without them and no clock ticks on the page."""
        return (
            self.watchers_share_a_page
            and player is not None
            and table.session.tablets == table.session.Tablets.OWN
            and self.engine.result(state) is None
            and player not in self.waiting_on(state)
            and not self.deadline(state)
        )

    def watcher_own(self, table, state, player: int, context: dict[str, Any]) -> str:
        """What fills the watchers' page's ``OWN_SLOT`` for
        this watcher: the piece of their own page no other watcher may see
        (their hand), as their own render draws it. ``context`` is the shared
        page's. Only asked when the page has the slot."""
        raise NotImplementedError

    def deadline(self, state) -> int | None:
        """Seconds per turn when turns are timed."""
        return None

    def time_limit_minutes(self, state) -> int | None:
        """Minutes after which the server ends the game."""
        return None

    # ------------------------------------------------------------------ evidence

    def rule_after_end(self, state, player: int, move: dict[str, Any]) -> Outcome | None:
        """The work a tablet still held when the teacher ended the game, ruled
        on for the evidence alone: an Outcome whose state is ``state``, with
        the attempts; None for a move that is only refused, the game being
        over (most games keep nothing on the tablet). IllegalMove when the
        rules refuse it."""
        return None

    def opportunities(self, state, events: list[dict[str, Any]]):
        """``(player, roll, could)`` when a turn just offered a choice of
        operations worth recording, else None."""
        return None

    def used_skills(
        self, before, events: list[dict[str, Any]] = (), attempts: tuple[Attempt, ...] = ()
    ) -> list[str] | None:
        """The operations a pupil's move typed a step with, right or wrong
        (``before``: the state the move was made on, ``events`` and
        ``attempts``: its own), to add to the turn's opportunity; None when
        it typed none worth adding. Games without opportunities need none."""
        return None

    # ------------------------------------------------------------------ pages

    def event_text(self, event: dict[str, Any], names: dict[int, str]) -> str:
        return ""

    # Events that tell a pupil their answer was not right, whatever the game.
    wrong_kinds = frozenset({"wrong_step", "try_again", "could_have_made"})

    def is_wrong(self, event: dict[str, Any]) -> bool:
        """Whether an event's line tells the pupil they were wrong: the page
        shows it apart from right answers."""
        return event.get("kind") in self.wrong_kinds or (event.get("data") or {}).get(
            "correct"
        ) is False

    # The event that opens the next player's turn (Number Quest's roll), when
    # a move's events carry it: the box about the move stops there, the log
    # and the status tell the rest.
    next_turn_kind: str | None = None

    # What a finished table's scores count, in the session report's results
    # (games.outcomes): points, or the track's squares.
    score_heading = gettext_lazy("Points")
    score_words = gettext_lazy("%(score)s points")

    # What the end of a game says when its result names no winner: the
    # teacher ended it before anybody had scored.
    no_winner_words = gettext_lazy("Nobody had scored yet: no winner.")

    def ending(self, state, names: dict[int, str], player: int | None = None) -> dict[str, Any]:
        """How the game ended, from the engine's result alone: every page that
        names winners reads it (the tablet, the projector, the live view's
        card), so that none crowns a player the session report does not.
        ``ended_early``: the teacher ended the game before its rules did."""
        result = self.engine.result(state)
        winners = set(result.winners) if result is not None else set()
        return {
            "over": result is not None,
            "ended_early": bool(result is not None and result.ended),
            "winners": winners,
            "winner_names": [names.get(p, "") for p in sorted(winners)],
            "you_won": player in winners,
            "no_winner": self.no_winner_words if result is not None and not winners else "",
        }

    def feedback(self, events: list[dict[str, Any]], names: dict[int, str]) -> list[FeedbackLine]:
        """The lines a pupil reads about the move they just made."""
        if self.next_turn_kind is not None:
            events = list(takewhile(lambda e: e.get("kind") != self.next_turn_kind, events))
        lines = (FeedbackLine(self.event_text(e, names), self.is_wrong(e)) for e in events)
        return [line for line in lines if line.text]

    # What a pupil's page says about their move (``{% move_feedback %}``),
    # drawn alone too when the move made the mover a watcher: their answer
    # is then the watchers' page with this in its slot
    # (games.views.play._answer_as_watcher).
    feedback_template = "games/_feedback.html"

    def feedback_context(
        self, events: list[dict[str, Any]], names: dict[int, str]
    ) -> dict[str, Any]:
        """``feedback_template``'s context for the move these events tell."""
        return {"feedback": self.feedback(events, names)}

    def refusal(self, error: IllegalMove) -> str:
        from games import narration

        return narration.refusal(error)

    # How many of a table's last moves ``card_context`` reads: the live view
    # reads them for all the cards it draws in one query.
    card_moves = 0

    def card_moves_of(self, table) -> int:
        """``card_moves`` for this table: a game whose card reads moves only
        in some phases asks for none in the others."""
        return self.card_moves

    def card_context(
        self, table, state, names: dict[int, str], moves: list[tuple]
    ) -> dict[str, Any] | None:
        """What the teacher's live card of a table draws, as ``context`` gives
        it to the teacher (``player=None``): ``players`` (name, colour, score,
        current, winner), ``board_html``, ``current_name``,
        ``last_calculation`` and ``stuck_player``. ``moves``: the table's last
        ``card_moves`` moves, newest first, as (number, player, pupil id,
        events). None: the live view draws the card from the whole context."""
        return None

    def context(self, table, state, view: dict[str, Any], base: dict[str, Any]) -> dict[str, Any]:
        """The game's part of a table's template context. ``base`` holds what
        every game has (table, session, names, player, pupil, move_id...).

        Must give: ``players`` (index, name, colour, score, current, you,
        winner), ``board_html`` (the board, also shown small on the live view),
        ``your_turn``, ``current_name``, ``log``, ``last_calculation``,
        ``over``, ``stuck_player`` (whose silence the live view watches) and
        ``handover_name`` (shared tablets)."""
        raise NotImplementedError
