"""The school's own pages for its administrator (and, for the classes, its
maths lead): every class by year group, the teachers, their invitations."""

from __future__ import annotations

from functools import wraps

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Q
from django.shortcuts import render

from classroom.models import YearGroup

from .. import roles


def school_reader_required(view):
    """The administrator and the maths lead; anyone else is refused (403)."""

    @wraps(view)
    @login_required
    def wrapper(request, *args, **kwargs):
        if not roles.sees_whole_school(request.user):
            raise PermissionDenied
        return view(request, *args, **kwargs)

    return wrapper


def school_admin_required(view):
    """The administrator only."""

    @wraps(view)
    @login_required
    def wrapper(request, *args, **kwargs):
        if not roles.manages_school(request.user):
            raise PermissionDenied
        return view(request, *args, **kwargs)

    return wrapper


@school_reader_required
def classes(request):
    """Every class of the school, by year group, each with its report."""
    classrooms = (
        roles.school_classrooms(request.user)
        .active()
        .select_related("teacher")
        .prefetch_related("co_teachers")
        .annotate(pupil_count=Count("pupils", filter=Q(pupils__left_at__isnull=True)))
        .order_by("year_group", "name", "pk")
    )
    groups: dict[int | None, list] = {}
    for classroom in classrooms:
        groups.setdefault(classroom.year_group, []).append(classroom)
    named = [(YearGroup(age).label, groups[age]) for age in YearGroup.values if age in groups]
    if None in groups:
        named.append((None, groups[None]))
    return render(
        request,
        "school/people/classes.html",
        {"groups": named, "school": request.user.school, "count": len(classrooms)},
    )
