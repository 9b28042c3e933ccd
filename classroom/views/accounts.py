"""A teacher's account: the sign-up (by e-mail) and the password reset.

Neither tells anyone whether an address has an account: both answer "check
your email", and the e-mail tells the address's owner what they need (a link
to finish the sign-up, or that they already have an account)."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.views import PasswordResetView
from django.core import signing
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse, reverse_lazy
from django.utils.translation import gettext as _

from ..forms import FinishSignUpForm, LimitedPasswordResetForm, SignUpForm
from ..models import Teacher

SIGN_UP_SALT = "numbo.sign-up"
SIGN_UP_DAYS = 3


def _closed(request):
    """Open sign-up is off (production, unless NUMBO_OPEN_SIGN_UP=1): teachers
    join their school by invitation (school.invitations)."""
    return render(request, "registration/sign_up_closed.html")


def sign_up(request):
    if request.user.is_authenticated:
        return redirect("classroom:class_list")
    if not settings.NUMBO_OPEN_SIGN_UP:
        return _closed(request)
    form = SignUpForm(request.POST or None, request=request)
    if request.method == "POST" and form.is_valid():
        _send_sign_up_email(request, form.cleaned_data["email"], form.cleaned_data["display_name"])
        return redirect("sign_up_sent")
    status = 429 if form.has_error("__all__", "throttled") else 200
    return render(request, "registration/sign_up.html", {"form": form}, status=status)


def _send_sign_up_email(request, email: str, display_name: str) -> None:
    context = {
        "login_url": request.build_absolute_uri(reverse("login")),
        "reset_url": request.build_absolute_uri(reverse("password_reset")),
    }
    if Teacher.objects.filter(email__iexact=email).exists():
        template = "registration/sign_up_exists_email.txt"
    else:
        token = signing.dumps({"email": email, "name": display_name}, salt=SIGN_UP_SALT)
        context["finish_url"] = request.build_absolute_uri(reverse("sign_up_finish", args=[token]))
        template = "registration/sign_up_email.txt"
    send_mail(
        _("Numbo: your teacher account"), render_to_string(template, context), None, [email]
    )


def sign_up_sent(request):
    return render(request, "registration/sign_up_sent.html")


def sign_up_finish(request, token: str):
    """The link of the e-mail: choose a password, and the account exists."""
    if not settings.NUMBO_OPEN_SIGN_UP:
        return _closed(request)
    try:
        asked = signing.loads(token, salt=SIGN_UP_SALT, max_age=SIGN_UP_DAYS * 24 * 60 * 60)
        email, name = str(asked["email"]), str(asked["name"])
    except (signing.BadSignature, KeyError, TypeError):
        asked = None
    # Used once: the account it made has the address now.
    if asked is None or Teacher.objects.filter(email__iexact=email).exists():
        return render(request, "registration/sign_up_finish.html", {"validlink": False})
    teacher = Teacher(email=email, display_name=name)
    form = FinishSignUpForm(teacher, request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            with transaction.atomic():
                form.save()
        except IntegrityError:  # the same link, twice at once
            return render(request, "registration/sign_up_finish.html", {"validlink": False})
        login(request, teacher, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, _("Welcome to Numbo! Create your first class."))
        return redirect("classroom:class_create")
    return render(
        request,
        "registration/sign_up_finish.html",
        {"validlink": True, "form": form, "email": email},
    )


class LimitedPasswordResetView(PasswordResetView):
    form_class = LimitedPasswordResetForm
    success_url = reverse_lazy("password_reset_done")

    def get_form_kwargs(self) -> dict:
        return {**super().get_form_kwargs(), "request": self.request}

    def form_invalid(self, form):
        response = super().form_invalid(form)
        if form.has_error("__all__", "throttled"):
            response.status_code = 429
        return response


def home(request):
    if request.user.is_authenticated:
        return redirect("classroom:class_list")
    if request.pupil:
        return redirect("classroom:pupil_home")
    return render(request, "home.html")
