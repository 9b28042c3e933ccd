from django import template
from django.templatetags.static import static
from django.utils.html import format_html

from ..pictures import AVATARS, PASSWORD_PICTURES

register = template.Library()


def _sprite(sheet: str, key: str, label: str, size: str) -> str:
    return format_html(
        '<svg class="pic {}" role="img" aria-label="{}" focusable="false">'
        '<use href="{}#{}"></use></svg>',
        size,
        label,
        static(f"img/{sheet}.svg"),
        key,
    )


@register.simple_tag
def avatar(key: str, size: str = "") -> str:
    return _sprite("avatars", key, AVATARS.get(key, ""), size)


@register.simple_tag
def picture(key: str, size: str = "") -> str:
    return _sprite("pictures", key, PASSWORD_PICTURES.get(key, ""), size)


# The four operations have a sign every teacher reads at a glance; the report
# grid shows it in place of the long name when a tablet's width is short.
SKILL_SIGNS = {"add": "+", "sub": "−", "mul": "×", "div": "÷"}


@register.filter
def skill_sign(skill: str) -> str:
    return SKILL_SIGNS.get(skill, "")
