"""A teacher's pages: classes, pupils, codes and sign-in cards."""

from __future__ import annotations

import hashlib
import json

import qrcode
import qrcode.image.svg
from django.contrib import messages
from django.db import transaction
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from .. import privacy, roles, roster, selectors, services, signals
from ..forms import ClassroomForm, CopyClassroomForm, CoTeachersForm, PasteForm, PupilForm
from ..pictures import AVATARS, PASSWORD_PICTURES
from ..reports.filters import GAME_NAMES
from .access import own_classroom, own_pupil, seen_classroom, teacher_required


@teacher_required
def class_list(request):
    show_archived = request.GET.get("archived") == "1"
    classrooms = selectors.classes_of(request.user, archived=show_archived)
    return render(
        request,
        "classroom/class_list.html",
        {
            "classrooms": classrooms,
            "show_archived": show_archived,
            "sees_whole_school": roles.sees_whole_school(request.user),
        },
    )


@teacher_required
def class_create(request):
    form = ClassroomForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        classroom = form.save(commit=False)
        classroom.teacher = request.user
        classroom.save()
        messages.success(request, _("Class created. Now add your pupils."))
        return redirect("classroom:pupils_add", pk=classroom.pk)
    return render(request, "classroom/class_form.html", {"form": form})


@teacher_required
def class_detail(request, pk: int):
    classroom = seen_classroom(request, pk)
    # The administrator and the maths lead read the class; only its teachers
    # see its keys (code, QR code, picture passwords) and its buttons.
    runs = roles.runs(request.user, classroom.pk)
    pupils = roster.label_each(roster.in_name_order(classroom.pupils.with_locked_devices()))
    join_url = request.build_absolute_uri(reverse("classroom:join_class", args=[classroom.code]))
    return render(
        request,
        "classroom/class_detail.html",
        {
            "classroom": classroom,
            "runs": runs,
            "pupils": pupils,
            "join_url": join_url,
            # Named by their game: a list of dates alone told six games apart by the minute.
            "sessions": [
                (session, GAME_NAMES.get(session.game, session.game))
                for session in selectors.recent_sessions(classroom)
            ],
        },
    )


@teacher_required
def class_edit(request, pk: int):
    classroom = own_classroom(request, pk)
    form = ClassroomForm(request.POST or None, instance=classroom)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("Saved."))
        return redirect("classroom:class_detail", pk=classroom.pk)
    co_form = None
    if classroom.teacher.school_id and roles.chooses_co_teachers(request.user, classroom):
        co_form = CoTeachersForm(classroom=classroom)
    return render(
        request,
        "classroom/class_form.html",
        {"form": form, "classroom": classroom, "co_form": co_form},
    )


@teacher_required
@require_POST
def class_archive(request, pk: int):
    classroom = own_classroom(request, pk)
    if services.class_archive_toggle(classroom):
        messages.success(request, _("Class archived. Its pupils can no longer sign in."))
    else:
        messages.success(request, _("The class is back among your classes."))
    return redirect("classroom:class_detail", pk=classroom.pk)


@teacher_required
def class_copy(request, pk: int):
    """A new school year: the same class (and pupils) under a new year and code."""
    classroom = own_classroom(request, pk)
    start = int(classroom.school_year[:4]) + 1
    form = CopyClassroomForm(
        request.POST or None,
        initial={"name": classroom.name, "school_year": f"{start}-{start + 1}"},
    )
    if request.method == "POST" and form.is_valid():
        copy = services.class_copy(
            classroom,
            teacher=request.user,
            name=form.cleaned_data["name"],
            school_year=form.cleaned_data["school_year"],
            copy_pupils=form.cleaned_data["copy_pupils"],
        )
        messages.success(request, _("New class ready, with its own class code."))
        return redirect("classroom:class_detail", pk=copy.pk)
    return render(request, "classroom/class_copy.html", {"form": form, "classroom": classroom})


@teacher_required
def pupils_add(request, pk: int):
    """Paste a list, see the preview, confirm: nothing is saved before the confirmation."""
    classroom = own_classroom(request, pk)
    form = PasteForm(request.POST or None)
    preview = None
    digest = ""
    if request.method == "POST" and form.is_valid():
        existing = selectors.names_in_class(classroom)
        preview = roster.parse_paste(form.cleaned_data["pupils"], existing)
        valid = [line for line in preview if not line.error]
        # The teacher confirms exactly the list they saw: an edit after the
        # preview shows a new preview instead of saving.
        digest = hashlib.sha256(form.cleaned_data["pupils"].encode()).hexdigest()
        confirmed = request.POST.get("confirm") and request.POST.get("previewed") == digest
        if confirmed and valid and not any(line.error for line in preview):
            new_pupils = services.pupils_add(classroom, valid)
            messages.success(
                request,
                _("%(count)d pupils added.") % {"count": len(new_pupils)},
            )
            return redirect("classroom:class_detail", pk=classroom.pk)
    return render(
        request,
        "classroom/pupils_add.html",
        {
            "classroom": classroom,
            "form": form,
            "preview": preview,
            "has_errors": bool(preview) and any(line.error for line in preview),
            "previewed": digest if preview else "",
        },
    )


@teacher_required
def pupil_edit(request, pk: int):
    pupil = own_pupil(request, pk)
    form = PupilForm(request.POST or None, instance=pupil)
    if request.method == "POST":
        if "new_password" in request.POST:
            services.picture_password_renew(pupil)
            messages.success(
                request, _("%(name)s has a new picture password.") % {"name": pupil.short_name}
            )
            return redirect("classroom:pupil_edit", pk=pupil.pk)
        if form.is_valid():
            form.save()
            messages.success(request, _("Saved."))
            return redirect("classroom:class_detail", pk=pupil.classroom_id)
    return render(
        request,
        "classroom/pupil_edit.html",
        {"pupil": pupil, "form": form, "avatars": AVATARS, "pictures": PASSWORD_PICTURES},
    )


@teacher_required
@require_POST
def pupil_unlock(request, pk: int):
    pupil = own_pupil(request, pk)
    pupil.unlock()
    messages.success(request, _("%(name)s can sign in again.") % {"name": pupil.short_name})
    return redirect("classroom:class_detail", pk=pupil.classroom_id)


@teacher_required
def pupil_export(request, pk: int):
    pupil = own_pupil(request, pk)
    data = privacy.pupil_data(pupil)
    signals.pupil_data_handled.send(
        sender=pupil_export, action=signals.PUPIL_EXPORT, teacher=request.user,
        classroom=pupil.classroom, pupil=pupil, count=1, detail={},
    )
    response = HttpResponse(
        json.dumps(data, indent=2, ensure_ascii=False, default=str),
        content_type="application/json; charset=utf-8",
    )
    filename = f"numbo-pupil-{pupil.pk}.json"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@teacher_required
def pupil_erase(request, pk: int):
    pupil = own_pupil(request, pk)
    if request.method == "POST":
        classroom_id = pupil.classroom_id
        name = roster.labels([pupil])[pupil.pk]
        with transaction.atomic():
            privacy.erase_pupil(pupil)
            signals.pupil_data_handled.send(
                sender=pupil_erase, action=signals.PUPIL_ERASED, teacher=request.user,
                classroom=pupil.classroom, pupil=None, count=1, detail={},
            )
        messages.success(
            request, _("%(name)s and everything recorded about them are erased.") % {"name": name}
        )
        return redirect("classroom:class_detail", pk=classroom_id)
    return render(
        request,
        "classroom/pupil_erase.html",
        {"pupil": roster.label_each([pupil])[0], "erased": privacy.erasure_lines(pupil)},
    )


@teacher_required
@require_POST
def code_reset(request, pk: int):
    classroom = own_classroom(request, pk)
    classroom.reset_code()
    messages.success(request, _("New class code: %(code)s.") % {"code": classroom.code})
    return redirect("classroom:class_detail", pk=classroom.pk)


@teacher_required
@require_POST
def sign_out_all(request, pk: int):
    classroom = own_classroom(request, pk)
    classroom.sign_out_everyone()
    messages.success(request, _("Every pupil of this class is signed out."))
    return redirect("classroom:class_detail", pk=classroom.pk)


def qr_svg(data: str) -> str:
    image = qrcode.make(data, image_factory=qrcode.image.svg.SvgPathImage, box_size=10, border=2)
    return image.to_string(encoding="unicode")


@teacher_required
def class_qr(request, pk: int):
    classroom = own_classroom(request, pk)
    url = request.build_absolute_uri(reverse("classroom:join_class", args=[classroom.code]))
    return HttpResponse(qr_svg(url), content_type="image/svg+xml")


@teacher_required
def sign_in_cards(request, pk: int):
    classroom = own_classroom(request, pk)
    pupils = roster.label_each(roster.in_name_order(classroom.pupils.all()))
    url = request.build_absolute_uri(reverse("classroom:join_class", args=[classroom.code]))
    return render(
        request,
        "classroom/sign_in_cards.html",
        {"classroom": classroom, "pupils": pupils, "qr": qr_svg(url), "join_url": url},
    )
