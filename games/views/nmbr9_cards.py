"""Whole-class NMBR 9: the teacher's screen that turns the cards.

Every pupil plays alone with the class's deck; this page (meant for the
projector) shows the card turned last, big, how many pupils have placed it,
the button that turns the next one and, at the end, the class ranking.
"""

from __future__ import annotations

from functools import wraps
from typing import Any

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import path
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from classroom import roster
from classroom.views.access import teacher_required
from engine.nmbr9 import GAME, phase
from games import services
from games.models import GameSession, Seat
from games.pages.nmbr9 import drawing as stacks
from games.pages.nmbr9.presenter import class_ranking
from games.selectors import teachers_session

NAMES_SHOWN = 8  # "still placing: ..." names the laggards when there are few of them


def whole_class(view):
    """The view gets the teacher's own whole-class NMBR 9 session for ``pk``
    (another's is a 404). A game played at tables is sent to its live view:
    a bookmark or a back button brings a teacher here, and a bare "not
    found" would not say where its cards are."""

    @wraps(view)
    def wrapper(request, pk: int):
        session = teachers_session(request.user, pk)
        if session.game != "nmbr9" or not session.whole_class:
            messages.info(
                request,
                _("This game is played at tables: each table turns its own cards. "
                  "Here is the live view."),
            )
            return redirect("games:session_live", pk=session.pk)
        return view(request, session)

    return wrapper


def cards_version(session: GameSession, versions: list[int] | None = None) -> str:
    """Changes when a card is turned, a pupil moves or the session pauses.
    ``versions``: the tables' versions in table order, when already read."""
    if versions is None:
        versions = list(session.tables.order_by("number").values_list("version", flat=True))
    return f"{session.status}-{session.cards_shown}-{'.'.join(str(v) for v in versions)}"


def cards_context(session: GameSession) -> dict[str, Any]:
    tables = list(session.tables.order_by("number"))
    # The pupils in one query (a prefetch takes two): one pupil a table here.
    seats = (
        Seat.objects.filter(table__session=session, pupil__isnull=False)
        .select_related("pupil")
        .order_by("player", "pk")
    )
    seated: dict[int, list] = {}
    for seat in seats:
        seated.setdefault(seat.table_id, []).append(seat.pupil)
    labels = roster.labels([p for pupils in seated.values() for p in pupils])
    names = {
        t.pk: " & ".join(labels[p.pk] for p in seated.get(t.pk, [])) or "?" for t in tables
    }
    deck = tables[0].state["deck"] if tables else []
    shown = min(session.cards_shown, len(deck))
    placed, placing, counting, done = [], [], [], []
    for table in tables:
        state = GAME.from_json(table.state)
        now = phase(state, 0)
        if state.done(0) >= shown:  # placed or set aside
            placed.append(names[table.pk])
        else:
            placing.append(names[table.pk])
        if now == "count":
            counting.append(names[table.pk])
        elif now == "done":
            done.append(names[table.pk])
    card = deck[shown - 1] if shown else None
    all_turned = shown >= len(deck)
    context = {
        "session": session,
        "pupils": len(tables),
        "card": card,
        "card_pictures": [stacks.card_picture(card)] if card is not None else [],
        "card_number": shown,
        "cards_total": len(deck),
        "placed": len(placed),
        "placing": placing,
        "placing_names": placing if len(placing) <= NAMES_SHOWN else [],
        "all_turned": all_turned,
        "can_turn": session.status == GameSession.Status.RUNNING and not all_turned,
        "counting": len(counting),
        "done": len(done),
        "cards_version": cards_version(session, [t.version for t in tables]),
    }
    # Ended by the teacher before the last card: every stack scores as it stands.
    if (all_turned or session.status == GameSession.Status.ENDED) and (done or counting):
        context["ranking"] = class_ranking(session, names)
    return context


@teacher_required
@whole_class
def session_cards(request, session: GameSession):
    if request.htmx and request.GET.get("v") == cards_version(session):
        return HttpResponse(status=204)
    template = "games/nmbr9/_cards.html" if request.htmx else "games/nmbr9/cards.html"
    return render(request, template, cards_context(session))


@teacher_required
@require_POST
@whole_class
def session_next_card(request, session: GameSession):
    # The form names the card it was showing: a double tap turns one card, not two.
    shown = request.POST.get("shown", "")
    if shown.isascii() and shown.isdigit() and len(shown) < 4:
        # Only the count of cards turned changes here: no need to read the session again.
        session.cards_shown = services.show_next_card(session, expected=int(shown))
    if request.htmx:
        return render(request, "games/nmbr9/_cards.html", cards_context(session))
    return redirect("games:session_cards", pk=session.pk)


# Named by the page package (``Presenter.urls``), in the games namespace.
urlpatterns = [
    path("sessions/<int:pk>/cards/", session_cards, name="session_cards"),
    path("sessions/<int:pk>/cards/next/", session_next_card, name="session_next_card"),
]
