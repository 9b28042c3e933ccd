"""The teacher's side of a game: start a session, watch every table, steer."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from classroom.views.access import own_classroom, teacher_required
from engine.core import IllegalMove

from .. import selectors, services
from ..forms import SessionForm
from ..models import GameSession, Table
from ..pages import PAGES, presenter
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
    form = SessionForm(request.POST or None, pupils=pupils, signed_in=signed_in)
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
        },
    )




@teacher_required
def session_live(request, pk: int):
    session = own_session(request, pk)
    # Server moves now due are made before the version is read: the page
    # polling is one of the ways a bot's move arrives.
    rows = selectors.table_versions(session)
    if services.advance_due(session, [pk for pk, _version in rows]):
        rows = selectors.table_versions(session)
    version = selectors.live_version(session, [v for _pk, v in rows])
    if request.htmx and request.GET.get("v") == version:
        return HttpResponse(status=204)
    context = {
        "session": session,
        "cards": live_cards.cards(session, request.user),
        "live_version": version,
        "game_title": presenter(session.game).title,
        "stylesheet": presenter(session.game).stylesheet,
    }
    template = "games/_live.html" if request.htmx else "games/session_live.html"
    return render(request, template, context)


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
        if not late:
            messages.info(request, _("No pupil has signed in since the game started."))
        else:
            messages.success(
                request,
                _("Seated: %(names)s.") % {"names": ", ".join(p.short_name for p in late)},
            )
    return redirect("games:session_live", pk=session.pk)


@teacher_required
def table_projector(request, pk: int):
    table = get_object_or_404(
        Table.objects.select_related("session").prefetch_related("seats__pupil"),
        pk=pk,
        session__teacher=request.user,
    )
    return render_table_for_teacher(request, table, full=True)


def render_table_for_teacher(request, table: Table, full: bool = False) -> HttpResponse:
    context = table_context(table, player=None, teacher=table.session.teacher)
    context["projector"] = True
    context["projector_side"] = f"games/{table.session.game}/_projector_side.html"
    template = "games/projector.html" if full else "games/_projector_table.html"
    return render(request, template, context)
