"""How a finished table's game ended, for the reports (classroom.reports.services
asks through ``provide_outcomes``: classroom never imports games)."""

from __future__ import annotations

from classroom.reports.services import Placed, TableOutcome

from .pages import engine_of, presenter


def table_outcome(table) -> TableOutcome | None:
    """The places of the table's players once its engine names a result."""
    try:
        engine = engine_of(table.session.game)
        result = engine.result(engine.from_json(table.state))
    except (KeyError, TypeError, ValueError, AttributeError):
        return None  # a table whose state no engine reads has no result to show
    if result is None:
        return None
    placed = []
    for group in result.ranking:
        place = len(placed) + 1
        placed += [Placed(player, place, result.scores[player]) for player in group]
    if not result.ranking:
        # The teacher ended it before the rules named anybody: no places.
        placed = [Placed(player, None, score) for player, score in enumerate(result.scores)]
    # What the scores count is the game's to say (the track's are squares).
    shown = presenter(table.session.game)
    return TableOutcome(
        placed, str(shown.score_heading), str(shown.score_words), ended_early=result.ended
    )
