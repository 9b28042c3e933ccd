"""A pupil at their table: the page, the taps, the poll."""

from __future__ import annotations

import re

from django.contrib import messages
from django.http import Http404, HttpResponse, HttpResponseForbidden
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from classroom.reports import lessons
from classroom.views.access import pupil_required

from .. import live, poll_tokens, seating, services, watching
from ..models import GameSession, Table
from ..pages import engine_of, presenter
from .tables import poll_token, seat_names, table_context

PLAYABLE = ["running", "paused", "ended"]
TAP_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
# The answer to a move names what became of it (services.PlayResult.status, or
# "refused" for a form the page could not read): a tablet that sent the move
# again after the wifi dropped says "arrived" only when it counts
# (static/js/connection.js).
MOVE_HEADER = "Numbo-Move"


def _pupil_table(request, pk: int) -> Table:
    table = get_object_or_404(
        Table.objects.select_related("session"),
        pk=pk,
        seats__pupil=request.pupil,
        session__status__in=PLAYABLE,
    )
    seating.load(table)
    return table


def _render(
    request, table: Table, pupil, status: int = 200, partial: bool | None = None, **extra
) -> HttpResponse:
    state = engine_of(table.session.game).from_json(table.state)
    player = services.player_for(table, pupil, state)
    context = table_context(table, player=player, pupil=pupil, state=state, **extra)
    partial = bool(request.htmx) if partial is None else partial
    name = "_table.html" if partial else "play.html"
    template = f"games/{table.session.game}/{name}"
    return render(request, template, context, status=status)


def _render_for_watcher(request, table: Table, pupil) -> HttpResponse:
    """A poll's answer: the page every watcher at the table shares when this
    pupil is one of them (kept for the others' polls), else their own."""
    shown = presenter(table.session.game)
    state = shown.engine.from_json(table.state)
    player = services.player_for(table, pupil, state)
    if not shown.watching(table, state, player):
        return _render(request, table, pupil, partial=True)
    kept = _keep_watchers_page(request, table)
    if kept is None:
        return _render(request, table, pupil, partial=True)
    html, own = kept
    token = poll_token(table, pupil.pk, None, pupil.sign_in_generation)
    return HttpResponse(watching.personal(watching.Copy(html, player, own.get(player, "")), token))


def _keep_watchers_page(
    request, table: Table, mover_id: int | None = None
) -> tuple[str, dict[int, str]] | None:
    """Draw the page the table's watchers share and keep it for their polls
    and pushes (games.watching), with each watcher's own piece (their hand);
    None when no one at the table watches or the page can't be shared.

    The mover's request draws it before the ring (table_move), so the
    watchers' tablets all take a copy instead of each drawing the table. The
    mover is left out of those it is kept for: their answer is on its way,
    with the feedback on their move, and a pushed page would overtake it.
    When the move made the mover a watcher too, that answer is this page,
    made theirs (``request.mover_copy``): one draw where there were two.
    Whether it is can rest on a hidden card (a NUM-X pupil holding the
    Rainbow that fits does not watch): ``watching.personal`` makes the copy
    byte for byte the page the mover's own render draws, so nothing tells."""
    shown = presenter(table.session.game)
    others = [s for s in table.seats.all() if s.pupil_id and s.pupil_id != mover_id]
    if not shown.watchers_share_a_page or not others:
        return None  # a pupil alone against the computer, say: no one to draw it for
    state = shown.engine.from_json(table.state)
    watchers = {
        seat.pupil_id: seat for seat in others if shown.watching(table, state, seat.player)
    }
    if not watchers:
        return None
    mover = None
    if request is not None and mover_id is not None:
        mover = next((s.player for s in table.seats.all() if s.pupil_id == mover_id), None)
        if mover is not None and not shown.watching(table, state, mover):
            mover = None
    # The page is the same for every watcher: drawn as the first one's.
    first = next(iter(watchers.values()))
    context = table_context(
        table, player=first.player, pupil=first.pupil, for_watchers=True, state=state
    )
    html = render_to_string(f"games/{table.session.game}/_table.html", context, request)
    players = {pupil_id: seat.player for pupil_id, seat in watchers.items()}
    slot = watching.OWN_SLOT in html
    # Once per player: the pupils of a team seat hold one hand.
    own = {
        player: shown.watcher_own(table, state, player, context)
        for player in set(players.values())
    } if slot else {}
    if not watching.store(table.pk, context["stamp"], players, html, context["move_id"], own):
        return None
    if mover is not None and watching.FEEDBACK_SLOT in html:
        # The mover's hand goes into their answer alone, not into the kept copy.
        mine = ""
        if slot:
            mine = own[mover] if mover in own else shown.watcher_own(table, state, mover, context)
        request.mover_copy = watching.Copy(html, mover, mine)
    return html, own


@pupil_required
@require_GET
def table_play(request, pk: int):
    table = _pupil_table(request, pk)
    return _render(request, table, request.pupil)


@pupil_required
@require_POST
def table_move(request, pk: int):
    # Whether this pupil sits at this table is play()'s to say, under the
    # table's lock: any answer but "applied" reads the table as the pupil's
    # own below, which a stranger is refused (404).
    game, seats = seating.game_and_seats(pk)
    if game is None:
        raise Http404
    shown = presenter(game)
    move = shown.read_move(request.POST)
    if move is None or "invalid" in move:
        table = _pupil_table(request, pk)
        response = _answer(
            request, table, note=shown.invalid_note(move), note_kind="error", posted=request.POST
        )
        response[MOVE_HEADER] = "refused"
        return response
    version = request.POST.get("version", "")
    try:
        outcome = services.play(
            pk,
            request.pupil,
            move,
            int(version) if version.isascii() and version.isdigit() and len(version) < 10 else None,
            _tap_id(request.POST.get("move_id", "")),
            request.POST.get("seen", "")[:80],
            _answering(request.POST.get("answering", "")),
            seats=seats,
            before_ring=lambda saved: _keep_watchers_page(request, saved, request.pupil.pk),
        )
    except Table.DoesNotExist as gone:
        raise Http404 from gone
    response = _answer_to(request, pk, outcome, shown)
    response[MOVE_HEADER] = outcome.status
    return response


def _answer_to(request, pk: int, outcome: services.PlayResult, shown) -> HttpResponse:
    """The table after the move, with what the pupil is told about it."""
    # An applied move's table is the one play() saved, seats and pupils with it.
    table = outcome.table if outcome.status in ("applied", "kept") else _pupil_table(request, pk)
    if outcome.status == "stale":
        return _answer(request, table, note=_("The game moved on: here is the board now."))
    if outcome.status == "kept":
        return _answer(request, table, note=_("Your last steps count: your teacher will see them."))
    if outcome.status == "closed":
        if table.session.status == GameSession.Status.ENDED:
            return _answer(request, table, note=_("The game is over."))
        return _answer(request, table, note=_("The game is paused. Wait for your teacher."))
    if outcome.status == "refused":
        # Drawn from what the pupil sent: a refusal keeps every choice they made.
        return _answer(
            request, table, note=shown.refusal(outcome.refusal), note_kind="error",
            posted=request.POST,
        )
    if outcome.status == "late":
        if table.finished:
            return _answer(request, table, note=_("Time is up: the game is over."))
        return _answer(request, table, note=_("Time was up: the turn went to the next player."))
    copy = getattr(request, "mover_copy", None)
    if copy is not None and request.htmx:
        return _answer_as_watcher(request, table, copy, outcome.events)
    return _answer(request, table, feedback=outcome.events)


def _answer_as_watcher(request, table: Table, copy: watching.Copy, events) -> HttpResponse:
    """The answer to a move that made the mover a watcher: the watchers'
    page their request drew before the ring, made theirs, with the lines
    about their move where their own page has them."""
    shown = presenter(table.session.game)
    context = shown.feedback_context(events, seat_names(table))
    feedback = render_to_string(shown.feedback_template, context)
    pupil = request.pupil
    token = poll_token(table, pupil.pk, None, pupil.sign_in_generation)
    return HttpResponse(watching.personal(copy, token, feedback))


def _answering(posted: str) -> int | None:
    """The team member a shared tablet says is answering; play() keeps it only
    when that pupil sits at the seat that moves."""
    return int(posted) if posted.isascii() and posted.isdigit() and len(posted) < 10 else None


def _tap_id(posted: str) -> str:
    """The tap's id as the page made it (hex), or '' for anything else: a
    forged id must not reach the database (PostgreSQL refuses a NUL byte)."""
    return posted if TAP_ID.fullmatch(posted) else ""


def _answer(request, table, **extra):
    if request.htmx:
        return _render(request, table, request.pupil, **extra)
    # A plain form post (no script): show the answer once, on the page itself.
    if extra.get("note"):
        messages.info(request, extra["note"])
    shown = presenter(table.session.game)
    for line in extra.get("feedback") or []:
        text = shown.event_text(line, {})
        if text:
            messages.info(request, text)
    return redirect("games:table_play", pk=table.pk)


@require_GET
def table_poll(request, pk: int):
    """Every 2 s from each tablet: 204 from one cache read while nothing moved."""
    # The token's sign-out mark and the table's version: one round trip.
    reader, kept = poll_tokens.read_with(request.GET.get("t", ""), pk, [live.key(pk)])
    if reader is None:
        return _refused()
    token = live.decode(kept[0])
    table = None
    if token is None or live.is_due(token):
        if token is not None:
            services.advance(pk)
        table = _table(pk)
        if table is None:
            return HttpResponse(status=404)
        token = _refresh_token(table)
    if token[0] == request.GET.get("v"):
        return HttpResponse(status=204)
    if reader.get("p"):
        # Another watcher's poll may have rendered this version already.
        kept = watching.copy_for(pk, token[0], reader["p"])
        if kept is not None:
            token = poll_token(pk, reader["p"], None, poll_tokens.generation_of(reader))
            return HttpResponse(watching.personal(kept, token))
    if table is None:
        table = _table(pk)
        if table is None:
            return HttpResponse(status=404)
    if reader.get("p"):
        pupil = next((s.pupil for s in table.seats.all() if s.pupil_id == reader["p"]), None)
        if pupil is None or not poll_tokens.matches(reader, pupil):
            return _refused()
        # The signed token names the pupil: no need to read their sign-in session.
        request.pupil = pupil
        return _render_for_watcher(request, table, pupil)
    from .teacher import render_table_for_teacher

    return render_table_for_teacher(request, table)


def _refused() -> HttpResponse:
    """A forged token, or one of a sign-in that ended: nothing of the table.
    The tablet reloads its page (htmx reads HX-Refresh on a 403 too): a pupil
    still signed in there gets a new token, anyone else the sign-in page."""
    response = HttpResponseForbidden()
    response["HX-Refresh"] = "true"
    return response


def _table(pk: int) -> Table | None:
    """One query: the table with its session; the seats come from the cache."""
    table = services.read_table(pk)
    if table is not None:
        seating.load(table)
    return table


def _refresh_token(table: Table) -> live.Token:
    """What the cache had lost (or what the server's move changed): read once,
    kept for the polls after this one."""
    state = engine_of(table.session.game).from_json(table.state)
    stamp, due = live.stamp(table), services.due_at(table, state)
    # Kept only if no pause or card committed since the table was read.
    live.publish(table.pk, stamp, due, session=table.session)
    return stamp, due


@pupil_required
@require_POST
def practice_alone(request):
    """"Let's practise ×!" on the pupil's home: a game alone against the
    computer, set up for the pupil's next skill as the class report would set
    it up for their group. A game of it already under way is joined again
    rather than started twice."""
    pupil = request.pupil
    if not pupil.classroom.pupils_practise_alone:
        # A form posted anyway (an old page, a forged one): nothing starts.
        messages.error(request, _("Your teacher has switched off playing alone for now."))
        return redirect("classroom:pupil_home")
    found = lessons.next_practice(pupil)
    if found is None:
        return redirect("classroom:pupil_home")
    under_way = (
        Table.objects.filter(
            seats__pupil=pupil,
            finished=False,
            session__status=GameSession.Status.RUNNING,
            session__practice_skill=found.skill,
        )
        .order_by("-pk")
        .first()
    )
    if under_way is None:
        session = services.start_session(
            pupil.classroom,
            pupil.classroom.teacher,
            game=found.setup.game,
            options=found.setup.options(),
            pupils=[pupil],
            table_size=2,
            bot_level=found.computer_level,
            seating={pupil.pk: 1},
            practice_skill=found.skill,
        )
        under_way = session.tables.get()
    return redirect("games:table_play", pk=under_way.pk)
