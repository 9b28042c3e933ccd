"""The forms of the school's pages: inviting, making a code, joining, and the
administrator's changes to a teacher."""

from __future__ import annotations

import unicodedata

from django import forms
from django.contrib.auth import password_validation
from django.utils.translation import gettext_lazy as _

from classroom.models import Teacher
from classroom.validators import no_hidden_characters

from .invitations import CODE_DAYS_MAX, CODE_USES_MAX
from .services import normalise_email

ROLE_CHOICES = Teacher.Role.choices


class InviteForm(forms.Form):
    prefix = "invite"  # beside the code's form on one page: ids of their own
    email = forms.EmailField(label=_("The teacher's e-mail address"), max_length=254)
    role = forms.ChoiceField(label=_("Role"), choices=ROLE_CHOICES, initial=Teacher.Role.TEACHER)

    def clean_email(self) -> str:
        return normalise_email(self.cleaned_data["email"])


class CodeForm(forms.Form):
    prefix = "code"
    role = forms.ChoiceField(label=_("Role"), choices=ROLE_CHOICES, initial=Teacher.Role.TEACHER)
    max_uses = forms.IntegerField(
        label=_("How many teachers may use it"), min_value=1, max_value=CODE_USES_MAX, initial=30
    )
    days = forms.IntegerField(
        label=_("Days it lasts"), min_value=1, max_value=CODE_DAYS_MAX, initial=7
    )


class RoleForm(forms.Form):
    role = forms.ChoiceField(label=_("Role"), choices=ROLE_CHOICES)


class NewTeacherForm(forms.Form):
    """A teacher's name and password, as they join a school."""

    display_name = forms.CharField(
        label=_("Your name, as pupils say it (e.g. Ms Martin)"),
        max_length=60,
        validators=[no_hidden_characters],
    )
    new_password1 = forms.CharField(
        label=_("Password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        help_text=password_validation.password_validators_help_text_html(),
    )
    new_password2 = forms.CharField(
        label=_("The same password again"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )

    def __init__(self, *args, email: str = "", **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.email = email

    def clean(self) -> dict:
        cleaned = super().clean()
        first, second = cleaned.get("new_password1"), cleaned.get("new_password2")
        if first and second and first != second:
            self.add_error("new_password2", _("The two passwords differ."))
        elif first:
            teacher = Teacher(
                email=cleaned.get("email", self.email),
                display_name=cleaned.get("display_name", ""),
            )
            try:
                password_validation.validate_password(first, teacher)
            except forms.ValidationError as refused:
                self.add_error("new_password1", refused)
        return cleaned


class JoinForm(NewTeacherForm):
    """The "join your school" page: the code the administrator gave, then who
    the teacher is."""

    code = forms.CharField(
        label=_("School code"),
        max_length=20,
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "characters",
                                      "class": "code-input"}),
    )
    email = forms.EmailField(label=_("Your e-mail address"), max_length=254)
    field_order = ["code", "display_name", "email", "new_password1", "new_password2"]

    def clean_email(self) -> str:
        return unicodedata.normalize("NFKC", self.cleaned_data["email"]).strip().lower()
