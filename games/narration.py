"""Engine events and refusals in the pupil's language.

The engine speaks in codes and numbers; the words are here, marked for
translation, so a French tablet never shows an English reason.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from engine.core import IllegalMove

SYMBOLS = {"+": "+", "-": "−", "*": "×", "/": "÷"}


def said_of(who: str, what: str) -> str:
    """"Emma T.: 32", a name and what is said of it: French puts a space
    before the colon ("Emma T. : 32"), so the colon is the translation's."""
    # Translators: a name (or a label) and what is said of it, "Emma T.: 32 points".
    return _("%(who)s: %(what)s") % {"who": who, "what": what}


def _step_text(data: dict[str, Any], result_key: str = "result") -> str:
    return (
        f"{data.get('left')} {SYMBOLS.get(data.get('op'), data.get('op'))} "
        f"{data.get('right')} = {data.get(result_key)}"
    )


def names_list(players: list[int], names: dict[int, str]) -> str:
    """"Léa", "Léa and Noah", "Léa, Noah and Zoé"."""
    shown = [names.get(p, "?") for p in players]
    if len(shown) <= 1:
        return "".join(shown)
    return _("%(first)s and %(last)s") % {"first": ", ".join(shown[:-1]), "last": shown[-1]}


def refusal(error: IllegalMove) -> str:
    d = error.details
    messages = {
        "not_your_turn": _("Wait: it is not your turn yet."),
        "not_seated": _("This is not your table."),
        "game_over": _("The game is over."),
        "wrong_phase": _("Not now: finish what you started first."),
        "not_available": _("Use the numbers you still have."),
        "op_not_allowed": _("This game does not use that operation."),
        "divide_by_zero": _("You cannot divide by zero."),
        "below_zero": _("That would go below zero: try the other way round."),
        "not_whole": _("That does not divide exactly. Try another calculation."),
        "fraction_final": _("The last number must be a whole number."),
        "unused_numbers": _("Use every die."),
        "too_few_steps": _("Use every die."),
        "steps_started": _("Clear your calculation first."),
        "nothing_to_undo": _("There is nothing to undo."),
        "wrong_square": _("That square is not %(number)s. Tap the square %(number)s.")
        % {"number": d.get("number")},
        "off_board": _("%(number)s is not on this board. Undo and try another calculation.")
        % {"number": d.get("number")},
        "square_taken": _("Square %(square)s is already taken. Undo and try another number.")
        % {"square": d.get("square")},
        "malformed": _("Something was missing. Tap again."),
        "unknown_move": _("Something was missing. Tap again."),
        "parse_error": _("Check your calculation."),
        "too_long": _("That is too long."),
    }
    return messages.get(error.code, error.reason)


def event_text(event: dict[str, Any], names: dict[int, str]) -> str:
    """One line for the table's log, or '' for events that need no words."""
    kind = event.get("kind")
    data = event.get("data") or {}
    who = names.get(event.get("player"), "")
    if kind == "first_roll":
        return _first_roll_text(data.get("rounds") or [], names, who)
    if kind == "rolled":
        return _("%(who)s rolled %(dice)s.") % {
            "who": who,
            "dice": ", ".join(str(d) for d in data.get("dice", [])),
        }
    if kind == "calculated":
        return _("%(who)s made %(value)s: %(text)s.") % {
            "who": who,
            "value": data.get("value"),
            "text": data.get("text"),
        }
    if kind == "wrong_step":
        return _("Not quite: %(step)s.") % {
            "step": data.get("text") or _step_text(data, "expected")
        }
    if kind == "try_again":
        return _("Not quite. Try once more!")
    if kind == "placed":
        line = _("%(who)s covered %(square)s and earned %(amount)s.") % {
            "who": who,
            "square": data.get("square"),
            "amount": data.get("paid"),
        }
        if data.get("nubble") == "double_nubble":
            line += " " + _("Double-Nubble: a triangle on a prime number!")
        elif data.get("nubble"):
            line += " " + _("Nubble: a triangle!")
        return line
    if kind == "could_have_made":
        return _("%(square)s was possible: %(text)s.") % {
            "square": data.get("square"),
            "text": data.get("text"),
        }
    if kind == "no_number":
        return _("%(who)s could not make a number: right, there was none.") % {"who": who}
    if kind == "banked":
        if data.get("correct"):
            return _("%(who)s now has %(balance)s. Well counted!") % {
                "who": who,
                "balance": data.get("balance"),
            }
        return _("Not quite: %(who)s now has %(balance)s.") % {
            "who": who,
            "balance": data.get("balance"),
        }
    if kind == "step":
        return _("Right: %(step)s.") % {"step": data.get("text") or _step_text(data)}
    if kind == "timeout":
        return _("%(who)s: time is up.") % {"who": who}
    if kind == "game_over":
        return _("The game is over!")
    return ""


def computer_text(event: dict[str, Any], names: dict[int, str]) -> str:
    """A computer player's line in the table's log: what it did, without the
    "Right!" or "Well counted!" a pupil earns, which would read as praise
    meant for the pupil looking at it."""
    data = event.get("data") or {}
    who = names.get(event.get("player"), "")
    if event.get("kind") == "banked":
        return _("%(who)s now has %(balance)s.") % {"who": who, "balance": data.get("balance")}
    if event.get("kind") == "step":
        return _("%(who)s: %(step)s.") % {"who": who, "step": data.get("text") or _step_text(data)}
    return event_text(event, names)


def _first_roll_text(rounds: list, names: dict[int, str], first: str) -> str:
    """Who starts: every round of the roll (ties roll again), then the winner."""
    shown = [
        ", ".join(f"{names.get(player, player)} {die}" for player, die in rolls)
        for rolls in rounds
    ]
    return _("Who starts? %(rolls)s: %(who)s starts.") % {
        "rolls": _("; again: ").join(shown),
        "who": first,
    }
