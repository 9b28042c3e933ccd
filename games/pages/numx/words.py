"""NUM-X's events and refusals in the pupil's language.

The engine's events carry no hidden card (a face-down card handed out is
``None``, a drawn card is not named), so every line here may go to every
tablet of the table and to the class's screen.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from engine.core import IllegalMove
from games import narration
from games.narration import said_of

from . import drawing


def all_label(action: str) -> str:
    """The "all" target: Flip and Swipe take every row, the others every other player."""
    if action in ("flip", "swipe"):
        return _("Everyone")
    return _("All the others")


def between_label() -> str:
    return _("The players between you and your partner")


def team_label(number: int) -> str:
    return _("Team %(n)s") % {"n": number}


def cards_text(card_ids: list[str]) -> str:
    return " + ".join(drawing.label(c) for c in card_ids)


def group_name(step: dict[str, Any]) -> str:
    """What a count step is about: "the 7s", "the blue cards", "the cards left"."""
    key = step.get("key")
    if step.get("kind") == "value":
        return _("the %(n)ss") % {"n": key}
    # Whole phrases, not a colour word put in one: in French the colour
    # agrees with "cartes" ("les cartes vertes").
    alone = {
        "blue": _("the blue cards left alone"),
        "red": _("the red cards left alone"),
        "yellow": _("the yellow cards left alone"),
        "green": _("the green cards left alone"),
        "rainbow": _("the Rainbow cards left alone"),
        "shadow": _("the Shadow cards left alone"),
    }
    return alone.get(key, _("the cards left alone"))


def rule_text(step: dict[str, Any]) -> str:
    """Why a group is worth what it is, in a child's words (shown once counted)."""
    rule = step.get("rule")
    value = step.get("key")
    mul = step.get("mul") or [value, 0]
    texts = {
        "xtrem": _("X-Trem: 5 cards or more with a Rainbow or a Shadow make 100."),
        "shadow_cancels": _("The Shadow cancels the Rainbow: 0."),
        "combi": (_("3 cards or more add up: %(value)s × %(count)s (the Shadow adds nothing).")
                  if any(c[1] == "shadow" for c in step.get("cards") or [])
                  else _("3 cards or more add up: %(value)s × %(count)s."))
        % {"value": mul[0], "count": mul[1]},
        "pair": _("Two cards of the same number cancel: 0."),
        "rainbow": _("The Rainbow doubles its card: %(value)s × 2.") % {"value": value},
        "shadow": _("A Shadow never scores: 0."),
        "colour": _("Cards of one colour: only the smallest counts."),
        "single": _("A card alone counts its number."),
        "singles": _("The cards left alone add up."),
    }
    return texts.get(str(rule), "")


def event_text(event: dict[str, Any], names: dict[int, str]) -> str:
    text = _event_text(event, names)
    # A sentence that ends on a name ("Léa M.") keeps one full stop.
    return text[:-1] if text.endswith("..") else text


def _event_text(event: dict[str, Any], names: dict[int, str]) -> str:
    kind = event.get("kind")
    data = event.get("data") or {}
    who = names.get(event.get("player"), "")
    if kind == "chose":
        return _("%(who)s has chosen a card.") % {"who": who}
    if kind == "revealed":
        cards = data.get("cards") or []
        shown = ", ".join(
            said_of(names.get(p, "?"), drawing.label(c)) for p, c in enumerate(cards)
        )
        return _("The cards turn over together: %(cards)s. %(who)s starts.") % {
            "cards": shown, "who": names.get(data.get("starter"), "?"),
        }
    if kind == "trick":
        cards = data.get("cards") or []
        if data.get("kind") == "numx":
            return _("%(who)s played Num-X: the lap ends!") % {"who": who}
        if data.get("kind") == "infini":
            return _("%(who)s played Infinity: only Num-X can cover it.") % {"who": who}
        if any(str(c).startswith("joker") for c in cards):
            return _("%(who)s played %(cards)s (the Joker is a %(value)s).") % {
                "who": who, "cards": cards_text(cards), "value": data.get("value"),
            }
        return _("%(who)s played %(cards)s.") % {"who": who, "cards": cards_text(cards)}
    if kind == "rainbow":
        return _("%(who)s added %(card)s to the trick, out of turn!") % {
            "who": who, "card": drawing.label(data.get("card")),
        }
    if kind == "lost_turn":
        players = data.get("players") or []
        return ngettext(
            "%(names)s lost their turn.", "%(names)s lost their turn.", len(players)
        ) % {"names": narration.names_list(players, names)}
    if kind == "passed":
        return _("%(who)s passed.") % {"who": who}
    if kind == "blocked":
        return _("%(who)s is blocked and passes.") % {"who": who}
    if kind == "drew":
        return _("%(who)s drew a card.") % {"who": who}
    if kind == "kept":
        return _("%(who)s kept the card.") % {"who": who}
    if kind == "shadow_bonus":
        return _("%(who)s laid a Shadow: they may play an action card as well.") % {"who": who}
    if kind == "action":
        return _action_text(data, who, names)
    if kind == "malus_drew":
        return ngettext(
            "%(who)s draws %(n)s card (Penalty).", "%(who)s draws %(n)s cards (Penalty).",
            data.get("count", 0),
        ) % {"who": who, "n": data.get("count", 0)}
    if kind == "malus_discarded":
        return ngettext(
            "%(who)s threw away %(n)s card.", "%(who)s threw away %(n)s cards.",
            data.get("count", 0),
        ) % {"who": who, "n": data.get("count", 0)}
    if kind == "malus_removed":
        return ngettext(
            "%(who)s removed %(n)s score card.", "%(who)s removed %(n)s score cards.",
            data.get("count", 0),
        ) % {"who": who, "n": data.get("count", 0)}
    if kind == "malus_placed":
        return ngettext(
            "%(who)s placed %(n)s card in their score row.",
            "%(who)s placed %(n)s cards in their score row.",
            data.get("count", 0),
        ) % {"who": who, "n": data.get("count", 0)}
    if kind == "tour_won":
        if data.get("round_over"):
            return _("%(who)s has laid their last card and wins the lap!") % {"who": who}
        return _("%(who)s wins the lap!") % {"who": who}
    if kind == "distribution":
        return _("%(who)s hands out the score cards.") % {"who": who}
    if kind == "handed_out":
        return _handed_out_text(data, who, names)
    if kind == "tour_started":
        return _("A new lap: %(who)s starts.") % {"who": who}
    if kind == "round_over":
        return _("Round %(n)s is over.") % {"n": data.get("round")}
    if kind == "refill_chosen":
        if data.get("choice") == "redraw":
            return _("%(who)s takes a new hand.") % {"who": who}
        return _("%(who)s tops up their hand.") % {"who": who}
    if kind == "round_started":
        return _("Round %(n)s starts: %(who)s plays first.") % {"n": data.get("round"), "who": who}
    if kind == "count_started":
        return _("Time to count the score cards!")
    if kind == "counted_group":
        step = data.get("step") or {}
        values = {"who": who, "group": group_name(step), "worth": data.get("expected"),
                  "given": data.get("given")}
        if data.get("correct"):
            return _("%(who)s: %(group)s are worth %(worth)s. Right!") % values
        return _("%(who)s: not quite, %(group)s are worth %(worth)s (not %(given)s).") % values
    if kind == "counted_total":
        values = {"who": who, "total": data.get("expected"), "given": data.get("given")}
        if data.get("correct"):
            return _("%(who)s: the total is %(total)s. Right!") % values
        return _("%(who)s: not quite, the total is %(total)s (not %(given)s).") % values
    if kind == "game_over":
        return _("The game is over.")
    if kind == "reshuffled":
        return _("The discard pile was shuffled into a new pile.")
    return ""


def _action_text(data: dict[str, Any], who: str, names: dict[int, str]) -> str:
    action = data.get("kind")
    targets = narration.names_list(data.get("targets") or [], names) or _("nobody")
    values = {"who": who, "targets": targets}
    if action == "flip":
        return _("%(who)s played Flip: the score cards of %(targets)s turn over.") % values
    if action == "swipe":
        if data.get("direction") == "left":
            return _("%(who)s played Swipe to the left on %(targets)s.") % values
        return _("%(who)s played Swipe to the right on %(targets)s.") % values
    if action == "eclair":
        return _("%(who)s played Lightning: a score card swapped with %(targets)s.") % values
    if action == "quantique":
        return _("%(who)s played Quantum: %(targets)s protected until the end of the lap.") % (
            values
        )
    if action == "block":
        return _("%(who)s played Block: %(targets)s must pass.") % values
    if action == "malus":
        return _("%(who)s played Penalty (hand %(x)s, score row %(y)s) on %(targets)s.") % {
            **values, "x": _signed(data.get("x")), "y": _signed(data.get("y")),
        }
    return ""


def _handed_out_text(data: dict[str, Any], who: str, names: dict[int, str]) -> str:
    parts = []
    for given in data.get("cards") or []:
        to = names.get(given.get("to"), "?")
        if given.get("face_up"):
            parts.append(_("%(card)s to %(to)s") % {"card": drawing.label(given.get("card")),
                                                     "to": to})
        else:
            parts.append(_("a card face down to %(to)s") % {"to": to})
    if not parts:
        return _("%(who)s handed out no card.") % {"who": who}
    return _("%(who)s handed out: %(cards)s.") % {"who": who, "cards": ", ".join(parts)}


def _signed(number: Any) -> str:
    return f"+{number}" if isinstance(number, int) and number > 0 else str(number)


def refusal(error: IllegalMove) -> str:
    d = error.details
    code = error.code
    if code == "not_higher":
        return _("Play higher than %(last)s.") % {"last": d.get("last")}
    if code == "wrong_size":
        sizes = [str(n) for n in sorted(d.get("sizes") or [])]
        allowed = _("%(first)s or %(last)s") % {"first": ", ".join(sizes[:-1]), "last": sizes[-1]} \
            if len(sizes) > 1 else "".join(sizes)
        size = d.get("size") or 0
        return ngettext(
            "Your trick has %(size)s card, but here a trick has %(sizes)s cards "
            "(one more with a Rainbow, one fewer with a Shadow; 3 to start needs one of them).",
            "Your trick has %(size)s cards, but here a trick has %(sizes)s cards "
            "(one more with a Rainbow, one fewer with a Shadow; 3 to start needs one of them).",
            size,
        ) % {"size": size, "sizes": allowed}
    if code == "rainbow_wrong_value":
        return _("Only the Rainbow %(value)s completes this trick.") % {"value": d.get("value")}
    if code == "too_few":
        return ngettext(
            "Hand out at least %(n)s card.", "Hand out at least %(n)s cards.", d.get("min", 0)
        ) % {"n": d.get("min")}
    if code == "too_many":
        return ngettext(
            "Hand out at most %(n)s card.", "Hand out at most %(n)s cards.", d.get("max", 0)
        ) % {"n": d.get("max")}
    if code == "more_than_half":
        return ngettext(
            "No one may get more than half of the cards: %(n)s card each at most.",
            "No one may get more than half of the cards: %(n)s cards each at most.",
            d.get("cap", 0),
        ) % {"n": d.get("cap")}
    if code == "protected":
        return _("Quantum protects this player this lap.")
    if code == "malus_choice":
        owed = d.get("owed")
        if owed == "discard":
            return _("Penalty: tap the cards of your hand to throw away.")
        if owed == "remove":
            return _("Penalty: tap the score cards to remove.")
        if owed == "place":
            return _("Penalty: say where each card you drew goes in your score row.")
        return _("Penalty: tap the right number of cards.")
    if code == "count_in_order":
        step = {"kind": "value" if "value" in d else "colour",
                "key": d.get("value", d.get("colour"))}
        return _("Count %(group)s now.") % {"group": group_name(step)}
    if code == "wrong_phase":
        phase = d.get("phase")
        hints = {
            "choose": _("First choose your first score card."),
            "distribute": _("The winner of the lap hands out the score cards."),
            "refill": _("First top up your hand or take a new one."),
            "count": _("Now count your score cards."),
        }
        return hints.get(phase) or _("Not now: finish what you started first.")
    if code == "malformed":
        field = d.get("field")
        if field == "cards":
            return _("Tap the cards to play first.")
        if field == "choice":
            return _("Top up your hand, or take a new one.")
        return _("Something was missing. Tap again.")
    messages = {
        "not_in_hand": _("That card is not in your hand."),
        "not_face_up": _("Take back one of your face-up score cards."),
        "take_back_unplayed": _("Play the score card you take back."),
        "joker_value": _("Say which number the Joker stands for (0 to 16)."),
        "special_alone": _("Num-X and Infinity are played alone."),
        "only_numx": _("Only Num-X can cover Infinity."),
        "action_in_trick": _("An action card is not part of a trick: play it alone."),
        "mixed_values": _("All the cards of a trick have the same number."),
        "trick_changed": _("Too late: the trick changed before your Rainbow arrived."),
        "no_trick": _("There is no trick to complete now."),
        "own_trick": _("This trick is yours already."),
        "not_your_turn": _("Wait: it is not your turn yet."),
        "blocked": _("You are blocked: pass, or play Num-X."),
        "bonus_action": _("You may play an action card now, or pass."),
        "play_drawn": _("Play the card you drew, or keep it."),
        "play_drawn_now": _("Play the card you drew: it can be played."),
        "must_open": _("You start this lap: play a card."),
        "empty_pile": _("The pile is empty."),
        "not_action": _("Choose an action card."),
        "no_actions": _("This mode has no action cards."),
        "bad_target": _("Choose who the card is for."),
        "bad_direction": _("Swipe to the left or to the right."),
        "bad_card": _("Choose one of your score cards and one of theirs."),
        "not_offered": _("Hand out the cards of this lap, each once."),
        "counted": _("You have counted your cards."),
        "count_total_now": _("All the groups are counted: now the total."),
        "groups_first": _("Count every group first."),
        "game_over": _("The game is over."),
        "no_such_player": _("You are not in this game."),
    }
    return messages.get(code) or narration.refusal(error)
