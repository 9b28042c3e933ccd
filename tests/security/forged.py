"""One list of forged values, for every form field and every game move field.

Each is a way a hand-made request differs from what the page would send:
values no keypad types, and requests shaped unlike a form (a field twice, a
field missing, a file or JSON where text was expected).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from django.core.files.uploadedfile import SimpleUploadedFile

VALUES: dict[str, str] = {
    "NUL": "7\x00",
    "huge number": "9" * 20,
    "huge negative": "-" + "9" * 20,
    "5,000 digits": "7" * 5000,
    "right-to-left override": "\u202e7\u202c",
    "right-to-left mark": "\u200f12",
    "superscript two": "²",
    "arabic-indic three": "٣",
    "fullwidth seven": "７",
    "decimal": "1.5",
    "not a number": "NaN",
    "empty": "",
    "markup": "<script>alert(1)</script>",
    "emoji": "🙂",
    "a list": "[1, 2]",
    "an object": '{"a": 1}',
}


@dataclass(frozen=True)
class Forged:
    """One forged request for one field: ``data`` and how it is sent."""

    label: str
    data: Any
    content_type: str | None = None  # None: the test client's multipart form


def forge(values: dict[str, list[str]], name: str) -> list[Forged]:
    """Every forged request for field ``name`` of a form sending ``values``."""
    others = {k: v for k, v in values.items() if k != name}
    forged = [Forged(label, {**others, name: [value]}) for label, value in VALUES.items()]
    good = values.get(name, [""])
    forged += [
        Forged("repeated, forged last", {**others, name: [*good[:1], VALUES["NUL"]]}),
        Forged("missing", others),
        Forged("a file", {**others, name: SimpleUploadedFile("x.txt", b"\x00\xff" * 10)}),
        Forged(
            "JSON body",
            json.dumps({name: 7, "type": ["place"], "x": {"y": None}}),
            "application/json",
        ),
        Forged("not UTF-8", f"{name}=%FF%FE%00", "application/x-www-form-urlencoded"),
    ]
    return forged


def as_query(data: dict[str, Any]) -> dict[str, Any]:
    """A forged form as a query string (files become their name)."""
    return {k: getattr(v, "name", v) for k, v in data.items()}
