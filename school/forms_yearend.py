"""The forms of the school's year-end pages and its record (part E; school.forms is
the people part's).

Each form is built for one class or one school: its choices are what the
signed-in teacher may pick, so a forged id (a teacher of another school, a
pupil of another class) is refused by the form, with a sentence that says why.
"""

from __future__ import annotations

from django import forms
from django.core.validators import MaxValueValidator, MinValueValidator
from django.utils.translation import gettext_lazy as _

from classroom import roster
from classroom.models import Classroom, Pupil, Teacher
from classroom.validators import plain_ids

from . import handover, moves, year_archive
from .models import AuditEntry, School

MOST_KEPT_DAYS = 3650  # ten years: more is a typing slip, not a school's rule
class PupilChoices(forms.ModelMultipleChoiceField):
    """Pupils as their class names them ("Léa M. (2)")."""

    widget = forms.CheckboxSelectMultiple

    def __init__(self, queryset, **kwargs) -> None:
        super().__init__(queryset, **kwargs)
        self.names: dict[int, str] = {}

    def _check_values(self, value):
        plain_ids(value, _("A pupil ticked is not one of this list: reload the page."))
        return super()._check_values(value)

    def label_from_instance(self, pupil: Pupil) -> str:
        if not self.names:
            self.names = roster.labels(self.queryset)
        return self.names.get(pupil.pk, pupil.short_name)


class TeacherChoice(forms.ModelChoiceField):
    def to_python(self, value):
        if value not in self.empty_values:
            plain_ids([value], self.error_messages["invalid_choice"])
        return super().to_python(value)

    def label_from_instance(self, teacher: Teacher) -> str:
        if teacher.display_name:
            return f"{teacher.display_name} ({teacher.email})"
        return teacher.email


class HandOverForm(forms.Form):
    to = TeacherChoice(
        queryset=Teacher.objects.none(),
        label=_("Next year's teacher"),
        empty_label=_("Choose a teacher"),
        error_messages={
            "required": _("Choose the teacher who takes the class."),
            "invalid_choice": _(
                "That teacher cannot take the class: choose an active teacher of your school."
            ),
        },
    )
    keep_as_co_teacher = forms.BooleanField(
        required=False,
        label=_("The present teacher stays on as a co-teacher"),
        help_text=_("A co-teacher sees and runs the class too: handy for the first weeks."),
    )

    def __init__(self, *args, classroom: Classroom, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["to"].queryset = handover.receivers(classroom)


class MovePupilsForm(forms.Form):
    pupils = PupilChoices(
        Pupil.objects.none(),
        label=_("Pupils to move"),
        error_messages={
            "required": _("Tick the pupils to move."),
            "invalid_choice": _("A pupil ticked is not in this class: reload the page."),
            "invalid_pk_value": _("A pupil ticked is not in this class: reload the page."),
        },
    )
    to = forms.ModelChoiceField(
        queryset=Classroom.objects.none(),
        label=_("Into the class"),
        empty_label=_("Choose a class"),
        error_messages={
            "required": _("Choose the class the pupils go to."),
            "invalid_choice": _(
                "You cannot move pupils into that class: choose a class of your school "
                "that you run and that is not archived."
            ),
        },
    )

    def __init__(self, *args, classroom: Classroom, teacher: Teacher, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["pupils"].queryset = classroom.pupils.order_by("first_name", "initial", "pk")
        self.fields["to"].queryset = moves.destinations(teacher, classroom)


NOT_THIS_YEAR = _("A pupil ticked is not in a class of this year: reload the page.")


class ArchiveYearForm(forms.Form):
    school_year = forms.ChoiceField(
        label=_("School year"),
        error_messages={"invalid_choice": _("That school year has no class in use.")},
    )
    leavers = PupilChoices(
        Pupil.objects.none(),
        required=False,
        label=_("Pupils who leave the school"),
        error_messages={
            "invalid_choice": NOT_THIS_YEAR,
            "invalid_pk_value": NOT_THIS_YEAR,
        },
    )
    confirm = forms.BooleanField(
        label=_("I understand: the pupils of these classes can no longer sign in"),
        error_messages={"required": _("Tick the box to say you understand, then archive.")},
    )

    def __init__(self, *args, school_id: int, school_year: str, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        years = year_archive.years_in_use(school_id)
        self.fields["school_year"].choices = [(year, year) for year in years]
        self.fields["leavers"].queryset = Pupil.objects.filter(
            classroom__in=year_archive.classes_of_year(school_id, school_year)
        )


class SchoolSettingsForm(forms.ModelForm):
    class Meta:
        model = School
        fields = ("leavers_kept_days",)
        labels = {"leavers_kept_days": _("Days a leaver's record is kept")}

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["leavers_kept_days"]
        field.validators = [
            MinValueValidator(0, _("At least 0 days (0: the night after they leave).")),
            MaxValueValidator(
                MOST_KEPT_DAYS,
                _("At most %(limit_value)s days (ten years)."),
            ),
        ]
        field.widget.attrs.update(min=0, max=MOST_KEPT_DAYS, inputmode="numeric")
        field.error_messages.update(
            required=_("Say how many days (0 to erase leavers the night after they leave)."),
            invalid=_("A whole number of days, please."),
        )


class RecordFilterForm(forms.Form):
    kind = forms.ChoiceField(
        required=False,
        label=_("What was done"),
        choices=[("", _("everything"))] + list(AuditEntry.Kind.choices),
        error_messages={"invalid_choice": _("There is no such kind of entry: showing everything.")},
    )
