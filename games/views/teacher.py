"""The teacher's side of a game: start a session, watch every table, steer."""

from __future__ import annotations

import time
from types import SimpleNamespace
from typing import Any

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from classroom.reports import lessons
from classroom.reports.services import skill_name
from classroom.views.access import own_classroom, teacher_required
from engine.core import IllegalMove

from .. import live, live_view, selectors, services
from ..forms import SessionForm
from ..models import GameSession, Table
from ..pages import PAGES, presenter
from ..pages.base import table_url
from . import live_cards
from .tables import table_context


def own_session(request, pk: int) -> GameSession:
    return selectors.teachers_session(request.user, pk)


@teacher_required
def session_new(request, pk: int):
    classroom = own_classroom(request, pk)
    pupils = list(classroom.pupils.all())
    signed_in = {p.pk for p in pupils if p.signed_in_at}
    if request.htmx:
        for page in PAGES.values():
            preview = page.options_preview(request.GET)
            if preview is not None:
                return HttpResponse(preview)
    if request.method == "POST":
        form = SessionForm(request.POST, pupils=pupils, signed_in=signed_in)
    else:
        form = _planned_form(request, classroom, pupils, signed_in)
    if request.method == "POST" and form.is_valid():
        try:
            session = services.start_session(
                classroom,
                request.user,
                game=form.cleaned_data["game"],
                options=form.engine_options(),
                pupils=form.cleaned_data["playing"],
                table_size=form.cleaned_data["table_size"],
                team_size=form.cleaned_data["team_size"],
                tablets=form.cleaned_data["tablets"],
                bot_level=form.cleaned_data["bot_level"] or "",
                seating=form.cleaned_data["seating"],
                whole_class=form.cleaned_data["whole_class"],
                practice_skill=form.cleaned_data.get("practice") or "",
                table_levels=form.cleaned_data["table_levels"],
            )
        except IllegalMove as refusal:
            form.add_error(None, refusal.reason)
        else:
            messages.success(request, _("The game has started. Pupils find it on their tablet."))
            if session.whole_class:
                return redirect("games:session_cards", pk=session.pk)
            return redirect("games:session_live", pk=session.pk)
    return render(
        request,
        "games/session_new.html",
        {
            "classroom": classroom,
            "form": form,
            "signed_in": len(signed_in),
            "practice": skill_name(form["practice"].value() or ""),
        },
    )


def _planned_form(request, classroom, pupils, signed_in) -> SessionForm:
    """The start form, filled in from a plan of the class report when the
    address carries one (``?plan=``): its game, options, pupils and seats, for
    the teacher to change or accept. A plan that cannot be trusted leaves the
    usual form, with a message saying why."""
    token = request.GET.get("plan", "")
    if not token:
        return SessionForm(pupils=pupils, signed_in=signed_in)
    plan, refused = lessons.read_plan(token, classroom, request.user)
    if plan is None or plan.game not in PAGES:
        messages.error(request, refused or str(lessons.BROKEN))
        return SessionForm(pupils=pupils, signed_in=signed_in)
    # Only this class's pupils have fields: a seat for anyone else is dropped.
    initial = {f"table_{p.pk}": str(plan.seating.get(p.pk, 0)) for p in pupils}
    initial.update(
        game=plan.game,
        table_size=plan.table_size,
        team_size=plan.team_size,
        bot_level=plan.computer_level,
        practice=plan.skill,
    )
    initial.update({f"level_{number}": level for number, level in plan.table_levels.items()})
    options = PAGES[plan.game].options_initial(plan.options)
    return SessionForm(
        initial=initial,
        pupils=pupils,
        signed_in=signed_in,
        options_initial={plan.game: options},
    )




def session_live(request, pk: int):
    """The live view, and its poll every 2 s. A poll with a good token (see
    games.live_view) is answered from it; anything else goes through the
    sign-in and the session, as every teacher's page does."""
    if request.htmx:
        data = live_view.read(request, request.GET.get("v", ""), pk)
        if data is not None:
            answer = _live_by_token(request, pk, data)
            if answer is not None:
                return answer
    return _session_live(request, pk)


def _live_by_token(request, pk: int, data: dict[str, Any]) -> HttpResponse | None:
    """None when the token no longer stands for the teacher's sign-in, or the
    session has no tables of theirs: the signed-in path answers then."""
    out, added, tokens = live_view.peek(data)
    if live_view.signed_out_since(data, out):
        return None
    now = time.time()
    shown = live_view.shown_stamps(data)
    # Server moves now due are made before the tables are compared: the page
    # polling is one of the ways a bot's move arrives.
    due = [table_id for table_id, token in tokens.items() if token and live.is_due(token)]
    for table_id in due:
        services.advance(table_id)
    if due or added != data["g"] or data["l"] != get_language() or None in tokens.values():
        # A stamp the cache lost (no tablet polled that table lately), a move
        # just made or a table added: the tables' rows say what changed.
        rows = selectors.live_rows(pk, data["k"])
        if not rows:
            return None
        return _answer(request, pk, rows, data, data["k"], data["a"], added, now, renew=False)
    # Every stamp is in the cache: only the tables that changed are read.
    rows = []
    for table_id, (stamp, silent_from) in shown.items():
        now_stamp = tokens[table_id][0]
        moved = now_stamp != stamp
        rows.append(
            selectors.LiveRow(
                table_id,
                now_stamp,
                None if moved else silent_from,
                selectors.status_of_stamp(now_stamp),
            )
        )
    return _answer(request, pk, rows, data, data["k"], data["a"], added, now, renew=False)


def _silent_alike(silent_from: int, then: float, now: float) -> bool:
    return live_view.silent(silent_from, then) == live_view.silent(silent_from, now)


@teacher_required
def _session_live(request, pk: int):
    session = own_session(request, pk)
    now = time.time()
    added = live_view.tables_added(session.pk)
    rows = selectors.live_rows(session.pk, request.user.pk)
    if services.advance_due(session, [row.pk for row in rows]):
        rows = selectors.live_rows(session.pk, request.user.pk)
    data = None
    if request.htmx:
        data = live_view.read(request, request.GET.get("v", ""), pk, fresh=False)
        if data is not None and data["k"] != request.user.pk:
            data = None
    return _answer(request, pk, rows, data, request.user.pk, now, added, now, renew=True,
                   session=session)


def _answer(
    request,
    pk: int,
    rows: list[selectors.LiveRow],
    data: dict[str, Any] | None,
    teacher_id: int,
    signed_in_at: float,
    added: int,
    now: float,
    *,
    renew: bool,
    session: GameSession | None = None,
) -> HttpResponse | None:
    """The live view drawn from ``rows`` (None: let the signed-in path answer).
    For a poll whose token (``data``) shows these very tables, 204 if none
    changed, else only the changed cards (out of band) when the page asked
    from its poller, which takes them.
    ``renew``: the sign-in was checked now, the page gets a token saying so
    even when nothing changed."""
    language = get_language()
    shown = live_view.shown_stamps(data) if data is not None else {}
    same_tables = (
        data is not None and data["l"] == language and [row.pk for row in rows] == list(shown)
    )
    changed = [
        row
        for row in rows
        if not same_tables
        or row.silent_from is None
        or row.stamp != shown[row.pk][0]
        or not _silent_alike(row.silent_from, data["n"], now)
    ]
    if same_tables and not changed and not renew:
        return HttpResponse(status=204)
    changed_only = same_tables and request.htmx and request.htmx.target == "live"
    asked = changed if changed_only else rows
    drawn = live_cards.cards(asked, pk, teacher_id, now, language)
    if not renew and len(drawn) < len(asked):
        # A table gone since the token (its class erased, the session not the
        # teacher's): the signed-in path says what is left to see, if anything.
        return None
    moved = {row.pk for row in changed}
    rows = [row for row in rows if row.pk in drawn or (changed_only and row.pk not in moved)]
    if changed_only:
        cards = [live_cards.out_of_band(drawn[row.pk]) for row in changed if row.pk in drawn]
    else:
        cards = [drawn[row.pk] for row in rows if row.pk in drawn]
    token = live_view.mint(
        request,
        session_id=pk,
        teacher_id=teacher_id,
        signed_in_at=signed_in_at,
        language=language,
        tables_seen=added,
        shown=[(row.pk, row.stamp, row.silent_from) for row in rows],
        now=now,
    )
    status = next((row.status for row in rows if row.pk in drawn), None) or (
        rows[0].status if rows else session.status
    )
    context = {
        "live_url": table_url("games:session_live", pk),
        "status": status,
        "every_table_finished": status == GameSession.Status.ENDED
        and selectors.every_table_finished(pk),
        "cards": cards,
        "changed_only": changed_only,
        "live_version": token,
    }
    if request.htmx:
        # No context processor: the poll of a signed-in teacher reads no session.
        return HttpResponse(render_to_string("games/_live.html", {**context, "request": request}))
    shown_game = presenter(session.game)
    context.update(
        session=session, game_title=shown_game.title, stylesheet=shown_game.stylesheet
    )
    return render(request, "games/session_live.html", context)


@teacher_required
@require_POST
def session_control(request, pk: int):
    session = own_session(request, pk)
    action = request.POST.get("action")
    if action == "pause":
        services.set_status(session, GameSession.Status.PAUSED)
    elif action == "resume":
        services.set_status(session, GameSession.Status.RUNNING)
    elif action == "end":
        services.set_status(session, GameSession.Status.ENDED)
        messages.success(request, _("The game is over. Its calculations are in the reports."))
    elif action == "seat_late":
        late = services.seat_late(session)
        waiting = selectors.late_pupils(session)
        if not late and not waiting:
            messages.info(request, _("No pupil has signed in since the game started."))
        if late:
            messages.success(
                request,
                _("Seated: %(names)s") % {"names": ", ".join(p.short_name for p in late)},
            )
        if waiting:
            messages.info(
                request,
                ngettext(
                    "%(names)s is still waiting: this game needs at least %(count)d players "
                    "at a table. Seat them when another pupil comes.",
                    "%(names)s are still waiting: this game needs at least %(count)d players "
                    "at a table. Seat them when another pupil comes.",
                    len(waiting),
                )
                % {"names": ", ".join(p.short_name for p in waiting),
                   "count": services.fewest_players(session)},
            )
    if request.POST.get("back_to") == "cards" and session.whole_class:
        return redirect("games:session_cards", pk=session.pk)
    return redirect("games:session_live", pk=session.pk)


@teacher_required
def table_projector(request, pk: int):
    # The table of a session the teacher runs (404/403 as the session's).
    session_id = get_object_or_404(Table.objects.values_list("session_id", flat=True), pk=pk)
    session = own_session(request, session_id)
    table = get_object_or_404(
        Table.objects.select_related("session").prefetch_related("seats__pupil"),
        pk=pk,
        session=session,
    )
    return render_table_for_teacher(request, table, full=True)


def render_table_for_teacher(request, table: Table, full: bool = False) -> HttpResponse:
    # Only the teacher's id goes into the table's context (its poll token):
    # no need to read the teacher's row for it.
    teacher = SimpleNamespace(pk=table.session.teacher_id)
    context = table_context(table, player=None, teacher=teacher)
    context["projector"] = True
    context["projector_side"] = f"games/{table.session.game}/_projector_side.html"
    template = "games/projector.html" if full else "games/_projector_table.html"
    return render(request, template, context)
