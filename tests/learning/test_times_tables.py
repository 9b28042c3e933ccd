"""The times tables and the grid of facts (learning/times_tables.py)."""

import pytest

from learning import tally, times_tables
from tests.learning.factories import step


def test_tables_grid_counts_both_operands_and_the_quotient():
    rows = [
        step("mul", 6, 7, 42, 42),
        step("mul", 7, 7, 49, 48),  # counts once for the 7s
        step("div", 56, 8, 7, 7),  # table of 8 and of 7
        step("mul", 13, 2, 26, 26),  # 13 is in no table; the 2s still count
        step("mul", 6, 7, 42, 41, first_try=False),  # retries are not evidence
        step("add", 6, 7, 13, 13),  # not a table fact
    ]
    grid = times_tables.tables_grid(rows)
    assert set(grid) == set(range(1, 13))
    assert (grid[7].attempts, grid[7].correct) == (3, 2)
    assert (grid[6].attempts, grid[8].attempts, grid[2].attempts) == (1, 1, 1)
    assert grid[12] == times_tables.TableCell(12, 0, 0, None, "unknown")
    assert times_tables.tables_grid(rows, skills=("div",))[7].attempts == 1


@pytest.mark.parametrize(
    ("right", "total", "status"),
    [(3, 3, "unknown"), (4, 4, "solid"), (9, 10, "solid"), (8, 10, "shaky"),
     (7, 10, "shaky"), (6, 10, "weak"), (0, 4, "weak")],
)  # fmt: skip
def test_table_status_thresholds(right, total, status):
    rows = [step("mul", 6, 3, 18, 18 if i < right else 17, minute=i) for i in range(total)]
    cell = times_tables.tables_grid(rows)[6]
    assert (cell.correct, cell.attempts, cell.status) == (right, total, status)
    sentence = times_tables.explain(cell)
    assert sentence.startswith(f"table of 6 {status}" if total >= 4 else "table of 6:")


def test_fact_grid_is_10_by_10_and_symmetric():
    rows = [step("mul", 6, 7, 42, 42), step("mul", 7, 6, 42, 40), step("mul", 3, 3, 9, 9)]
    rows += [step("mul", 11, 2, 22, 22), step("div", 42, 6, 7, 7)]
    grid = times_tables.fact_grid(rows)
    assert len(grid) == 100
    assert grid[6, 7] == grid[7, 6] == times_tables.FactCell(right=1, total=2)
    assert grid[3, 3] == times_tables.FactCell(1, 1)
    assert grid[2, 2] == times_tables.FactCell(0, 0)
    assert tally.summarise(rows)[1].facts == grid
