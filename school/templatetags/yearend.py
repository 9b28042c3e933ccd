"""What the class page (classroom's template) shows of the year's end: who may
hand the class over or move its pupils, and when a leaver is erased."""

from __future__ import annotations

from datetime import datetime

from django import template

from classroom.models import Classroom, Pupil, Teacher
from classroom.roles import changes_pupils_of

from .. import handover, leavers, moves

register = template.Library()


@register.simple_tag
def may_hand_over(teacher: Teacher, classroom: Classroom) -> bool:
    return handover.may_hand_over(teacher, classroom)


@register.simple_tag
def may_change_pupils(teacher: Teacher, classroom: Classroom) -> bool:
    return changes_pupils_of(teacher, classroom) and moves.may_move_from(teacher, classroom)


@register.filter
def erased_on(pupil: Pupil) -> datetime | None:
    return leavers.erased_on(pupil)
