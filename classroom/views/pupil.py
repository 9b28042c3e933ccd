"""A pupil on a tablet: class code, name, picture password, home.

Three taps, no typing beyond the class code (the QR code skips even that).
"""

from __future__ import annotations

from collections import Counter

from django.conf import settings
from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from .. import devices, play_list, pupil_auth, roster, selectors, throttle
from ..forms import ClassCodeForm
from ..pictures import PASSWORD_LENGTH, PASSWORD_PICTURES
from ..reports import lessons
from .access import pupil_required


def _code_tries_exhausted(request) -> bool:
    limits = settings.NUMBO
    return (
        throttle.hits(f"code:device:{devices.device_key(request)}")
        >= limits["CLASS_CODE_TRIES_PER_DEVICE"]
        or throttle.hits(f"code:addr:{devices.client_address(request)}")
        >= limits["CLASS_CODE_TRIES_PER_ADDRESS"]
    )


def _record_wrong_code(request) -> None:
    window = settings.NUMBO["CLASS_CODE_WINDOW_SECONDS"]
    throttle.record(f"code:device:{devices.device_key(request)}", window)
    throttle.record(f"code:addr:{devices.client_address(request)}", window)


def join(request):
    """Step 1: the class code (typed here, or carried by the QR code's link)."""
    devices.device_cookie(request)  # the code page gives a new tablet its device cookie
    form = ClassCodeForm(request.POST or None)
    status = 200
    if request.method == "POST" and form.is_valid():
        if _code_tries_exhausted(request):
            form.add_error("code", _("Too many wrong codes. Ask your teacher, then wait a little."))
            status = 429
        else:
            classroom = selectors.active_class_by_code(form.cleaned_data["code"])
            if classroom:
                return redirect("classroom:join_class", code=classroom.code)
            _record_wrong_code(request)
            form.add_error("code", _("No class has this code. Look at the board again."))
    return render(request, "classroom/join.html", {"form": form}, status=status)


def _refuse_code(request):
    """A wrong code, or a real code with a pupil not in it: counted, and answered
    alike, so that a guesser cannot tell a real code by the answer."""
    _record_wrong_code(request)
    messages.error(request, _("No class has this code. Look at the board again."))
    return redirect("classroom:join")


def _too_many_codes(request):
    messages.error(request, _("Too many wrong codes. Ask your teacher, then wait a little."))
    return render(request, "classroom/join.html", {"form": ClassCodeForm()}, status=429)


def join_class(request, code: str):
    """Step 2: tap your name."""
    if _code_tries_exhausted(request):
        return _too_many_codes(request)
    classroom = selectors.active_class_by_code(code)
    if classroom is None:
        return _refuse_code(request)
    pupils = roster.label_each(roster.in_name_order(classroom.pupils.all()))
    return render(request, "classroom/join_class.html", {"classroom": classroom, "pupils": pupils})


def join_pupil(request, code: str, pupil_pk: int):
    """Step 3: tap your picture password, one picture per tap (no script needed)."""
    if _code_tries_exhausted(request):
        return _too_many_codes(request)
    classroom = selectors.active_class_by_code(code)
    pupil = selectors.pupil_in_class(classroom, pupil_pk)
    if pupil is None:
        return _refuse_code(request)
    roster.label_each([pupil])
    if not classroom.uses_picture_passwords:
        if request.method == "POST":
            pupil_auth.sign_in(request, pupil)
            return redirect("classroom:pupil_home")
        return render(request, "classroom/join_confirm.html", {"pupil": pupil})

    device = devices.device_key(request)
    so_far: list[str] = []
    if request.method == "POST":
        if pupil.is_locked_for(device):
            return _locked(request, pupil)
        so_far = [k for k in request.POST.get("so_far", "").split(",") if k in PASSWORD_PICTURES]
        tap = request.POST.get("tap", "")
        if tap in PASSWORD_PICTURES:
            so_far = (so_far + [tap])[:PASSWORD_LENGTH]
        if len(so_far) == PASSWORD_LENGTH:
            if not pupil.claim_sign_in_try(device):
                return _locked(request, pupil)
            if so_far == pupil.password_pictures:
                pupil.signed_in_from(device)
                pupil_auth.sign_in(request, pupil)
                return redirect("classroom:pupil_home")
            if pupil.is_locked_for(device):
                return _locked(request, pupil)
            messages.error(request, _("Not quite. Try again!"))
            so_far = []
    elif pupil.is_locked_for(device):
        return _locked(request, pupil)
    return render(
        request,
        "classroom/join_pupil.html",
        {
            "classroom": classroom,
            "pupil": pupil,
            "pictures": PASSWORD_PICTURES,
            "so_far": so_far,
            "dots": [i < len(so_far) for i in range(PASSWORD_LENGTH)],
        },
    )


def _locked(request, pupil):
    return render(request, "classroom/join_locked.html", {"pupil": pupil}, status=423)


@pupil_required
def pupil_home(request):
    # Several games at once: each button names its game, in words and a picture,
    # and when it started if another of the same game is listed too.
    tables = play_list.for_pupil(request.pupil)
    titles = Counter(str(title) for _table, title in tables)
    games = [
        {"table": table, "title": title, "same_game_twice": titles[str(title)] > 1}
        for table, title in tables
    ]
    # With no game to play, the pupil may practise their next skill alone,
    # unless the teacher switched it off for the class.
    practice = None
    if not games and request.pupil.classroom.pupils_practise_alone:
        practice = lessons.next_practice(request.pupil)
    return render(
        request, "classroom/pupil_home.html", {"games": games, "practice": practice}
    )


@require_POST
def pupil_sign_out(request):
    """'Not me?': the tablet goes back to the name grid of the same class."""
    pupil = request.pupil
    code = pupil.classroom.code if pupil else None
    pupil_auth.sign_out(request)
    if code:
        return redirect(reverse("classroom:join_class", args=[code]))
    return redirect("classroom:join")
