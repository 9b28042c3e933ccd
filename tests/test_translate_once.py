"""{% translate %} and {% blocktranslate %} keep their answers (classroom.translate_once):
what they draw must stay what Django's own tags draw, draw after draw, in
every language, escaped or not, whatever the values."""

import pytest
from django.template import Context, Engine
from django.templatetags import i18n as django_i18n
from django.utils import translation
from django.utils.safestring import mark_safe

from classroom import translate_once

LIBRARIES = {"i18n": "django.templatetags.i18n"}
SOURCES = [
    "{% translate 'The board' %}",
    "{% trans \"Your turn!\" %}",
    "{% translate 'May' context 'month name' %}",
    "{% translate 'The board' noop %}",
    "{% translate words %}",
    "{% translate 'The board' as said %}[{{ said }}]",
    "{% translate 'a < b & c' %}",
    "{% blocktranslate with n=n %}Square {{ n }}{% endblocktranslate %}",
    "{% blocktranslate with name=name %}{{ name }} is playing.{% endblocktranslate %}",
    "{% blocktranslate %}{{ name }} is playing.{% endblocktranslate %}",
    "{% blocktranslate count counter=n %}{{ counter }} point{% plural %}{{ counter }} points"
    "{% endblocktranslate %}",
    "{% blocktranslate count counter=n %}one{% plural %}many{% endblocktranslate %}",
    "{% blocktranslate with x=x %}Value {{ x }}{% endblocktranslate %}",
    "{% blocktranslate with n=n asvar said %}Square {{ n }}{% endblocktranslate %}<{{ said }}>",
    "{% blocktranslate context 'board' with n=n %}Square {{ n }}{% endblocktranslate %}",
    "{% blocktranslate %}{{ missing }} is playing.{% endblocktranslate %}",
]
VALUES = [
    {"n": 1, "name": "Zoé B.", "words": "The board", "x": 2.5},
    {"n": 17, "name": "<b>Léo</b> & co", "words": "Your turn!", "x": True},
    {"n": 17, "name": mark_safe("<b>Léo</b>"), "words": "Check", "x": None},
    {"n": 2, "name": "Ana", "words": "Undo", "x": [1, 2]},
]


def compiled(source: str, autoescape: bool):
    engine = Engine(autoescape=autoescape, libraries=LIBRARIES)
    return engine.from_string("{% load i18n %}" + source)


def draw(source: str, values: dict, autoescape: bool) -> str:
    return compiled(source, autoescape).render(Context(dict(values), autoescape=autoescape))


@pytest.fixture
def django_tags(monkeypatch):
    """Compiles with Django's own tags while in use."""

    def use() -> None:
        for name, tag in (
            ("translate", django_i18n.do_translate), ("trans", django_i18n.do_translate),
            ("blocktranslate", django_i18n.do_block_translate),
            ("blocktrans", django_i18n.do_block_translate),
        ):
            monkeypatch.setitem(django_i18n.register.tags, name, tag)

    return use


@pytest.mark.parametrize("source", SOURCES)
def test_the_tags_draw_what_djangos_draw(source, django_tags):
    # One template drawn again and again, as a page is: its tags keep answers
    # (escaped or not: an include may be drawn inside {% autoescape off %}).
    ours = {}
    template = compiled(source, True)
    for _ in range(2):
        for autoescape in (True, False):
            for language in ("en", "fr"):
                for number, values in enumerate(VALUES):
                    with translation.override(language):
                        ours.setdefault((language, autoescape, number), []).append(
                            template.render(Context(dict(values), autoescape=autoescape))
                        )
    django_tags()
    for (language, autoescape, number), answers in ours.items():
        with translation.override(language):
            expected = draw(source, VALUES[number], autoescape)
        assert answers == [expected, expected], (language, autoescape, VALUES[number])


def test_the_tags_are_ours_and_keep_their_answers():
    assert django_i18n.register.tags["translate"] is translate_once.do_translate
    assert django_i18n.register.tags["blocktranslate"] is translate_once.do_block_translate
    with translation.override("fr"):
        assert draw("{% translate 'The board' %}", {}, True) == "Le plateau"
        said = draw("{% blocktranslate with n=n %}Square {{ n }}{% endblocktranslate %}",
                    {"n": 3}, True)
    assert said == "Case 3"
    assert any(key[0] == "The board" and key[3] == "fr" for key in translate_once._said)


def test_french_words_do_not_leak_into_english():
    source = ("{% translate 'The board' %} "
              "{% blocktranslate with n=n %}Square {{ n }}{% endblocktranslate %}")
    template = Engine(libraries=LIBRARIES).from_string("{% load i18n %}" + source)
    with translation.override("fr"):
        french = template.render(Context({"n": 4}))
    with translation.override("en"):
        english = template.render(Context({"n": 4}))
    assert (french, english) == ("Le plateau Case 4", "The board Square 4")
