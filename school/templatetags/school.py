"""The school's words in templates: whether the nav shows the school's pages."""

from __future__ import annotations

from django import template

from classroom import roles

register = template.Library()


@register.filter
def sees_whole_school(user) -> bool:
    """For the nav's "School" link: the administrator and the maths lead."""
    return bool(getattr(user, "is_authenticated", False)) and roles.sees_whole_school(user)


@register.filter
def manages_school(user) -> bool:
    return bool(getattr(user, "is_authenticated", False)) and roles.manages_school(user)


@register.simple_tag
def open_sign_up() -> bool:
    """Whether anyone may sign up without an invitation (settings.NUMBO_OPEN_SIGN_UP)."""
    from django.conf import settings

    return settings.NUMBO_OPEN_SIGN_UP
