"""The skills a report speaks of: those the engine tags, in the engine's order."""

from __future__ import annotations

from collections.abc import Iterable

from engine.core import SKILLS

__all__ = ["OPERATIONS", "SKILLS", "SYMBOLS", "in_report_order"]

SYMBOLS = {"add": "+", "sub": "−", "mul": "×", "div": "÷"}

OPERATIONS: tuple[str, ...] = tuple(skill for skill in SKILLS if skill in SYMBOLS)
"""The four operations: always reported, even before a pupil's first step."""


def in_report_order(skills: Iterable[str]) -> list[str]:
    """The engine's skills in its order, then any other skill by name."""
    skills = set(skills)
    known = [skill for skill in SKILLS if skill in skills]
    return known + sorted(skills - set(known))
