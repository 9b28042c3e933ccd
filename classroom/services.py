"""Writes of the classroom pages: each function is one thing a teacher does.

A view parses and validates the request, calls one of these, and renders or
redirects; the queries it shows come from ``classroom.selectors``. Several
rows are written in one transaction, so a half-made class never shows.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction
from django.utils import timezone

from . import roster, selectors
from .models import Classroom, Pupil, Teacher
from .pictures import pick_avatar, random_picture_password
from .roster import RosterLine


def class_copy(
    classroom: Classroom,
    *,
    teacher: Teacher,
    name: str,
    school_year: str,
    copy_pupils: bool,
) -> Classroom:
    """A new school year: the same class under a new year and a new code, with
    its pupils (names, avatars, picture passwords) when asked."""
    with transaction.atomic():
        copy = Classroom.objects.create(
            teacher=teacher,
            name=name,
            school_year=school_year,
            uses_picture_passwords=classroom.uses_picture_passwords,
        )
        if copy_pupils:
            Pupil.objects.bulk_create(
                Pupil(
                    classroom=copy,
                    first_name=p.first_name,
                    initial=p.initial,
                    namesake=p.namesake,
                    avatar=p.avatar,
                    picture_password=p.picture_password,
                )
                for p in classroom.pupils.all()
            )
    return copy


def class_archive_toggle(classroom: Classroom) -> bool:
    """Archive the class (its pupils can no longer sign in), or bring it back.
    Returns whether it is archived now."""
    classroom.archived_at = None if classroom.is_archived else timezone.now()
    classroom.save(update_fields=["archived_at"])
    if classroom.is_archived:
        # Its pupils' sessions end with the archive; their table tokens too.
        classroom.sign_out_everyone()
    return classroom.is_archived


def pupils_add(classroom: Classroom, lines: Iterable[RosterLine]) -> list[Pupil]:
    """The pupils of a confirmed paste, each with an avatar no classmate has yet
    (while there are some) and a new picture password."""
    taken = selectors.avatars_taken(classroom)
    lines = list(lines)
    names = [(line.first_name, line.initial) for line in lines]
    new_pupils = []
    for line, namesake in zip(lines, roster.next_namesakes(classroom.pk, names), strict=True):
        avatar = pick_avatar(taken)
        taken.add(avatar)
        new_pupils.append(
            Pupil(
                classroom=classroom,
                first_name=line.first_name,
                initial=line.initial,
                namesake=namesake,
                avatar=avatar,
                picture_password=random_picture_password(),
            )
        )
    return Pupil.objects.bulk_create(new_pupils)


def picture_password_renew(pupil: Pupil) -> None:
    """A new picture password, for a pupil who forgot theirs or gave it away."""
    pupil.picture_password = random_picture_password()
    pupil.save(update_fields=["picture_password"])
