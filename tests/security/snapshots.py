"""The project's rows before and after a request, and what changed between."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from django.apps import apps
from django.db import connection, models, transaction

APPS = ("classroom", "games")
# What a control or format character (NUL, a right-to-left override) would do
# on a page is not for a pupil to find out. Line breaks and tabs are text; the
# zero-width (non-)joiner is part of how some scripts are written.
ALLOWED_CONTROLS = {"\n", "\r", "\t", "\u200c", "\u200d"}

Rows = dict[tuple[str, Any], dict[str, Any]]
Sent = TypeVar("Sent")
# Statements that change no row (a savepoint's are the request's own atomic blocks).
READS = ("SELECT", "SAVEPOINT", "RELEASE", "ROLLBACK")


def project_models() -> list[type[models.Model]]:
    return [m for app in APPS for m in apps.get_app_config(app).get_models()]


def snapshot() -> Rows:
    # Raw rows through one cursor: the ORM's objects cost a request's time each.
    rows: Rows = {}
    with connection.cursor() as cursor:
        for model in project_models():
            names = [f.attname for f in model._meta.concrete_fields]
            quote = connection.ops.quote_name
            columns = ", ".join(quote(f.column) for f in model._meta.concrete_fields)
            cursor.execute(f"SELECT {columns} FROM {quote(model._meta.db_table)}")
            pk = names.index(model._meta.pk.attname)
            for values in cursor.fetchall():
                rows[(model._meta.label, values[pk])] = dict(zip(names, values, strict=True))
    return rows


class WriteWatch:
    """Whether a statement sent while it watches may have changed a project
    row: any but a read that names one of the project's tables (Django names
    every table it writes, cascades included)."""

    def __init__(self) -> None:
        quote = connection.ops.quote_name
        self.tables = [quote(m._meta.db_table) for m in project_models()]
        self.wrote = False

    def __call__(self, execute, sql, params, many, context):
        if not self.wrote and not sql.lstrip().upper().startswith(READS):
            self.wrote = any(table in sql for table in self.tables)
        return execute(sql, params, many, context)


def around(send: Callable[..., Sent], *args: Any, **kwargs: Any) -> tuple[Sent, Rows, Rows]:
    """What ``send(*args, **kwargs)`` returns, and the project's rows before and after it,
    inside a transaction that is rolled back after (attack.undone). Most
    forged requests write nothing: the rows are read only when a statement
    may have written (else both are empty), and never after a 500, whose
    transaction may be broken."""
    point = transaction.savepoint()
    watch = WriteWatch()
    with connection.execute_wrapper(watch):
        response = send(*args, **kwargs)
    if not watch.wrote or response.status_code >= 500:
        return response, {}, {}
    after = snapshot()
    transaction.savepoint_rollback(point)
    return response, snapshot(), after


@dataclass(frozen=True, order=True)
class Change:
    verb: str  # "created", "deleted", "changed"
    label: str  # "classroom.Pupil"
    pk: Any
    field: str = ""

    def __str__(self) -> str:
        return " ".join(str(part) for part in (self.verb, self.label, self.pk, self.field) if part)

    @property
    def kind(self) -> str:
        """What changed whatever the row: 'changed classroom.Classroom name'."""
        return " ".join(part for part in (self.verb, self.label, self.field) if part)


def changes(before: Rows, after: Rows) -> list[Change]:
    found = [Change("created", *key) for key in after.keys() - before.keys()]
    found += [Change("deleted", *key) for key in before.keys() - after.keys()]
    for key in before.keys() & after.keys():
        found += [
            Change("changed", *key, name)
            for name, value in after[key].items()
            if before[key][name] != value
        ]
    return sorted(found)


def unclean_cells(before: Rows, after: Rows) -> list[str]:
    """Text cells written since ``before`` that break their column: too long,
    off its choices, or holding a control or format character."""
    bad = []
    fields = {
        m._meta.label: {f.attname: f for f in m._meta.concrete_fields} for m in project_models()
    }
    for key, row in after.items():
        if before.get(key) == row:
            continue
        for name, value in row.items():
            if not isinstance(value, str) or (key in before and before[key][name] == value):
                continue
            field = fields[key[0]][name]
            reason = ""
            if field.max_length and len(value) > field.max_length:
                reason = "too long"
            elif field.choices and value not in {str(c) for c, _label in field.flatchoices}:
                reason = "not one of its choices"
            elif any(
                unicodedata.category(c).startswith("C") and c not in ALLOWED_CONTROLS
                for c in value
            ):
                reason = "a control or format character"
            if reason:
                bad.append(f"{key[0]} {key[1]} {name}={value[:40]!r}: {reason}")
    return bad
