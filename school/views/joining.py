"""Joining a school: the invitation's e-mail link, or the school code typed on
the "join your school" page. Both are open to visitors: the signed link or the
code is the key, and wrong codes are counted per client address."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from classroom import devices, throttle

from .. import invitations
from ..forms import JoinForm, NewTeacherForm

BACKEND = "django.contrib.auth.backends.ModelBackend"


def invitation_accept(request, token: str):
    """The e-mail's link: the address is the invitation's, the teacher chooses
    a name and a password, and is in the school with its role."""
    try:
        invitation = invitations.by_token(token)
    except invitations.Refused as refused:
        return render(request, "school/people/invitation_accept.html", {"refused": refused},
                      status=410)
    context = {"invitation": invitation}
    if request.user.is_authenticated:
        # An account of before the school (open sign-up): it joins as it is.
        if request.method == "POST":
            try:
                invitations.accept_signed_in(invitation, request.user)
            except invitations.Refused as refused:
                messages.error(request, str(refused))
                return redirect("classroom:class_list")
            messages.success(request, _("Welcome to %(school)s!") % {"school": invitation.school})
            return redirect("classroom:class_list")
        return render(request, "school/people/invitation_accept.html",
                      {**context, "signed_in": True})
    form = NewTeacherForm(request.POST or None, email=invitation.email)
    if request.method == "POST" and form.is_valid():
        try:
            teacher = invitations.accept(
                invitation,
                email=invitation.email,
                display_name=form.cleaned_data["display_name"],
                password=form.cleaned_data["new_password1"],
            )
        except (invitations.Refused, ValidationError) as refused:
            form.add_error(None, refused if isinstance(refused, ValidationError) else str(refused))
        else:
            return _welcome(request, teacher)
    return render(request, "school/people/invitation_accept.html", {**context, "form": form})


def join(request):
    """"Join your school": the code the administrator shared, the teacher's
    name, address and password."""
    if request.user.is_authenticated:
        return redirect("classroom:class_list")
    form = JoinForm(request.POST or None)
    status = 200
    if request.method == "POST" and form.is_valid():
        if _too_many_codes(request):
            form.add_error(None, _("Too many codes tried. Wait a few minutes and try again."))
            status = 429
        else:
            try:
                invitation = invitations.by_code(form.cleaned_data["code"])
                teacher = invitations.accept(
                    invitation,
                    email=form.cleaned_data["email"],
                    display_name=form.cleaned_data["display_name"],
                    password=form.cleaned_data["new_password1"],
                )
            except (invitations.Refused, ValidationError) as refused:
                form.add_error(
                    None, refused if isinstance(refused, ValidationError) else str(refused)
                )
                status = 400
            else:
                # A right code gives its try back: only wrong ones add up.
                throttle.give_back(_code_key(request))
                return _welcome(request, teacher)
    elif request.method == "POST":
        status = 400
    return render(request, "school/people/join.html", {"form": form}, status=status)


def _too_many_codes(request) -> bool:
    """Codes tried from this client address: a staff room behind one address
    joins in a morning; a script guessing codes stops after a few dozen."""
    limits = settings.NUMBO
    return throttle.take(_code_key(request), limits["SCHOOL_CODE_WINDOW_SECONDS"]) > limits[
        "SCHOOL_CODE_TRIES_PER_ADDRESS"
    ]


def _code_key(request) -> str:
    return f"school-code:addr:{devices.client_address(request)}"


def _welcome(request, teacher):
    login(request, teacher, backend=BACKEND)
    messages.success(request, _("Welcome to %(school)s! Create your first class.")
                     % {"school": teacher.school.name})
    return redirect("classroom:class_create")
