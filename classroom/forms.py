from __future__ import annotations

import hashlib
import unicodedata

from django import forms
from django.conf import settings
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm, PasswordResetForm, SetPasswordForm
from django.core.validators import MaxLengthValidator
from django.utils.translation import gettext_lazy as _

from . import devices, roster, throttle
from .models import Classroom, Pupil, Teacher
from .pictures import AVATARS, PASSWORD_LENGTH, PASSWORD_PICTURES
from .roster import NameRefused
from .validators import no_hidden_characters, plain_ids


class SignUpForm(forms.ModelForm):
    """The first step of a sign-up: an address and a name. Whether the address
    already has an account, the answer is the same ("check your email"): the
    e-mail says which (classroom.views.accounts)."""

    class Meta:
        model = Teacher
        fields = ("email", "display_name")
        labels = {"display_name": _("Your name, as pupils say it (e.g. Ms Martin)")}

    def __init__(self, *args, request=None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.request = request

    def validate_unique(self) -> None:
        pass  # an address already used is answered like any other, by e-mail

    def clean_email(self) -> str:
        return unicodedata.normalize("NFKC", self.cleaned_data["email"]).strip().lower()

    def clean(self) -> dict:
        cleaned = super().clean()
        if "email" in cleaned and not self.errors:
            refuse_too_many_emails(self.request, cleaned["email"], sign_up=True)
        return cleaned


class FinishSignUpForm(SetPasswordForm):
    """The second step, from the link in the e-mail: the password. Whoever
    chooses it holds the mailbox."""


class TeacherPasswordResetForm(PasswordResetForm):
    """Django's reset, also for an active teacher without a password yet (an
    account single sign-on made): Django's skips them, and they could never
    choose one."""

    def get_users(self, email: str):
        folded = unicodedata.normalize("NFKC", email).casefold()
        return (
            teacher
            for teacher in Teacher.objects.filter(email__iexact=email, is_active=True)
            if unicodedata.normalize("NFKC", teacher.email).casefold() == folded
        )


class LimitedPasswordResetForm(TeacherPasswordResetForm):
    """Django's reset, limited per address and per client address; the answer
    is the same whether the address has an account."""

    def __init__(self, *args, request=None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.request = request

    def clean(self) -> dict:
        cleaned = super().clean()
        if "email" in cleaned:
            refuse_too_many_emails(self.request, cleaned["email"])
        return cleaned


def refuse_too_many_emails(request, email: str, *, sign_up: bool = False) -> None:
    """Count one e-mail asked for this address (a reset, a sign-up) and from
    this client, before it is sent; refuse past the limits. The answer depends
    on what was typed, never on whether an account has it.

    Sign-ups have a client count of their own, over a longer window: a school
    behind one address (NAT, a proxy) signs 30 teachers up in a morning, each
    with their own address, while a script of a thousand stops at the limit."""
    limits = settings.NUMBO
    folded = unicodedata.normalize("NFKC", email).strip().casefold()
    client = devices.client_address(request)
    account_key = f"mail:account:{hashlib.sha256(folded.encode()).hexdigest()[:32]}"
    counted = {account_key: (limits["EMAILS_PER_ACCOUNT"], limits["EMAILS_WINDOW_SECONDS"])}
    if sign_up:
        counted[f"signup:addr:{client}"] = (
            limits["SIGN_UPS_PER_CLIENT_ADDRESS"], limits["SIGN_UPS_WINDOW_SECONDS"]
        )
    else:
        counted[f"mail:addr:{client}"] = (
            limits["EMAILS_PER_CLIENT_ADDRESS"], limits["EMAILS_WINDOW_SECONDS"]
        )
    counts = {key: throttle.take(key, window) for key, (_limit, window) in counted.items()}
    over = [window for key, (limit, window) in counted.items() if counts[key] > limit]
    if over:
        raise forms.ValidationError(
            _("Too many emails asked for. Try again in %(minutes)d minutes.")
            % {"minutes": -(-max(over) // 60)},
            code="throttled",
        )


class ClassroomForm(forms.ModelForm):
    class Meta:
        model = Classroom
        fields = (
            "name", "school_year", "year_group", "uses_picture_passwords", "pupils_practise_alone"
        )
        help_texts = {
            "year_group": _("The school report puts the classes of one year group side by side."),
        }

    def clean_school_year(self) -> str:
        year = self.cleaned_data["school_year"].strip()
        parts = year.split("-")
        if (
            len(parts) != 2
            or not all(p.isdigit() and len(p) == 4 for p in parts)
            or int(parts[1]) != int(parts[0]) + 1
        ):
            raise forms.ValidationError(_("Write the school year like 2026-2027."))
        return year


class CopyClassroomForm(forms.Form):
    name = forms.CharField(
        label=_("Name of the new class"), max_length=60, validators=[no_hidden_characters]
    )
    school_year = forms.CharField(label=_("School year"), max_length=9)
    copy_pupils = forms.BooleanField(label=_("Copy the pupils too"), required=False, initial=True)

    clean_school_year = ClassroomForm.clean_school_year


class PasteForm(forms.Form):
    pupils = forms.CharField(
        label=_("Pupils, one a line"),
        widget=forms.Textarea(attrs={"rows": 10, "placeholder": "Léa Martin\nNoah B.\nInès"}),
        help_text=_("A first name, then a family name or its initial. Blank lines are skipped."),
    )

    def clean_pupils(self) -> str:
        text = self.cleaned_data["pupils"]
        limits = settings.NUMBO
        if len(text) > limits["PASTE_MAX_CHARS"]:
            raise forms.ValidationError(
                _("That is too long to be a class list (%(max)d characters at most).")
                % {"max": limits["PASTE_MAX_CHARS"]}
            )
        lines = [line for line in text.splitlines() if line.strip()]
        if len(lines) > limits["PASTE_MAX_PUPILS"]:
            raise forms.ValidationError(
                _(
                    "That is %(count)d lines: a class has at most %(max)d pupils. "
                    "Paste a shorter list."
                )
                % {"count": len(lines), "max": limits["PASTE_MAX_PUPILS"]}
            )
        return text


class PupilForm(forms.ModelForm):
    avatar = forms.ChoiceField(
        label=_("Avatar"), choices=list(AVATARS.items()), widget=forms.RadioSelect
    )

    class Meta:
        model = Pupil
        fields = ("first_name", "initial", "avatar")

    def clean(self) -> dict:
        data = super().clean()
        if "first_name" in data and "initial" in data:
            try:
                data["first_name"], data["initial"] = roster.clean_name(
                    data["first_name"], data["initial"]
                )
            except NameRefused as refused:
                self.add_error("first_name", str(refused))
        return data

    def save(self, commit: bool = True) -> Pupil:
        pupil = super().save(commit=False)
        if {"first_name", "initial"} & set(self.changed_data):
            # A new name: the next number among that name's pupils, not the old name's.
            names = [(pupil.first_name, pupil.initial)]
            pupil.namesake = roster.next_namesakes(pupil.classroom_id, names, exclude=pupil.pk)[0]
        if commit:
            pupil.save()
        return pupil


class PicturePasswordForm(forms.Form):
    """The pictures a pupil tapped, in order: sent as one comma-separated field."""

    pictures = forms.CharField(max_length=100)

    def clean_pictures(self) -> list[str]:
        keys = [key for key in self.cleaned_data["pictures"].split(",") if key]
        if len(keys) != PASSWORD_LENGTH or any(key not in PASSWORD_PICTURES for key in keys):
            raise forms.ValidationError(_("Tap three pictures."))
        return keys


class ClassCodeForm(forms.Form):
    code = forms.CharField(
        label=_("Class code"),
        max_length=20,
        widget=forms.TextInput(
            attrs={"autocomplete": "off", "autocapitalize": "characters", "spellcheck": "false"}
        ),
    )


class LimitedSignIn:
    """Django's sign-in, limited by account and by address: every guess is
    counted before its password is checked, and only the first
    TEACHER_SIGN_IN_TRIES_PER_ACCOUNT of a window are checked (the right
    password's try is given back). The teachers' page and the admin's share
    the counts: an account locked on one is locked on the other."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # Django's form sets the username's length after the field is made,
        # so no validator checks it: 100,000 characters went into the
        # account's case-insensitive lookup (a LIKE pattern SQLite refuses).
        field = self.fields["username"]
        field.validators.append(MaxLengthValidator(field.max_length))

    def clean(self) -> dict:
        username = self.cleaned_data.get("username")
        if username is None or not self.cleaned_data.get("password"):
            return super().clean()  # nothing is checked: nothing to count
        limits = settings.NUMBO
        counted = {
            f"sign-in:account:{account_key(username)}": limits[
                "TEACHER_SIGN_IN_TRIES_PER_ACCOUNT"
            ],
            f"sign-in:addr:{devices.client_address(self.request)}": limits[
                "TEACHER_SIGN_IN_TRIES_PER_ADDRESS"
            ],
        }
        window = limits["TEACHER_SIGN_IN_WINDOW_SECONDS"]
        counts = {key: throttle.take(key, window) for key in counted}
        if any(counts[key] > limit for key, limit in counted.items()):
            raise forms.ValidationError(
                _("Too many wrong passwords. Try again in %(minutes)d minutes.")
                % {"minutes": -(-window // 60)},
                code="throttled",
            )
        cleaned = super().clean()
        for key in counted:
            throttle.give_back(key)
        return cleaned


def account_key(username: str) -> str:
    """The key an address's guesses are counted under: the account it signs in
    to, found as the sign-in finds it (the field's NFKC form, then
    Teacher.objects.get_by_natural_key), so that ｄemo@… or demo＠… count
    against demo@…'s account. An address of no account: its folded form,
    hashed so that whatever was typed makes a short key."""
    try:
        return f"teacher-{Teacher._default_manager.get_by_natural_key(username).pk}"
    except (Teacher.DoesNotExist, Teacher.MultipleObjectsReturned):
        folded = unicodedata.normalize("NFKC", username).strip().casefold()
        return hashlib.sha256(folded.encode()).hexdigest()[:32]


class TeacherSignInForm(LimitedSignIn, AuthenticationForm):
    pass


class AdminSignInForm(LimitedSignIn, AdminAuthenticationForm):
    pass


class TeacherChoices(forms.ModelMultipleChoiceField):
    def _check_values(self, value):
        plain_ids(value, _("A teacher ticked is not one of this list: reload the page."))
        return super()._check_values(value)


class CoTeachersForm(forms.Form):
    """The school's other active teachers, ticked for those who co-teach."""

    co_teachers = TeacherChoices(
        label=_("Co-teachers: they see and run this class as you do"),
        queryset=Teacher.objects.none(),
        widget=forms.CheckboxSelectMultiple,
        required=False,
    )

    def __init__(self, *args, classroom, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        school_id = classroom.teacher.school_id
        field = self.fields["co_teachers"]
        field.queryset = (
            Teacher.objects.filter(school_id=school_id, is_active=True)
            .exclude(pk=classroom.teacher_id)
            .order_by("display_name", "email")
            if school_id is not None
            else Teacher.objects.none()
        )
        field.label_from_instance = lambda t: t.display_name or t.email
        self.initial.setdefault("co_teachers", list(classroom.co_teachers.all()))
