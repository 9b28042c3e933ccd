"""Arithmetic shared by every game: checking a pupil's steps, reading a typed
calculation, and knowing which numbers a roll can make.

Numbo's rule (RULES.md 0.1): a calculation is a list of steps, each one joins two
available numbers with an operation and the pupil types the result. By default
every intermediate result is a whole number >= 0 and division is exact; with the
``fractions`` option intermediate results may be exact fractions, never below
zero, and only the final number must be whole.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any, NamedTuple

from engine.core import Attempt, IllegalMove

Number = int | Fraction
# Expression trees: a leaf is a number, a node is (op, left, right).
Tree = int | Fraction | tuple

ALL_OPERATIONS = "+-*/"
SKILL_OF = {"+": "add", "-": "sub", "*": "mul", "/": "div"}
STEP_SKILLS = frozenset(SKILL_OF.values())  # the skills of a typed step
SYMBOL_OF = {"+": "+", "-": "−", "*": "×", "/": "÷"}
WORD_OF = {"+": "add", "-": "take away", "*": "multiply", "/": "divide"}
# Everything a pupil or a teacher might type for an operation.
_OP_ALIASES = {
    "+": "+",
    "-": "-",
    "−": "-",
    "–": "-",
    "*": "*",
    "×": "*",
    "x": "*",
    "X": "*",
    "·": "*",
    "/": "/",
    "÷": "/",
    ":": "/",
}
MAX_TEXT = 200
# Bigger numbers than this are never needed by a pupil and would only let a
# hostile client make the server work hard.
MAX_NUMBER = 10**6


class Step(NamedTuple):
    """One step of a calculation: ``left op right = result``."""

    left: Number
    op: str
    right: Number
    result: Number

    def text(self) -> str:
        return f"{show(self.left)} {SYMBOL_OF[self.op]} {show(self.right)} = {show(self.result)}"


@dataclass(frozen=True)
class Calculation:
    """A whole, checked calculation."""

    numbers: tuple[Number, ...]
    steps: tuple[Step, ...]
    value: Number
    text: str
    brackets: bool
    multi_step: bool


# --------------------------------------------------------------------------- numbers


def normalise(value: Number) -> Number:
    """Whole fractions become ints, so 6 and Fraction(6) look the same everywhere."""
    if isinstance(value, Fraction) and value.denominator == 1:
        return int(value.numerator)
    return value


def show(value: Number) -> str:
    value = normalise(value)
    return str(value)


def to_json_number(value: Number) -> int | str:
    """Ints stay ints; fractions travel as "p/q" strings."""
    value = normalise(value)
    return value if isinstance(value, int) else f"{value.numerator}/{value.denominator}"


def from_json_number(value: Any) -> Number:
    if isinstance(value, str):
        return normalise(Fraction(value))
    return value


def is_whole(value: Number) -> bool:
    return isinstance(normalise(value), int)


def normalise_operations(operations: str | Iterable[str]) -> str:
    """The canonical spelling of a set of operations, in the order "+-*/"."""
    wanted = set()
    for symbol in operations:
        op = _OP_ALIASES.get(symbol)
        if op is None:
            raise IllegalMove(
                f"{symbol!r} is not an operation. Use + − × ÷.",
                "bad_operations",
                operations="".join(operations),
            )
        wanted.add(op)
    return "".join(op for op in ALL_OPERATIONS if op in wanted)


def operation_of(symbol: Any) -> str | None:
    return _OP_ALIASES.get(symbol) if isinstance(symbol, str) else None


# --------------------------------------------------------------------------- steps


def evaluate(left: Number, op: str, right: Number, fractions: bool = False) -> Number:
    """The exact result of one step, or IllegalMove when the step leaves the
    allowed numbers (division by zero, below zero, not whole)."""
    if op == "+":
        return normalise(left + right)
    if op == "*":
        return normalise(left * right)
    if op == "-":
        if left < right:
            raise IllegalMove(
                f"{show(left)} − {show(right)} would go below zero. "
                "Take the smaller number from the bigger one.",
                "below_zero",
                left=to_json_number(left),
                right=to_json_number(right),
            )
        return normalise(left - right)
    if op == "/":
        if right == 0:
            raise IllegalMove(
                "You cannot divide by zero.",
                "divide_by_zero",
                left=to_json_number(left),
                right=to_json_number(right),
            )
        if not fractions and left % right != 0:
            raise IllegalMove(
                f"{show(left)} ÷ {show(right)} does not give a whole number.",
                "not_whole",
                left=to_json_number(left),
                right=to_json_number(right),
            )
        return normalise(Fraction(left) / Fraction(right))
    raise IllegalMove(f"{op!r} is not an operation.", "bad_operations", operations=str(op))


def check_operation(op: str, operations: str) -> None:
    if op not in operations:
        allowed = " ".join(SYMBOL_OF[o] for o in operations)
        raise IllegalMove(
            f"You cannot use {SYMBOL_OF.get(op, op)} in this game. Use {allowed}.",
            "op_not_allowed",
            op=op,
            allowed=operations,
        )


def take(pool: list[Number], value: Number) -> None:
    """Remove one ``value`` from ``pool`` or refuse: the number is not available."""
    for index in range(len(pool) - 1, -1, -1):
        if pool[index] == value:
            del pool[index]
            return
    raise IllegalMove(
        f"You don't have a {show(value)} to use.",
        "not_available",
        number=to_json_number(value),
        available=[to_json_number(v) for v in pool],
    )


def step_attempt(step: Step, given: Number, first_try: bool = True) -> Attempt:
    """The learning record of one typed step (``step.result`` is the right answer)."""
    return Attempt(
        skill=SKILL_OF[step.op],
        operands=(to_json_number(step.left), to_json_number(step.right)),
        expected=to_json_number(step.result),
        given=to_json_number(given),
        correct=given == step.result,
        first_try=first_try,
    )


def calculation_attempts(calculation: Calculation, correct: bool = True) -> tuple[Attempt, ...]:
    """Whole-calculation tags (``brackets``, ``multi_step``), operands = the numbers used."""
    records = []
    operands = tuple(to_json_number(n) for n in calculation.numbers)
    value = to_json_number(calculation.value)
    for skill, present in (
        ("brackets", calculation.brackets),
        ("multi_step", calculation.multi_step),
    ):
        if present:
            records.append(Attempt(skill, operands, value, value if correct else None, correct))
    return tuple(records)


def plan_attempts(
    numbers: Sequence[Number],
    steps: Sequence[Step],
    finished: bool,
    first_try: bool = True,
) -> tuple[Attempt, ...]:
    """Whole-calculation tags (``brackets``, ``multi_step``) of a calculation
    the pupil tried, right or wrong: they judge the plan, not the typing. A
    wrong result is the mistake of its step's operation alone, so ``steps``
    hold the exact results. ``finished``: the plan joined every number
    (right); a plan cut short by a wrong step that ended the turn is wrong,
    with no answer to show (given "")."""
    if len(numbers) < 3 or not steps:
        return ()
    calculation = build_calculation(numbers, steps)
    operands = tuple(to_json_number(n) for n in numbers)
    value = to_json_number(calculation.value)
    given = value if finished else ""
    records = []
    for skill, present in (
        ("brackets", calculation.brackets),
        ("multi_step", calculation.multi_step),
    ):
        if present:
            records.append(Attempt(skill, operands, value, given, finished, first_try))
    return tuple(records)


def attempts_for(
    numbers: Sequence[Number],
    typed: Sequence[tuple[Number, str, Number, Number]],
    operations: str = ALL_OPERATIONS,
    fractions: bool = False,
) -> tuple[Attempt, ...]:
    """Attempts for a pupil's typed steps ``(left, op, right, given)``: one per
    step up to the first wrong one, plus the whole-calculation tags when every
    number was used and every step was right."""
    operations = normalise_operations(operations)
    pool = list(numbers)
    records: list[Attempt] = []
    done: list[Step] = []
    for left, op, right, given in typed:
        op = operation_of(op) or op
        check_operation(op, operations)
        take(pool, left)
        take(pool, right)
        step = Step(left, op, right, evaluate(left, op, right, fractions))
        records.append(step_attempt(step, given))
        if given != step.result:
            return tuple(records)
        pool.append(step.result)
        done.append(step)
    if len(pool) == 1 and done:
        records.extend(calculation_attempts(build_calculation(numbers, done)))
    return tuple(records)


# --------------------------------------------------------------------------- whole calculations

_PRECEDENCE = {"+": 1, "-": 1, "*": 2, "/": 2}


def _needs_brackets(parent: str, child: Tree, right_side: bool) -> bool:
    if not isinstance(child, tuple):
        return False
    mine, theirs = _PRECEDENCE[parent], _PRECEDENCE[child[0]]
    if theirs < mine:
        return True
    return right_side and theirs == mine and parent in "-/"


def tree_text(tree: Tree) -> str:
    """Text with only the brackets the usual order of operations needs."""
    if not isinstance(tree, tuple):
        return show(tree)
    op, left, right = tree
    left_text, right_text = tree_text(left), tree_text(right)
    if _needs_brackets(op, left, False):
        left_text = f"({left_text})"
    if _needs_brackets(op, right, True):
        right_text = f"({right_text})"
    return f"{left_text} {SYMBOL_OF[op]} {right_text}"


def tree_has_brackets(tree: Tree) -> bool:
    if not isinstance(tree, tuple):
        return False
    op, left, right = tree
    return (
        _needs_brackets(op, left, False)
        or _needs_brackets(op, right, True)
        or tree_has_brackets(left)
        or tree_has_brackets(right)
    )


def build_calculation(numbers: Sequence[Number], steps: Sequence[Step]) -> Calculation:
    """Put checked steps together: text form and whole-calculation tags.

    ``brackets`` means the calculation cannot be written left to right with the
    usual order of operations without brackets, e.g. (3 + 4) × 2 or 6 × (4 − 3).
    """
    # Each available number keeps the tree that made it; with equal values the
    # newest is taken, which is the one a pupil just made.
    trees: list[tuple[Number, Tree]] = [(n, n) for n in numbers]

    def pop(value: Number) -> Tree:
        for index in range(len(trees) - 1, -1, -1):
            if trees[index][0] == value:
                return trees.pop(index)[1]
        raise IllegalMove(f"You don't have a {show(value)} to use.", "not_available")

    for step in steps:
        left, right = pop(step.left), pop(step.right)
        trees.append((step.result, (step.op, left, right)))
    tree = trees[-1][1] if trees else 0
    value = steps[-1].result if steps else (numbers[0] if numbers else 0)
    return Calculation(
        numbers=tuple(numbers),
        steps=tuple(steps),
        value=value,
        text=tree_text(tree),
        brackets=tree_has_brackets(tree),
        multi_step=len(numbers) >= 3,
    )


def _unused(pool: list[Number]) -> IllegalMove:
    left = ", ".join(show(n) for n in pool)
    return IllegalMove(
        f"Use every number exactly once. You still have {left}.",
        "unused_numbers",
        unused=[to_json_number(n) for n in pool],
    )


def _final_whole(value: Number) -> None:
    if not is_whole(value):
        raise IllegalMove(
            f"The last number must be whole, and {show(value)} is a fraction.",
            "fraction_final",
            value=to_json_number(value),
        )


def check_steps(
    numbers: Sequence[Number],
    steps: Sequence[tuple[Number, str, Number, Number]],
    operations: str = ALL_OPERATIONS,
    fractions: bool = False,
) -> Calculation:
    """A whole calculation given as steps ``(left, op, right, result)``: every
    number used exactly once, allowed operations, every result right."""
    operations = normalise_operations(operations)
    pool = list(numbers)
    checked = []
    for left, op, right, result in steps:
        op = operation_of(op) or op
        check_operation(op, operations)
        take(pool, left)
        take(pool, right)
        exact = evaluate(left, op, right, fractions)
        if exact != result:
            raise IllegalMove(
                f"{show(left)} {SYMBOL_OF[op]} {show(right)} is not {show(result)}.",
                "wrong_result",
                left=to_json_number(left),
                op=op,
                right=to_json_number(right),
                given=to_json_number(result),
                expected=to_json_number(exact),
            )
        pool.append(exact)
        checked.append(Step(left, op, right, exact))
    if len(pool) != 1 or not checked:
        if len(pool) == 1:
            raise IllegalMove("Join the numbers with an operation.", "too_few_steps")
        raise _unused(pool)
    _final_whole(pool[0])
    return build_calculation(numbers, checked)


# --------------------------------------------------------------------------- typed text


class _Parser:
    """Recursive descent over: sum := product (('+'|'-') product)*;
    product := atom (('*'|'/') atom)*; atom := NUMBER | '(' sum ')'."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens = self._tokenise(text)
        self.index = 0

    def _error(self, position: int, what: str) -> IllegalMove:
        return IllegalMove(
            f"I don't understand the calculation at character {position + 1}: {what}.",
            "parse_error",
            position=position + 1,
            text=self.text,
        )

    def _tokenise(self, text: str) -> list[tuple[str, Any, int]]:
        tokens: list[tuple[str, Any, int]] = []
        index = 0
        while index < len(text):
            char = text[index]
            if char.isspace():
                index += 1
            elif char in "0123456789":
                start = index
                while index < len(text) and text[index] in "0123456789":
                    index += 1
                if index - start > 7:
                    raise self._error(start, "that number is far too big")
                tokens.append(("num", int(text[start:index]), start))
            elif char in "()":
                tokens.append((char, char, index))
                index += 1
            elif char in _OP_ALIASES:
                tokens.append(("op", _OP_ALIASES[char], index))
                index += 1
            else:
                raise self._error(index, f"{char!r} is not a number or an operation")
        tokens.append(("end", None, len(text)))
        return tokens

    def _peek(self) -> tuple[str, Any, int]:
        return self.tokens[self.index]

    def parse(self) -> Tree:
        if self._peek()[0] == "end":
            raise self._error(0, "there is no calculation")
        tree = self._sum()
        kind, _, position = self._peek()
        if kind != "end":
            found = "a number" if kind == "num" else repr(self.text[position])
            raise self._error(position, f"{found} should not be here")
        return tree

    def _sum(self) -> Tree:
        tree = self._product()
        while self._peek()[0] == "op" and self._peek()[1] in "+-":
            op = self._peek()[1]
            self.index += 1
            tree = (op, tree, self._product())
        return tree

    def _product(self) -> Tree:
        tree = self._atom()
        while self._peek()[0] == "op" and self._peek()[1] in "*/":
            op = self._peek()[1]
            self.index += 1
            tree = (op, tree, self._atom())
        return tree

    def _atom(self) -> Tree:
        kind, value, position = self._peek()
        if kind == "num":
            self.index += 1
            if self._peek()[0] == "num":
                raise self._error(self._peek()[2], "two numbers side by side need an operation")
            return ("num", value, position)
        if kind == "(":
            self.index += 1
            tree = self._sum()
            if self._peek()[0] != ")":
                raise self._error(self._peek()[2], "a bracket is not closed")
            self.index += 1
            return tree
        if kind == "end":
            raise self._error(position, "the calculation stops too early")
        raise self._error(position, f"{self.text[position]!r} should not be here")


def parse_calculation(
    text: Any,
    numbers: Sequence[Number],
    operations: str = ALL_OPERATIONS,
    fractions: bool = False,
) -> Calculation:
    """A calculation typed as text, e.g. ``"(3+4)*2"`` or ``"6×4+3−1"``, checked
    against the available ``numbers`` (each used exactly once). Never evals."""
    if not isinstance(text, str):
        raise IllegalMove("Type the calculation as text.", "malformed", field="text")
    if len(text) > MAX_TEXT:
        raise IllegalMove(
            f"That calculation is too long (more than {MAX_TEXT} characters).",
            "too_long",
            length=len(text),
            limit=MAX_TEXT,
        )
    operations = normalise_operations(operations)
    tree = _Parser(text).parse()
    pool = list(numbers)
    steps: list[Step] = []

    def walk(node: tuple) -> Number:
        if node[0] == "num":
            _, value, position = node
            if value not in pool:
                digits = str(value)
                spare = Counter(int(d) for d in digits)
                have = Counter(n for n in pool if isinstance(n, int))
                if len(digits) > 1 and not spare - have:
                    raise IllegalMove(
                        f"You cannot put digits side by side to make {value}.",
                        "juxtaposed",
                        number=value,
                        position=position + 1,
                    )
            take(pool, value)
            return value
        op, left, right = node
        left_value = walk(left)
        right_value = walk(right)
        check_operation(op, operations)
        result = evaluate(left_value, op, right_value, fractions)
        steps.append(Step(left_value, op, right_value, result))
        return result

    value = walk(tree)
    if pool:
        raise _unused(pool)
    if not steps:
        raise IllegalMove("Join the numbers with an operation.", "too_few_steps")
    _final_whole(value)
    return build_calculation(numbers, steps)


# --------------------------------------------------------------------------- what a roll can make


def _key(numbers: Iterable[Number]) -> tuple[Number, ...]:
    return tuple(sorted(normalise(n) for n in numbers))


@cache
def _splits(
    numbers: tuple[Number, ...],
) -> tuple[tuple[tuple[Number, ...], tuple[Number, ...]], ...]:
    """Every way to cut a sorted multiset in two non-empty parts (each pair once)."""
    count = len(numbers)
    seen = set()
    for mask in range(1, 1 << count):
        if not mask & 1 or mask == (1 << count) - 1:
            continue  # the first number always goes left: each pair once
        left = tuple(numbers[i] for i in range(count) if mask >> i & 1)
        right = tuple(numbers[i] for i in range(count) if not mask >> i & 1)
        seen.add((left, right))
    return tuple(sorted(seen))


@cache
def _values(numbers: tuple[Number, ...], ops: str, fractions: bool) -> frozenset:
    """Every value (intermediate rules respected) a calculation using all
    ``numbers`` can make. Subset-split dynamic programming."""
    if len(numbers) == 1:
        return frozenset(numbers)
    add, sub, mul, div = (op in ops for op in ALL_OPERATIONS)
    out: set = set()
    for left, right in _splits(numbers):
        left_values = _values(left, ops, fractions)
        right_values = _values(right, ops, fractions)
        for a in left_values:
            for b in right_values:
                if add:
                    out.add(a + b)
                if mul:
                    out.add(a * b)
                if sub:
                    out.add(a - b if a >= b else b - a)
                if div:
                    if fractions:
                        if b:
                            out.add(Fraction(a) / b)
                        if a:
                            out.add(Fraction(b) / a)
                    else:
                        if b and a % b == 0:
                            out.add(a // b)
                        if a and b % a == 0:
                            out.add(b // a)
    return frozenset(out)


@cache
def _whole_values(numbers: tuple[Number, ...], ops: str, fractions: bool) -> frozenset[int]:
    values = _values(numbers, ops, fractions)
    if not fractions:
        return values
    return frozenset(int(v) for v in values if Fraction(v).denominator == 1)


def reachable(
    numbers: Iterable[Number], operations: str = ALL_OPERATIONS, fractions: bool = False
) -> set[int]:
    """Every whole number a calculation using ALL the numbers can make, any
    bracketing (RULES.md 0.1)."""
    key = _key(numbers)
    if not key:
        return set()
    return set(_whole_values(key, normalise_operations(operations), bool(fractions)))


def reachable_frozen(
    numbers: Iterable[Number], operations: str = ALL_OPERATIONS, fractions: bool = False
) -> frozenset[int]:
    """:func:`reachable` without the copy, for hot loops (bots, checks)."""
    key = _key(numbers)
    if not key:
        return frozenset()
    return _whole_values(key, normalise_operations(operations), bool(fractions))


@cache
def _trees(numbers: tuple[Number, ...], ops: str, fractions: bool) -> dict:
    """value -> one expression tree making it (the first one found)."""
    if len(numbers) == 1:
        return {numbers[0]: numbers[0]}
    out: dict = {}
    for left, right in _splits(numbers):
        left_trees = _trees(left, ops, fractions)
        right_trees = _trees(right, ops, fractions)
        for a, ta in left_trees.items():
            for b, tb in right_trees.items():
                for value, tree in _combine(a, ta, b, tb, ops, fractions):
                    if value not in out:
                        out[value] = tree
    return out


def _combine(a: Number, ta: Tree, b: Number, tb: Tree, ops: str, fractions: bool) -> list:
    made = []
    if not isinstance(ta, tuple) and isinstance(tb, tuple):
        # Reads better: "(3 + 4) × 2" rather than "2 × (3 + 4)".
        a, ta, b, tb = b, tb, a, ta
    if "+" in ops:
        made.append((a + b, ("+", ta, tb)))
    if "*" in ops:
        made.append((normalise(a * b), ("*", ta, tb)))
    if "-" in ops:
        made.append(
            (normalise(a - b), ("-", ta, tb)) if a >= b else (normalise(b - a), ("-", tb, ta))
        )
    if "/" in ops:
        for x, tx, y, ty in ((a, ta, b, tb), (b, tb, a, ta)):
            if y and (fractions or x % y == 0):
                made.append((normalise(Fraction(x) / y), ("/", tx, ty)))
    return made


def _tree_steps(tree: Tree, steps: list[Step], fractions: bool) -> Number:
    if not isinstance(tree, tuple):
        return tree
    op, left, right = tree
    a = _tree_steps(left, steps, fractions)
    b = _tree_steps(right, steps, fractions)
    result = evaluate(a, op, b, fractions)
    steps.append(Step(a, op, b, result))
    return result


def explain(
    numbers: Iterable[Number],
    target: int,
    operations: str = ALL_OPERATIONS,
    fractions: bool = False,
) -> Calculation | None:
    """One calculation using all ``numbers`` that makes ``target``, or None.
    ``.steps`` are (left, op, right, result) in order, ``.text`` e.g. "(3 + 4) × 2"."""
    key = _key(numbers)
    if not key:
        return None
    tree = _trees(key, normalise_operations(operations), bool(fractions)).get(target)
    if tree is None or isinstance(target, bool):
        return None
    steps: list[Step] = []
    _tree_steps(tree, steps, bool(fractions))
    if not steps:
        # A single number: nothing to calculate, but it is still "made".
        return Calculation(key, (), key[0], show(key[0]), False, False)
    return build_calculation(key, steps)


_MASK = {"+": 1, "-": 2, "*": 4, "/": 8}


@cache
def _usage(numbers: tuple[Number, ...], ops: str, fractions: bool) -> dict:
    """value -> frozenset of operation masks: each mask is the set of operations
    one calculation making that value uses."""
    if len(numbers) == 1:
        return {numbers[0]: frozenset({0})}
    out: dict = {}
    for left, right in _splits(numbers):
        left_usage = _usage(left, ops, fractions)
        right_usage = _usage(right, ops, fractions)
        for a, masks_a in left_usage.items():
            for b, masks_b in right_usage.items():
                joined = {ma | mb for ma in masks_a for mb in masks_b}
                for value, tree in _combine(a, a, b, b, ops, fractions):
                    bit = _MASK[tree[0]]
                    out.setdefault(value, set()).update(m | bit for m in joined)
    return {value: frozenset(masks) for value, masks in out.items()}


def operations_that_make(
    numbers: Iterable[Number],
    targets: Iterable[int],
    operations: str = ALL_OPERATIONS,
    fractions: bool = False,
) -> dict[str, bool]:
    """For each allowed operation: True when some calculation using all the
    numbers reaches some number of ``targets`` and uses that operation at least
    once. ("Could division have made a free square with this roll?")"""
    ops = normalise_operations(operations)
    key = _key(numbers)
    found = {op: False for op in ops}
    if not key:
        return found
    usage = _usage(key, ops, bool(fractions))
    seen = 0
    for target in set(targets):
        for mask in usage.get(target, ()):
            seen |= mask
    return {op: bool(seen & _MASK[op]) for op in ops}


def clear_caches() -> None:
    """Forget every memoised roll (for benchmarks that time a cold start)."""
    for cached in (_splits, _values, _whole_values, _trees, _usage):
        cached.cache_clear()
