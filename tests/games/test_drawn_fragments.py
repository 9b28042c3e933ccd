"""The pieces of a table drawn once per process ({% drawn %}) and the move
fields drawn once per page ({% move_fields %}): a kept piece is only ever
what its arguments draw, for everyone."""

from __future__ import annotations

import pytest
from django.template import engines
from django.utils import translation
from django.utils.safestring import mark_safe

from games.pages import base
from games.templatetags.drawn import frozen


def render(source: str, **context) -> str:
    return engines["django"].from_string("{% load drawn %}" + source).render(context)


def test_keys_tell_apart_what_prints_differently():
    assert frozen(True) != frozen(1)
    assert frozen(1.0) != frozen(1)
    assert frozen([1, 2]) != frozen((1, 2))
    assert frozen(mark_safe("<b>")) != frozen("<b>")
    assert frozen({"a": [1, {"b": None}]}) == frozen({"a": [1, {"b": None}]})
    hash(frozen({"a": [1, {"b": {2, 3}}]}))


def test_objects_are_refused_as_arguments():
    with pytest.raises(TypeError):
        frozen(object())


def test_a_fragment_reads_its_arguments_only():
    """The move fields template reads the CSRF token, the version and the tap
    id of the page: drawn as a fragment, it sees none of them, so no viewer's
    token can be kept and served to another."""
    page = render(
        '{% drawn "games/_move_fields.html" %}',
        csrf_token="secret-token-of-one-pupil",
        move_id="tap-of-one-pupil",
        table={"version": 7},
        seen="scene",
    )
    assert "secret-token-of-one-pupil" not in page
    assert "tap-of-one-pupil" not in page
    assert "scene" not in page


def test_same_arguments_draw_once_and_other_arguments_again():
    first = {"family": "number", "number": 7, "name": "seven"}
    other = {"family": "number", "number": 8, "name": "eight"}
    source = '{% drawn "games/nambarz/_card.html" c=c %}'
    page = render(source, c=first)
    kept = len(base._fragments)
    assert render(source, c=dict(first)) == page
    assert len(base._fragments) == kept
    assert ">8<" in render(source, c=other)
    assert ">7<" not in render(source, c=other)


def test_each_language_has_its_own_fragment():
    source = '{% drawn "games/_you.html" %}'
    with translation.override("en"):
        english = render(source)
    with translation.override("fr"):
        french = render(source)
    assert "you" in english
    assert french != english


def test_move_fields_are_the_same_in_every_form_of_a_page():
    page = render(
        "<form>{% move_fields %}</form><form>{% move_fields %}</form>",
        csrf_token="token-1",
        move_id="tap-1",
        table={"version": 3},
    )
    assert page.count('name="move_id" value="tap-1"') == 2
    assert page.count('name="version" value="3"') == 2
    assert page.count('value="token-1"') == 2
    # Another page (another request) draws its own.
    again = render("{% move_fields %}", csrf_token="token-2", move_id="tap-2",
                   table={"version": 4})
    assert "tap-2" in again and "tap-1" not in again


def test_a_kept_form_posts_each_page_its_own_fields():
    """A form drawn once (the Number Quest actions) leaves a slot for the move
    fields, and each page fills it with its own token and tap id."""
    source = ('{% drawn "games/numberquest/_actions.html" phase="calculate" has_steps=True '
              'move_url="/tables/1/move/" %}')
    first = render(source, csrf_token="token-a", move_id="tap-a", table={"version": 1})
    kept = len(base._fragments)
    second = render(source, csrf_token="token-b", move_id="tap-b", table={"version": 2})
    assert len(base._fragments) == kept  # the same fragment, served again
    assert first.count('value="tap-a"') == 3 and "tap-b" not in first
    assert second.count('value="tap-b"') == 3 and "tap-a" not in second
    assert second.count('value="token-b"') == 3 and "token-a" not in second
    assert "move-fields-slot" not in first + second


def test_an_argument_that_cannot_key_a_drawing_is_drawn_unkept(settings):
    settings.DEBUG = False

    class Card:
        number = 5
        name = "five"
        family = "number"

    kept = len(base._fragments)
    page = render('{% drawn "games/nambarz/_card.html" c=c %}', c=Card())
    assert ">5<" in page
    assert len(base._fragments) == kept


class _Table:
    def __init__(self, pk: int, version: int):
        self.pk, self.version = pk, version


def test_a_number_quest_board_is_joined_from_squares_drawn_once():
    """A new arrangement of tokens draws only the squares that changed; a
    board of buttons posts to its own table with its own version and tap."""
    from engine.numberquest import GAME
    from games.pages.numberquest import presenter

    view = GAME.view(GAME.new(None, 4, 1), 0)
    presenter.board_html(_Table(1, 1), view, tappable=None, chain=set(), move_id="")
    squares = len(presenter._squares)
    assert squares >= len(view["board"]["squares"])  # each kept, once drawn
    view["board"]["squares"][3]["owner"] = 2
    covered = presenter.board_html(_Table(2, 1), view, tappable=None, chain=set(), move_id="")
    assert len(presenter._squares) <= squares + 1
    assert covered.count("token-label") == 1
    assert "hx-post" not in covered

    mine = presenter.board_html(_Table(41, 9), view, tappable=1, chain=set(), move_id="tap-41")
    theirs = presenter.board_html(_Table(42, 5), view, tappable=1, chain=set(), move_id="tap-42")
    assert "/41/" in mine and "/42/" not in mine and "tap-42" not in mine
    assert "/42/" in theirs and "/41/" not in theirs and "tap-41" not in theirs
    assert '"version": "9", "move_id": "tap-41"' in mine
    assert '"version": "5", "move_id": "tap-42"' in theirs
    assert base.MOVE_URL_SLOT not in mine + theirs
    free = sum(1 for s in view["board"]["squares"] if s["on_board"] and s["owner"] is None)
    assert mine.count('role="button"') == free


def test_a_number_quest_board_keeps_its_squares_in_each_language():
    from engine.numberquest import GAME
    from games.pages.numberquest import presenter

    view = GAME.view(GAME.new(None, 4, 1), 0)
    with translation.override("en"):
        english = presenter.board_html(_Table(7, 1), view, tappable=1, chain=set(), move_id="")
    with translation.override("fr"):
        french = presenter.board_html(_Table(8, 1), view, tappable=1, chain=set(), move_id="")
    assert 'aria-label="Square 1"' in english and "Case" not in english
    assert 'aria-label="Case 1"' in french and "Square" not in french


def test_a_piece_is_drawn_once_for_its_key_in_each_language():
    """A presenter's piece (base.drawn_piece) is drawn from its context only
    when its key is new: its forms leave the move fields to the page, which
    {% fragment %} fills with each page's own."""
    asked = []

    def context():
        asked.append(1)
        return {"pending": "", "move_url": "/tables/5/move/", "operations": [("+", "+")],
                "brackets": False, "target_number": 7, "target_animal": None, "bound": []}

    key = ("test", object())  # no other test's key
    with translation.override("en"):
        first = base.drawn_piece("test-forms", key, "games/nambarz/_forms.html", context)
        again = base.drawn_piece("test-forms", key, "games/nambarz/_forms.html", context)
    with translation.override("fr"):
        french = base.drawn_piece("test-forms", key, "games/nambarz/_forms.html", context)
    assert first == again and len(asked) == 2 and french != first
    assert base.MOVE_FIELDS_SLOT in first and "tap-" not in first
    page = render("{% fragment piece %}{% fragment piece %}", piece=first, move_id="tap-9",
                  csrf_token="token-9", table={"version": 3})
    assert base.MOVE_FIELDS_SLOT not in page
    assert page.count('name="move_id" value="tap-9"') == first.count(base.MOVE_FIELDS_SLOT) * 2
    # Plain text is escaped, as {{ piece }} would.
    assert render("{% fragment piece %}", piece="<b>") == "&lt;b&gt;"
