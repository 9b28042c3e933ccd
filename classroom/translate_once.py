"""Django's ``i18n`` template library, with ``{% translate "words" %}`` looked
up once per language instead of at every draw, and ``{% blocktranslate %}``
once per language and values.

A table's page says the same words on every draw ("The board", "Your turn"):
Django's tag builds a lazy translation, looks it up in the catalogue and
escapes it each time, some microseconds a tag, dozens of tags a page. Words
written in the template (no variable, no filter, no ``as``) are the same for
a language every time, so the first draw's answer is kept per language and
per autoescape, and the tag gives back exactly what Django's would. A
``{% blocktranslate %}`` ("Square {{ n }}", 11 µs a tag) is kept the same way
for each set of values it shows, when they are plain numbers and strings
(tests/test_translate_once.py draws both against Django's own tags).

``install()`` (classroom.apps, the first of our apps to start) puts the tags
in Django's own ``i18n`` library, in place of Django's: a library of our own
under that name would be a second ``i18n`` (templates.W003), and every
template's ``{% load i18n %}`` stays as it is.
"""

from __future__ import annotations

from django.core.signals import setting_changed
from django.template.base import TokenType, Variable
from django.template.context import Context
from django.templatetags import i18n as django_i18n
from django.utils.safestring import SafeString
from django.utils.translation import get_language

# (words, message context, noop, language, autoescape) -> what the tag draws.
_said: dict[tuple, str] = {}


def _forget(*, setting: str, **kwargs) -> None:
    # A test that changes the languages or the catalogues must not see old words.
    if setting in {"LANGUAGES", "LANGUAGE_CODE", "LOCALE_PATHS"}:
        _said.clear()
        _worded.clear()


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


# The values a {% blocktranslate %} may key its words by: each draws the same
# every time (the type is in the key: a safe string is not escaped, True is not 1).
PLAIN = frozenset({int, str, SafeString, type(None), bool})
_worded: dict[tuple, str] = {}  # (node, language, its values...) -> its words
MOST_WORDED = 20_000  # a square's name for every square in both languages, and room


class BlockTranslateOnceNode(django_i18n.BlockTranslateNode):
    """Django's ``{% blocktranslate %}``, its answer kept per language for the
    values it shows ("Square {{ n }}": one per square), when they are plain
    numbers or strings; anything else, and ``as``, drawn by Django's at
    every draw."""

    def render(self, context: Context, nested: bool = False) -> str:
        if self.asvar or nested or not _constant(self.message_context):
            return super().render(context, nested)
        names = self.__dict__.get("_names")
        if names is None:
            names = self._names = tuple(
                token.contents for token in (*self.singular, *self.plural)
                if token.token_type == TokenType.VAR
            )
        given = {name: value.resolve(context) for name, value in self.extra_context.items()}
        if self.countervar and self.counter:
            given[self.countervar] = self.counter.resolve(context)
        key = [self, get_language(), context.autoescape, context.use_l10n, context.use_tz]
        if self.countervar and self.counter:
            # The plural chosen follows the count, shown or not.
            names = (self.countervar, *names)
        for name in names:
            value = given[name] if name in given else context.get(name, _ABSENT)
            if type(value) not in PLAIN:
                return super().render(context, nested)
            key.append((type(value), value))
        key = tuple(key)
        said = _worded.get(key)
        if said is None:
            said = super().render(context, nested)
            if len(_worded) >= MOST_WORDED:
                _worded.clear()
            _worded[key] = said
        return said


_ABSENT = object()
_django_block_translate = django_i18n.do_block_translate


def do_block_translate(parser, token) -> BlockTranslateOnceNode:
    """Django's ``{% blocktranslate %}``, its answer kept for plain values."""
    node = _django_block_translate(parser, token)
    node.__class__ = BlockTranslateOnceNode
    return node


def install() -> None:
    """``{% translate %}`` and ``{% blocktranslate %}`` (and their short
    names) of ``{% load i18n %}`` are ours
    from now on (templates compiled before keep Django's)."""
    django_i18n.register.tags["translate"] = do_translate
    django_i18n.register.tags["trans"] = do_translate
    django_i18n.register.tags["blocktranslate"] = do_block_translate
    django_i18n.register.tags["blocktrans"] = do_block_translate
