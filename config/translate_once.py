"""Django's ``i18n`` template library, with ``{% translate "words" %}`` looked
up once per language instead of at every draw.

A table's page says the same words on every draw ("The board", "Your turn"):
Django's tag builds a lazy translation, looks it up in the catalogue and
escapes it each time, some microseconds a tag, dozens of tags a page. Words
written in the template (no variable, no filter, no ``as``) are the same for
a language every time, so the first draw's answer is kept per language and
per autoescape, and the tag gives back exactly what Django's would.

``install()`` (games.apps) puts the tag in Django's own ``i18n`` library, in
place of Django's: a library of our own under that name would be a second
``i18n`` (templates.W003), and every template's ``{% load i18n %}`` stays.
"""

from __future__ import annotations

from django.core.signals import setting_changed
from django.template.base import Variable
from django.template.context import Context
from django.templatetags import i18n as django_i18n
from django.utils.translation import get_language

# (words, message context, noop, language, autoescape) -> what the tag draws.
_said: dict[tuple, str] = {}


def _forget(*, setting: str, **kwargs) -> None:
    # A test that changes the languages or the catalogues must not see old words.
    if setting in {"LANGUAGES", "LANGUAGE_CODE", "LOCALE_PATHS"}:
        _said.clear()


setting_changed.connect(_forget)


def _constant(expression) -> bool:
    """A filter expression that is written words: no variable, no filter."""
    if expression is None:
        return True
    var = expression.var
    return not expression.filters and (
        not isinstance(var, Variable) or var.lookups is None
    )


class TranslateOnceNode(django_i18n.TranslateNode):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.words = (
            self.filter_expression.var.literal
            if _constant(self.filter_expression) and not self.asvar
            and _constant(self.message_context)
            else None
        )
        if self.words is not None and self.message_context is not None:
            context = self.message_context.var
            self.message_key = context.literal if isinstance(context, Variable) else context
        else:
            self.message_key = None

    def render(self, context: Context) -> str:
        if self.words is None:
            return super().render(context)
        key = (self.words, self.message_key, self.noop, get_language(), context.autoescape)
        said = _said.get(key)
        if said is None:
            said = _said[key] = super().render(context)
        return said


_django_translate = django_i18n.do_translate


def do_translate(parser, token) -> TranslateOnceNode:
    """Django's ``{% translate %}``, its written words looked up once a language."""
    node = _django_translate(parser, token)
    return TranslateOnceNode(node.filter_expression, node.noop, node.asvar, node.message_context)


def install() -> None:
    """``{% translate %}`` and ``{% trans %}`` of ``{% load i18n %}`` are ours
    from now on (templates compiled before keep Django's)."""
    django_i18n.register.tags["translate"] = do_translate
    django_i18n.register.tags["trans"] = do_translate
