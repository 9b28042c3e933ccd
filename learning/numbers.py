"""Operands and typed answers read as exact numbers: the engine stores them as
JSON ints or as strings ("3/4"), and a pupil may type anything."""

from __future__ import annotations

from fractions import Fraction
from typing import Any


def number(value: Any) -> Fraction | None:
    """An operand or typed answer as an exact number; None when it is not one."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return Fraction(value)
    try:
        return Fraction(str(value).strip())
    except (ValueError, ZeroDivisionError):
        return None


def whole(value: Any) -> int | None:
    """A whole number, or None (the times tables only take whole numbers)."""
    # Fast path for the common case (JSON ints).
    if type(value) is int:
        return value
    exact = number(value)
    if exact is not None and exact.denominator == 1:
        return int(exact)
    return None


def text(value: Any) -> str:
    """As a teacher reads it: "3", "3/4", or what was typed when not a number."""
    exact = number(value)
    if exact is None:
        return str(value)
    return str(exact)  # Fraction prints "3" or "3/4"
