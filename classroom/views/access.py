"""Who may see what: a teacher sees only their own classes and pupils."""

from __future__ import annotations

from functools import wraps

from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect

from ..models import Classroom, Pupil


def own_classroom(request, pk: int) -> Classroom:
    return get_object_or_404(Classroom, pk=pk, teacher=request.user)


def own_pupil(request, pk: int) -> Pupil:
    return get_object_or_404(
        Pupil.objects.select_related("classroom"), pk=pk, classroom__teacher=request.user
    )


teacher_required = login_required


def pupil_required(view):
    """Pupil pages: anyone else goes to the class-code page."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        if not request.pupil:
            return redirect("classroom:join")
        return view(request, *args, **kwargs)

    return wrapper
