"""The school's own pages for its administrator (and, for the classes, its
maths lead): every class by year group, the teachers, their invitations."""

from __future__ import annotations

from functools import wraps

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Count, Q
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from classroom import roles
from classroom.models import Teacher, YearGroup

from .. import invitations, services
from ..forms import CodeForm, InviteForm, RoleForm
from ..models import Invitation


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


def _teachers_page(request, *, invite_form=None, code_form=None, status=200):
    school = request.user.school
    teachers = school.teachers.order_by("-is_active", "display_name", "email")
    waiting = school.invitations.pending().select_related("invited_by")
    return render(
        request,
        "school/people/teachers.html",
        {
            "school": school,
            "teachers": teachers,
            "roles": Teacher.Role.choices,
            "links": [i for i in waiting if i.kind == Invitation.Kind.EMAIL],
            "codes": [i for i in waiting if i.kind == Invitation.Kind.CODE],
            "invite_form": invite_form or InviteForm(),
            "code_form": code_form or CodeForm(),
            "join_url": request.build_absolute_uri(reverse("school:join")),
            "link_days": invitations.LINK_DAYS,
        },
        status=status,
    )


@school_admin_required
def teachers(request):
    """The school's teachers: their roles and last sign-in, invitations and codes."""
    return _teachers_page(request)


@school_admin_required
@require_POST
def invite(request):
    form = InviteForm(request.POST)
    if not form.is_valid():
        return _teachers_page(request, invite_form=form, status=400)
    email = form.cleaned_data["email"]
    member = Teacher.objects.filter(email__iexact=email).first()
    if member is not None and member.school_id == request.user.school_id:
        form.add_error("email", _("This teacher is already one of the school's."))
        return _teachers_page(request, invite_form=form, status=400)
    invitations.invite_by_email(
        request.user.school,
        email,
        form.cleaned_data["role"],
        request.user,
        lambda token: request.build_absolute_uri(reverse("school:invitation_accept", args=[token])),
    )
    messages.success(
        request,
        _("Invitation sent to %(email)s. The link works once, for %(days)d days.")
        % {"email": email, "days": invitations.LINK_DAYS},
    )
    return redirect("school:teachers")


@school_admin_required
@require_POST
def code_new(request):
    form = CodeForm(request.POST)
    if not form.is_valid():
        return _teachers_page(request, code_form=form, status=400)
    code = invitations.make_code(
        request.user.school,
        form.cleaned_data["role"],
        form.cleaned_data["max_uses"],
        form.cleaned_data["days"],
        request.user,
    )
    messages.success(request, _("New school code: %(code)s.") % {"code": code.code})
    return redirect("school:teachers")


@school_admin_required
@require_POST
def invitation_revoke(request, pk: int):
    invitation = get_object_or_404(Invitation, pk=pk, school_id=request.user.school_id)
    invitations.revoke(invitation)
    messages.success(
        request, _("Withdrawn: %(what)s can no longer be used.") % {"what": invitation}
    )
    return redirect("school:teachers")


@school_admin_required
@require_POST
@transaction.atomic
def teacher_change(request, pk: int):
    """One change to one of the school's teachers: the role, deactivate,
    reactivate, or a password-reset e-mail. Another school's teacher is not
    found; anything else forged is said in words."""
    teacher = get_object_or_404(Teacher, pk=pk, school_id=request.user.school_id)
    action = request.POST.get("action", "")
    name = teacher.display_name or teacher.email
    if action == "role":
        form = RoleForm(request.POST)
        if not form.is_valid():
            messages.error(request, _("Choose one of the roles in the list."))
        elif _last_admin(teacher) and form.cleaned_data["role"] != Teacher.Role.ADMIN:
            messages.error(request, LAST_ADMIN)
        else:
            services.role_change(teacher, form.cleaned_data["role"])
            messages.success(
                request,
                _("%(name)s is now %(role)s.")
                % {"name": name, "role": teacher.get_role_display()},
            )
    elif action in ("deactivate", "reactivate"):
        if action == "deactivate" and _last_admin(teacher):
            messages.error(request, LAST_ADMIN)
        else:
            services.active_set(teacher, action == "reactivate")
            if teacher.is_active:
                messages.success(request, _("%(name)s can sign in again.") % {"name": name})
            else:
                messages.success(
                    request,
                    _("%(name)s can no longer sign in. Their classes stay with the school.")
                    % {"name": name},
                )
    elif action == "reset":
        if not teacher.is_active:
            messages.error(request, _("Reactivate %(name)s first.") % {"name": name})
        else:
            services.password_reset_send(request, teacher)
            messages.success(
                request,
                _("%(email)s has been sent a link to choose a new password.")
                % {"email": teacher.email},
            )
    else:
        messages.error(request, _("That change is not one this page makes."))
    return redirect("school:teachers")


LAST_ADMIN = gettext_lazy(
    "The school needs an administrator: give the role to another teacher before "
    "taking it from this one."
)


def _last_admin(teacher: Teacher) -> bool:
    return (
        teacher.role == Teacher.Role.ADMIN
        and teacher.is_active
        and services.administrators_left(teacher.school_id, without=teacher) == 0
    )
