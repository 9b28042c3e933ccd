"""A pupil at their table: the page, the taps, the poll."""

from __future__ import annotations

from django.contrib import messages
from django.db.models import Prefetch
from django.http import HttpResponse, HttpResponseForbidden
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from classroom.views.access import pupil_required
from engine.registry import get_game

from .. import live, services
from ..models import GameSession, Seat, Table
from ..presenters import presenter
from .tables import read_poll_token, table_context


def _pupil_table(request, pk: int) -> Table:
    return get_object_or_404(
        Table.objects.select_related("session").prefetch_related("seats__pupil"),
        pk=pk,
        seats__pupil=request.pupil,
        session__status__in=["running", "paused", "ended"],
    )


def _render(
    request, table: Table, pupil, status: int = 200, partial: bool | None = None, **extra
) -> HttpResponse:
    state = get_game(table.session.game).from_json(table.state)
    player = services.player_for(table, pupil, state)
    context = table_context(table, player=player, pupil=pupil, **extra)
    partial = bool(request.htmx) if partial is None else partial
    name = "_table.html" if partial else "play.html"
    template = f"games/{table.session.game}/{name}"
    return render(request, template, context, status=status)


@pupil_required
@require_GET
def table_play(request, pk: int):
    table = _pupil_table(request, pk)
    return _render(request, table, request.pupil)


@pupil_required
@require_POST
def table_move(request, pk: int):
    table = _pupil_table(request, pk)
    shown = presenter(table.session.game)
    move = shown.read_move(request.POST)
    if move is None or "invalid" in move:
        return _answer(request, table, note=shown.invalid_note(move), note_kind="error")
    version = request.POST.get("version", "")
    outcome = services.play(
        table.pk,
        request.pupil,
        move,
        int(version) if version.isascii() and version.isdigit() and len(version) < 10 else None,
        request.POST.get("move_id", "")[:64],
    )
    table = _pupil_table(request, pk)
    if outcome.status == "stale":
        return _answer(request, table, note=_("The game moved on: here is the board now."))
    if outcome.status == "closed":
        if table.session.status == GameSession.Status.ENDED:
            return _answer(request, table, note=_("The game is over."))
        return _answer(request, table, note=_("The game is paused. Wait for your teacher."))
    if outcome.status == "refused":
        return _answer(request, table, note=shown.refusal(outcome.refusal), note_kind="error")
    return _answer(request, table, feedback=outcome.events)


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
    reader = read_poll_token(request.GET.get("t", ""), pk)
    if reader is None:
        return HttpResponseForbidden()
    token = live.read(pk)
    if token is None or live.is_due(token):
        if token is not None:
            services.advance(pk)
        token = _refresh_token(pk)
        if token is None:
            return HttpResponse(status=404)
    if token[0] == request.GET.get("v"):
        return HttpResponse(status=204)
    # Two queries: the table with its session, the seats with their pupils.
    table = (
        Table.objects.select_related("session")
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("pupil")))
        .get(pk=pk)
    )
    if reader.get("p"):
        pupil = next((s.pupil for s in table.seats.all() if s.pupil_id == reader["p"]), None)
        if pupil is None:
            return HttpResponseForbidden()
        # The signed token names the pupil: no need to read their sign-in session.
        request.pupil = pupil
        return _render(request, table, pupil, partial=True)
    from .teacher import render_table_for_teacher

    return render_table_for_teacher(request, table)


def _refresh_token(pk: int):
    table = Table.objects.select_related("session").prefetch_related("seats").filter(pk=pk).first()
    if table is None:
        return None
    state = get_game(table.session.game).from_json(table.state)
    live.publish(table.pk, live.stamp(table), services.due_at(table, state))
    return live.read(pk) or (live.stamp(table), None)
