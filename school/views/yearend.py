"""The year's end: hand a class over, move pupils, mark a pupil as leaving,
archive a year, and the school's retention setting.

A class the teacher cannot see is not found (404), as on every class page; a
class they see but may not change this way is refused (403): a maths lead sees
every class and runs none.
"""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from classroom import roster
from classroom.models import Pupil
from classroom.roles import changes_pupils_of, classrooms_seen_by, manages_school
from classroom.views.access import teacher_required

from .. import handover, leavers, moves, record, year_archive
from ..forms_yearend import ArchiveYearForm, HandOverForm, MovePupilsForm, SchoolSettingsForm
from ..models import AuditEntry


def _seen_class(request, pk: int):
    return get_object_or_404(classrooms_seen_by(request.user).select_related("teacher"), pk=pk)


def _school_admin(request) -> int:
    """The administrator's school id; anyone else is refused."""
    if not manages_school(request.user):
        raise PermissionDenied
    return request.user.school_id


@teacher_required
def class_hand_over(request, pk: int):
    classroom = _seen_class(request, pk)
    if not handover.may_hand_over(request.user, classroom):
        raise PermissionDenied
    form = HandOverForm(request.POST or None, classroom=classroom)
    if request.method == "POST" and form.is_valid():
        to = form.cleaned_data["to"]
        handover.hand_over(
            classroom,
            to=to,
            by=request.user,
            keep_as_co_teacher=form.cleaned_data["keep_as_co_teacher"],
        )
        messages.success(
            request,
            _("%(class)s is now taught by %(teacher)s.")
            % {"class": classroom.name, "teacher": to.display_name or to.email},
        )
        # The giver may no longer see the class: back to what they do see.
        if classrooms_seen_by(request.user).filter(pk=classroom.pk).exists():
            return redirect("classroom:class_detail", pk=classroom.pk)
        return redirect("classroom:class_list")
    return render(
        request,
        "school/yearend/hand_over.html",
        {
            "classroom": classroom,
            "form": form,
            "no_school": classroom.teacher.school_id is None,
            "nobody": not form.fields["to"].queryset.exists(),
        },
    )


@teacher_required
def pupils_move(request, pk: int):
    classroom = _seen_class(request, pk)
    if not moves.may_move_from(request.user, classroom):
        raise PermissionDenied
    form = MovePupilsForm(request.POST or None, classroom=classroom, teacher=request.user)
    if request.method == "POST" and form.is_valid():
        to = form.cleaned_data["to"]
        moved = moves.move_pupils(
            list(form.cleaned_data["pupils"]), source=classroom, to=to, by=request.user
        )
        messages.success(
            request,
            ngettext(
                "%(count)d pupil moved to %(class)s: they sign in with its class code.",
                "%(count)d pupils moved to %(class)s: they sign in with its class code.",
                len(moved),
            )
            % {"count": len(moved), "class": to.name},
        )
        for each in moved:
            if each.label_now != each.label_before:
                messages.info(
                    request,
                    _("%(before)s is %(now)s in %(class)s (another pupil has the same name).")
                    % {"before": each.label_before, "now": each.label_now, "class": to.name},
                )
            if each.new_avatar:
                messages.info(
                    request,
                    _("%(name)s has a new picture in %(class)s: a classmate had theirs.")
                    % {"name": each.label_now, "class": to.name},
                )
        return redirect("classroom:class_detail", pk=classroom.pk)
    return render(
        request,
        "school/yearend/pupils_move.html",
        {
            "classroom": classroom,
            "form": form,
            "nowhere": not form.fields["to"].queryset.exists(),
            "nobody": not classroom.pupils.exists(),
        },
    )


@teacher_required
@require_POST
def pupil_leaves(request, pk: int):
    """Mark a pupil as leaving the school (``leaving=1``), or as staying (``0``)."""
    pupil = get_object_or_404(
        Pupil.objects.select_related("classroom__teacher__school"),
        pk=pk,
        classroom__in=classrooms_seen_by(request.user),
    )
    if not changes_pupils_of(request.user, pupil.classroom):
        raise PermissionDenied
    back = redirect(reverse("classroom:class_detail", args=[pupil.classroom_id]) + "#pupils")
    leaving = request.POST.get("leaving", "")
    if leaving not in ("0", "1"):
        messages.error(request, _("Nothing changed: the page sent something unexpected."))
        return back
    leavers.mark_leaving(pupil, leaving=leaving == "1", by=request.user)
    name = roster.labels([pupil])[pupil.pk]
    if pupil.left_at is not None:
        messages.success(
            request,
            _("%(name)s leaves the school: they will be erased on %(date)s.")
            % {"name": name, "date": date_format(leavers.erased_on(pupil), "DATE_FORMAT")},
        )
    else:
        messages.success(request, _("%(name)s stays: nothing will be erased.") % {"name": name})
    return back


@teacher_required
def year_end(request):
    school_id = _school_admin(request)
    years = year_archive.years_in_use(school_id)
    source = request.POST if request.method == "POST" else request.GET
    asked = source.get("school_year", "")
    # The oldest year still in use is the one ending.
    school_year = asked if asked in years else (years[-1] if years else "")
    form = ArchiveYearForm(
        request.POST or None,
        school_id=school_id,
        school_year=school_year,
        initial={"school_year": school_year},
    )
    classes = list(year_archive.classes_of_year(school_id, school_year)) if school_year else []
    if request.method == "POST" and form.is_valid():
        archived, leaving = year_archive.archive_year(
            school_id, school_year, leavers=list(form.cleaned_data["leavers"]), by=request.user
        )
        messages.success(
            request,
            _("%(year)s archived: %(classes)s, %(leavers)s.")
            % {
                "year": school_year,
                "classes": ngettext("%(n)d class", "%(n)d classes", archived) % {"n": archived},
                "leavers": ngettext(
                    "%(n)d pupil leaving the school", "%(n)d pupils leaving the school", leaving
                )
                % {"n": leaving},
            },
        )
        return redirect("school:year_end")
    ticked = {str(pk) for pk in source.getlist("leavers")} if request.method == "POST" else None
    groups = []
    for classroom in classes:
        pupils = roster.label_each(roster.in_name_order(classroom.pupils.all()))
        default = year_archive.leave_by_default(classroom)
        for pupil in pupils:
            pupil.ticked = (
                str(pupil.pk) in ticked if ticked is not None
                else pupil.left_at is not None or default
            )
        groups.append((classroom, pupils))
    return render(
        request,
        "school/yearend/year_end.html",
        {"form": form, "years": years, "school_year": school_year, "groups": groups},
    )


@teacher_required
def school_settings(request):
    _school_admin(request)
    school = request.user.school
    before = school.leavers_kept_days
    form = SchoolSettingsForm(request.POST or None, instance=school)
    if request.method == "POST" and form.is_valid():
        form.save()
        if school.leavers_kept_days != before:
            record.write(
                AuditEntry.Kind.RETENTION_CHANGED,
                teacher=request.user,
                detail={"days": school.leavers_kept_days, "before": before},
            )
        messages.success(request, _("Saved."))
        return redirect("school:settings")
    return render(request, "school/yearend/settings.html", {"form": form, "school": school})
