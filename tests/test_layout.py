"""The imports point one way: engine <- learning <- classroom <- school <- games <- config.

Read from the source (ast, every import, also those inside functions), so a
forbidden import fails here before anyone runs the page that makes it.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "learning", "classroom", "school", "games", "config")
# What each package may not import (its floor and those below it are allowed).
FORBIDDEN = {
    "engine": {"django", "learning", "classroom", "school", "games", "config"},
    "learning": {"django", "classroom", "school", "games", "config"},
    "classroom": {"school", "games", "config"},
    "school": {"games", "config"},
    "games": {"config"},
}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            found[_module_name(path)] = path
    return found


def _parse(source: str) -> ast.Module:
    # CPython 3.11 can raise "AST constructor recursion depth mismatch" when
    # another thread parses at the same moment (the browser tests' leftover
    # live-server threads): the source is fine, so parse it again.
    for _ in range(4):
        try:
            return ast.parse(source)
        except SystemError:
            continue
    return ast.parse(source)


def _imports(name: str, path: Path) -> set[str]:
    """Every module name ``path`` imports, absolute, with ``from x import y``
    read as ``x.y`` (a module or a name in x: the caller resolves which)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    names = set()
    for node in ast.walk(_parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            names.update(f"{base}.{alias.name}" for alias in node.names)
    return names


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    graph = {}
    for name, path in modules.items():
        targets = set()
        for imported in _imports(name, path):
            # "from pkg import mod" names a module; "from mod import func" its module.
            while imported and imported not in modules:
                imported = imported.rpartition(".")[0]
            if imported and imported != name:
                targets.add(imported)
        graph[name] = targets
    return graph


def _forbidden(graph, raw) -> list[str]:
    wrong = []
    for name, imported in raw.items():
        top = name.split(".")[0]
        for target in imported:
            if target.split(".")[0] in FORBIDDEN.get(top, ()):
                wrong.append(f"{name} imports {target}")
    return sorted(wrong)


def _raw_imports() -> dict[str, set[str]]:
    return {name: _imports(name, path) for name, path in _modules().items()}


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in graph.get(node, ()):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                circles.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return circles


def test_each_package_imports_only_the_floors_below():
    assert _forbidden(_graph(), _raw_imports()) == []


def test_no_import_circle_between_modules():
    assert _circles(_graph()) == []


def test_the_check_sees_a_forbidden_import_and_a_circle():
    raw = {"classroom.views.pupil": {"games.services"}, "engine.core": {"django.db"}}
    assert _forbidden({}, raw) == [
        "classroom.views.pupil imports games.services",
        "engine.core imports django.db",
    ]
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
