"""The board of RULES.md 1.3-1.4 and Appendix A."""

import re
from pathlib import Path

import pytest

from engine.numberquest import board

# Appendix A, neighbours of 1..100 in order (copied from RULES.md, not from the code).
NEIGHBOURS = (
    "2,3;1,3,4,5;1,2,5,6;2,5,7,8;2,3,4,6,8,9;3,5,9,10;4,8,11,12;4,5,7,9,12,13;"
    "5,6,8,10,13,14;6,9,14,15;7,12,16,17;7,8,11,13,17,18;8,9,12,14,18,19;"
    "9,10,13,15,19,20;10,14,20,21;11,17,22,23;11,12,16,18,23,24;12,13,17,19,24,25;"
    "13,14,18,20,25,26;14,15,19,21,26,27;15,20,27,28;16,23,29,30;16,17,22,24,30,31;"
    "17,18,23,25,31,32;18,19,24,26,32,33;19,20,25,27,33,34;20,21,26,28,34,35;"
    "21,27,35,36;22,30,37,38;22,23,29,31,38,39;23,24,30,32,39,40;24,25,31,33,40,41;"
    "25,26,32,34,41,42;26,27,33,35,42,43;27,28,34,36,43,44;28,35,44,45;29,38,46,47;"
    "29,30,37,39,47,48;30,31,38,40,48,49;31,32,39,41,49,50;32,33,40,42,50,51;"
    "33,34,41,43,51,52;34,35,42,44,52,53;35,36,43,45,53,54;36,44,54,55;37,47,56;"
    "37,38,46,48,56,57;38,39,47,49,57,58;39,40,48,50,58,59;40,41,49,51,59,60;"
    "41,42,50,52,60,61;42,43,51,53,61,62;43,44,52,54,62,63;44,45,53,55,63,64;"
    "45,54,64;46,47,57,65;47,48,56,58,65,66;48,49,57,59,66,67;49,50,58,60,67,68;"
    "50,51,59,61,68,69;51,52,60,62,69,70;52,53,61,63,70,71;53,54,62,64,71,72;"
    "54,55,63,72;56,57,66,73;57,58,65,67,73,74;58,59,66,68,74,75;59,60,67,69,75,76;"
    "60,61,68,70,76,77;61,62,69,71,77,78;62,63,70,72,78,79;63,64,71,79;65,66,74,80;"
    "66,67,73,75,80,81;67,68,74,76,81,82;68,69,75,77,82,83;69,70,76,78,83,84;"
    "70,71,77,79,84,85;71,72,78,85;73,74,81,86;74,75,80,82,86,87;75,76,81,83,87,88;"
    "76,77,82,84,88,89;77,78,83,85,89,90;78,79,84,90;80,81,87,91;81,82,86,88,91,92;"
    "82,83,87,89,92,93;83,84,88,90,93,94;84,85,89,94;86,87,92,95;87,88,91,93,95,96;"
    "88,89,92,94,96,97;89,90,93,97;91,92,96,98;92,93,95,97,98,99;93,94,96,99;"
    "95,96,99,100;96,97,98,100;98,99"
)
PRIMES = "2 3 5 7 11 13 17 19 23 29 31 37 41 43 47 53 59 61 67 71 73 79 83 89 97"
BANDS = [
    ("orange", 1, 15, 10),
    ("turquoise", 16, 28, 20),
    ("yellow", 29, 45, 50),
    ("blue", 46, 64, 100),
    ("green", 65, 79, 200),
    ("violet", 80, 90, 300),
    ("red", 91, 100, 500),
]
RULES = Path("/work/shared/RULES.md")


def test_every_neighbour_list_matches_the_appendix():
    expected = [tuple(int(n) for n in part.split(",")) for part in NEIGHBOURS.split(";")]
    assert len(expected) == 100
    assert [board.neighbours(n) for n in board.SQUARES] == expected


def test_colours_payouts_and_primes():
    for name, first, last, pays in BANDS:
        for n in range(first, last + 1):
            assert (board.colour(n), board.payout(n)) == (name, pays)
    assert [n for n in board.SQUARES if board.is_prime(n)] == [int(p) for p in PRIMES.split()]
    assert not board.is_prime(1)


@pytest.mark.skipif(not RULES.exists(), reason="RULES.md is not in this checkout")
def test_the_whole_appendix_table():
    rows = re.findall(
        r"^\| (\d+) \| (\d+) \| (\d+) \| (\w+) \| (\d+) \| (P?) *\| ([\d, ]+) \|$",
        RULES.read_text(),
        re.MULTILINE,
    )
    assert len(rows) == 100
    for n, row, pos, colour, pays, prime, around in rows:
        n = int(n)
        assert board.cell_position(n) == (int(row), int(pos))
        assert board.colour(n) == colour
        assert board.payout(n) == int(pays)
        assert board.is_prime(n) == (prime == "P")
        assert board.neighbours(n) == tuple(int(x) for x in around.split(","))


def test_rows_of_the_diamond():
    assert board.cell_position(1) == (1, 1)
    assert board.cell_position(55) == (10, 10)
    assert board.cell_position(100) == (19, 1)
    assert all(board.square_at(*board.cell_position(n)) == n for n in board.SQUARES)
    # Centres: one unit between neighbours, the diamond symmetric about x = 0.
    for n in board.SQUARES:
        x, y = board.cell_centre(n)
        for m in board.neighbours(n):
            mx, my = board.cell_centre(m)
            assert abs(((x - mx) ** 2 + (y - my) ** 2) ** 0.5 - 1) < 1e-9
    assert board.cell_centre(1)[0] == 0 == board.cell_centre(100)[0]


def test_neighbours_are_symmetric():
    for n in board.SQUARES:
        for m in board.neighbours(n):
            assert n in board.neighbours(m)


def test_seed_triangles():
    # 24 beside 18 and 25: a Nubble (seed).
    assert {18, 25} <= set(board.neighbours(24))
    assert board.closes_triangle({18, 25}, 24)
    assert board.bonus({18, 25}, 24) == 100
    assert board.payout(24) + board.bonus({18, 25}, 24) == 120
    # 43 is a prime: a Double-Nubble, 50 + 200.
    assert board.payout(43) + board.bonus({34, 35}, 43) == 250
    # 29 on the edge: exactly three triangles.
    assert set(board.triangles(set(board.neighbours(29)), 29)) == {(22, 30), (30, 38), (37, 38)}
    assert board.neighbours(41) == (32, 33, 40, 42, 50, 51)
    assert not board.closes_triangle({18, 32}, 24)  # two neighbours, not touching
    assert not board.closes_triangle({41}, 43)  # 41 is not next to 43
    assert board.bonus({40, 32}, 41) == 200
    assert board.bonus(set(), 41) == 0


def test_chain():
    assert not board.chain_connects({1, 100}, 1, 100)
    line = {1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 64, 72, 79, 85, 90, 94, 97, 99, 100}
    assert board.chain_connects(line, 1, 100)
    assert not board.chain_connects(line - {55}, 1, 100)
    # Only squares inside the range count.
    assert board.chain_connects({1, 2, 4}, 1, 4, 1, 4)
    assert not board.chain_connects({1, 2, 4}, 1, 4, 1, 3)
    everything = set(board.SQUARES)
    assert board.chain_gap(set(), everything, 1, 100) == 19  # distance 18
    assert board.chain_gap(line - {55}, everything, 1, 100) == 1
    assert board.chain_gap(line, everything, 1, 100) == 0
    assert board.chain_gap(set(), {1, 100}, 1, 100) is None


def test_bad_squares():
    for bad in (0, 101, "5", None):
        with pytest.raises(ValueError):
            board.neighbours(bad)
