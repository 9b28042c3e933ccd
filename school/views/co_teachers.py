"""A class's co-teachers (a teaching assistant, a replacement), chosen among
the school's teachers by the class's own teacher or the school's administrator."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from classroom import roles
from classroom.forms import CoTeachersForm

from .. import services


@login_required
def co_teachers(request, pk: int):
    classroom = roles.classrooms_seen_by(request.user).select_related("teacher").filter(
        pk=pk
    ).first()
    if classroom is None:
        raise Http404
    if not roles.chooses_co_teachers(request.user, classroom):
        raise PermissionDenied
    bound = request.POST if request.method == "POST" else None  # none ticked is a choice
    form = CoTeachersForm(bound, classroom=classroom)
    if request.method == "POST":
        if form.is_valid():
            services.co_teachers_set(classroom, form.cleaned_data["co_teachers"])
            messages.success(request, _("Co-teachers saved."))
            if classroom.teacher_id == request.user.pk:
                return redirect("classroom:class_edit", pk=classroom.pk)
            return redirect("school:classes")
        return render(request, "school/people/co_teachers.html",
                      {"classroom": classroom, "co_form": form}, status=400)
    return render(request, "school/people/co_teachers.html",
                  {"classroom": classroom, "co_form": form})
