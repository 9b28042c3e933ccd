"""Template tags that draw the same piece of a table once, not at every request.

``{% drawn "games/numx/_card.html" c=card w=60 %}`` is an include whose
output is kept per process (games.pages.base.drawn_fragment) and served
again for the same arguments. The included template is rendered with those
arguments *only* (like ``{% include ... only %}``): it cannot read the
request, the pupil, the CSRF token or anything else of the page, so what it
draws is a function of its arguments and the language, and the key holds
them all. A fragment can therefore never carry one viewer's secrets to
another, nor an old version of the table: a changed argument is another key.

``{% fragment piece %}`` shows a piece a presenter drew once per process
(games.pages.base.drawn_piece) for a key it built from what the piece shows,
its move forms filled like a ``{% drawn %}`` fragment's.

``{% move_fields %}`` is the hidden fields of a move form
(``games/_move_fields.html``): a page of five forms draws them once. Inside a
fragment it leaves a slot, which the page fills with its own fields: a form
can be a fragment though its CSRF token and tap id are the request's.

``{% move_feedback %}`` is what a pupil's page says about their move, drawn
from their game's ``Presenter.feedback_template``; on the page the watchers
share, the slot the mover's own answer fills (games.watching.FEEDBACK_SLOT).
"""

from __future__ import annotations

from typing import Any

from django import template
from django.conf import settings
from django.template.base import FilterExpression, Node, NodeList
from django.template.context import Context
from django.template.loader_tags import construct_relative_path
from django.utils.functional import Promise
from django.utils.html import conditional_escape
from django.utils.safestring import SafeData, mark_safe
from django.utils.translation import get_language

from games.pages.base import IN_FRAGMENT, MOVE_FIELDS_SLOT, drawn_fragment

register = template.Library()


# What ``frozen`` keeps as it is.
ITSELF = frozenset({int, str, type(None)})


def frozen(value: Any) -> Any:
    """A hashable value that differs whenever ``value`` would draw differently.

    Containers keep their type (a list and a tuple print differently), and so
    do booleans and floats (``True == 1`` and ``1.0 == 1`` in a dict key, not
    on a page); safe strings are told from plain ones (escaped or not). Any
    other object is refused: its attributes are not known to be the key."""
    kind = type(value)
    if value is None or kind is int or kind is str:
        return value
    if kind is bool or kind is float:
        return (kind, value)
    if isinstance(value, str):
        return (SafeData if isinstance(value, SafeData) else str, str(value))
    if isinstance(value, Promise):
        return str(value)  # a lazy translation, in the active language (in the key)
    # Names, numbers and flags are frozen in place: a list of players or a
    # hand of cards is mostly those, and a call each was most of a key's cost.
    if isinstance(value, (list, tuple)):
        return (kind, tuple(
            item if type(item) in ITSELF else (bool, item) if type(item) is bool
            else frozen(item)
            for item in value
        ))
    if isinstance(value, dict):
        return (dict, tuple(
            (k if type(k) in ITSELF else frozen(k),
             v if type(v) in ITSELF else (bool, v) if type(v) is bool else frozen(v))
            for k, v in value.items()
        ))
    if kind is range:
        return (range, value.start, value.stop, value.step)
    if isinstance(value, (set, frozenset)):
        return (frozenset, frozenset(frozen(item) for item in value))
    raise TypeError(f"{{% drawn %}} takes plain data, not {kind.__name__}: {value!r:.80}")


class DrawnNode(Node):
    def __init__(self, name: FilterExpression, arguments: dict[str, FilterExpression]):
        self.name = name
        self.arguments = arguments

    def render(self, context: Context) -> str:
        name = construct_relative_path(self.origin.template_name, self.name.resolve(context))
        values = {key: value.resolve(context) for key, value in self.arguments.items()}

        def draw() -> str:
            # Only the arguments: the fragment is the same for every viewer.
            included = context.template.engine.get_template(name)
            return str(included.render(context.new({**values, IN_FRAGMENT: True})))

        try:
            key = (
                "drawn",
                name,
                frozen(values),
                get_language(),
                context.autoescape,
                context.use_l10n,
                context.use_tz,
            )
        except TypeError:
            # An argument that can't key a drawing (a new kind of value): the
            # page is drawn all the same, this fragment is just not kept.
            if settings.DEBUG:
                raise
            html = draw()
        else:
            html = drawn_fragment(key, draw)
        # A fragment within a fragment leaves the slot to the outer one's page.
        if MOVE_FIELDS_SLOT in html and not context.get(IN_FRAGMENT):
            html = html.replace(MOVE_FIELDS_SLOT, page_move_fields(context))
        return mark_safe(html)  # noqa: S308 - our own rendered template


@register.tag("drawn")
def do_drawn(parser, token) -> DrawnNode:
    """``{% drawn "template" name=value ... %}``: see the module's docstring."""
    bits = token.split_contents()
    if len(bits) < 2:
        raise template.TemplateSyntaxError("drawn takes a template name, then name=value pairs")
    arguments = template.base.token_kwargs(bits[2:], parser, support_legacy=False)
    if len(arguments) != len(bits) - 2:
        raise template.TemplateSyntaxError("drawn takes name=value pairs after the template")
    return DrawnNode(parser.compile_filter(bits[1]), arguments)


@register.simple_tag(takes_context=True)
def fragment(context: Context, html: Any) -> str:
    """``{% fragment piece %}``: a piece a presenter drew once per process
    (games.pages.base.drawn_piece), its forms given this page's move fields.
    Anything but our own safe HTML is escaped, as ``{{ piece }}`` would."""
    if not isinstance(html, SafeData):
        return conditional_escape(html)
    if MOVE_FIELDS_SLOT in html and not context.get(IN_FRAGMENT):
        html = html.replace(MOVE_FIELDS_SLOT, page_move_fields(context))
    return mark_safe(html)  # noqa: S308 - our own rendered template


MOVE_FIELDS = "games/_move_fields.html"


def page_move_fields(context: Context) -> str:
    """The page's move fields. Every form of one page posts the same (the
    CSRF token, the table's version, the tap's id): the first form draws
    them, the others copy. dicts[0] is the render context of the whole page."""
    page = context.render_context.dicts[0]
    html = page.get(MOVE_FIELDS)
    if html is None:
        fields = context.template.engine.get_template(MOVE_FIELDS)
        html = page[MOVE_FIELDS] = fields.render(context)
    return html


class MoveFieldsNode(Node):
    nodelist = NodeList()

    def render(self, context: Context) -> str:
        if context.get(IN_FRAGMENT):
            return MOVE_FIELDS_SLOT  # filled by the page that draws the fragment
        return page_move_fields(context)


@register.tag("move_fields")
def do_move_fields(parser, token) -> MoveFieldsNode:
    """``{% move_fields %}``: the hidden fields of a move form, drawn once per page."""
    if len(token.split_contents()) != 1:
        raise template.TemplateSyntaxError("move_fields takes no argument")
    return MoveFieldsNode()


class MoveFeedbackNode(Node):
    nodelist = NodeList()

    def render(self, context: Context) -> str:
        slot = context.get("mover_feedback_slot")
        if slot:
            return slot
        from games.pages import presenter

        name = presenter(context["table"].session.game).feedback_template
        return context.template.engine.get_template(name).render(context)


@register.tag("move_feedback")
def do_move_feedback(parser, token) -> MoveFeedbackNode:
    """``{% move_feedback %}``: the note and the lines about the pupil's move."""
    if len(token.split_contents()) != 1:
        raise template.TemplateSyntaxError("move_feedback takes no argument")
    return MoveFeedbackNode()
