"""Who may see what, by role (the rule itself is classroom.roles): a class one may
not see is not found; one seen but not one's to run or export is refused."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import Http404
from django.shortcuts import redirect

from .. import roles
from ..models import Classroom, Pupil


def _refused(request, classroom_id: int):
    """404 for a class the user may not see (nobody learns it exists), 403 for
    one they see but whose action is not theirs."""
    if roles.sees(request.user, classroom_id):
        return PermissionDenied
    return Http404


def _classroom(request, pk: int, allowed: Callable[..., QuerySet[Classroom]]) -> Classroom:
    classroom = allowed(request.user).filter(pk=pk).first()
    if classroom is None:
        raise _refused(request, pk)
    return classroom


def _pupil(request, pk: int, allowed: Callable[..., QuerySet[Classroom]]) -> Pupil:
    pupil = (
        Pupil.objects.select_related("classroom")
        .filter(pk=pk, classroom__in=allowed(request.user))
        .first()
    )
    if pupil is None:
        classroom_id = Pupil.objects.filter(pk=pk).values_list("classroom_id", flat=True).first()
        raise Http404 if classroom_id is None else _refused(request, classroom_id)
    return pupil


def own_classroom(request, pk: int) -> Classroom:
    """A class this teacher runs (its teacher or a co-teacher)."""
    return _classroom(request, pk, roles.classrooms_run_by)


def seen_classroom(request, pk: int) -> Classroom:
    """A class this teacher may read: theirs, or any of the school's for its
    administrator and maths lead."""
    return _classroom(request, pk, roles.classrooms_seen_by)


def exported_classroom(request, pk: int) -> Classroom:
    """A class whose reports this teacher may take away as a file."""
    return _classroom(request, pk, roles.classrooms_exported_by)


def own_pupil(request, pk: int) -> Pupil:
    """A pupil of a class this teacher runs."""
    return _pupil(request, pk, roles.classrooms_run_by)


def seen_pupil(request, pk: int) -> Pupil:
    return _pupil(request, pk, roles.classrooms_seen_by)


teacher_required = login_required


def pupil_required(view):
    """Pupil pages: anyone else goes to the class-code page."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        if not request.pupil:
            return redirect("classroom:join")
        return view(request, *args, **kwargs)

    return wrapper
