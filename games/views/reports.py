"""A game session's report: what each table's pupils practised. A session is
games'; the skill figures come from classroom's report services."""

from __future__ import annotations

from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from classroom import roles
from classroom.reports import lessons, services
from classroom.reports.filters import GAME_NAMES
from classroom.views.access import teacher_required
from games.models import GameSession


@teacher_required
@require_GET
def session_report(request, pk: int):
    # Read by whoever sees the class (classroom.roles); 404 for anyone else.
    session = get_object_or_404(
        GameSession.objects.select_related("classroom"),
        pk=pk,
        classroom__in=roles.classrooms_seen_by(request.user).values("pk"),
    )
    tables = services.session_report(session)
    return render(
        request,
        "classroom/report_session.html",
        {
            "session": session,
            "classroom": session.classroom,
            "game": GAME_NAMES.get(session.game, session.game),
            "tables": tables,
            "practice": services.skill_name(session.practice_skill),
            "changes": lessons.session_changes(session),
            # A session may be over at every table without the teacher's end.
            "all_finished": bool(tables)
            and all(entry["finished"] and not entry["ended_early"] for entry in tables),
        },
    )
