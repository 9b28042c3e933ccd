"""The one list of games on the pages, and what each page package must give."""

from __future__ import annotations

from collections import Counter

import pytest
from django.template.loader import get_template

from engine import nmbr9, ultimes
from engine.numberquest import GAME as NUMBER_QUEST
from games.forms import SessionForm
from games.pages import PAGES, engine_of, presenter


def test_each_page_serves_its_engine():
    assert engine_of("numberquest") is NUMBER_QUEST
    assert engine_of("ultimes") is ultimes.GAME
    assert presenter("nmbr9").engine is nmbr9.GAME
    for slug, page in PAGES.items():
        assert page.slug == slug == page.engine.slug


@pytest.mark.parametrize("slug", list(PAGES))
def test_each_page_package_has_its_templates_and_options(slug):
    page = PAGES[slug]
    get_template(page.options_template)
    assert str(page.pitch) and str(page.title)
    assert callable(getattr(page.options_form(), "engine_options", None))


def test_no_two_games_post_a_field_of_the_same_name():
    """All the games' options are on one start form: a clash would feed one
    game's value to another."""
    common = set(SessionForm.base_fields)
    names = Counter(
        name for page in PAGES.values() for name in page.options_form.base_fields
    )
    assert not [name for name, count in names.items() if count > 1]
    assert not common & set(names)
