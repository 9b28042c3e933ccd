"""The forms a page offers, read from its HTML as a browser would submit them:
<form> elements with their fields and current values, and the htmx elements
that send values of their own (hx-post / hx-get with hx-vals)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from html.parser import HTMLParser
from urllib.parse import urljoin, urlsplit


@dataclass
class PageForm:
    method: str  # "get" or "post"
    action: str  # a path, with any query string
    fields: dict[str, list[str]] = field(default_factory=dict)  # what the browser would send
    choices: dict[str, list[str]] = field(default_factory=dict)  # buttons, radios, options

    @property
    def names(self) -> list[str]:
        return sorted(set(self.fields) | set(self.choices))

    def key(self) -> tuple:
        return self.method, urlsplit(self.action).path, tuple(self.names)

    def values(self) -> dict[str, list[str]]:
        """The fields as sent by a tap on the first button or option of each kind."""
        sent = {name: list(values) for name, values in self.fields.items()}
        for name, options in self.choices.items():
            if name not in sent and options:
                sent[name] = [options[0]]
        sent.pop("csrfmiddlewaretoken", None)
        return sent


class _Reader(HTMLParser):
    def __init__(self, page_url: str) -> None:
        super().__init__(convert_charrefs=True)
        self.page_url = page_url
        self.forms: list[PageForm] = []
        self.open: list[PageForm] = []
        self.select: str | None = None
        self.textarea: str | None = None
        self.text = ""

    def handle_starttag(self, tag, attrs):
        a = {k: (v or "") for k, v in attrs}
        if tag == "form":
            action = urljoin(self.page_url, a.get("action") or self.page_url)
            form = PageForm(a.get("method", "get").lower(), action)
            self.forms.append(form)
            self.open.append(form)
        for kind in ("hx-post", "hx-get"):
            if kind in a and "hx-vals" in a:
                try:
                    vals = json.loads(a["hx-vals"])
                except ValueError:
                    continue
                target = PageForm(kind[3:], urljoin(self.page_url, a[kind]))
                target.fields = {k: [str(v)] for k, v in vals.items()}
                if self.open and a.get("hx-include") in ("this", "closest form"):
                    target.fields = {**self.open[-1].fields, **target.fields}
                self.forms.append(target)
        form = self.open[-1] if self.open else None
        if form is None:
            return
        name = a.get("name")
        if tag == "input" and name:
            kind = a.get("type", "text").lower()
            if kind in ("submit", "image", "button"):
                form.choices.setdefault(name, []).append(a.get("value", ""))
            elif kind in ("checkbox", "radio"):
                if "checked" in a:
                    form.fields.setdefault(name, []).append(a.get("value", "on"))
                form.choices.setdefault(name, []).append(a.get("value", "on"))
            elif kind != "file":
                form.fields.setdefault(name, []).append(a.get("value", ""))
        elif tag == "button" and name:
            form.choices.setdefault(name, []).append(a.get("value", ""))
        elif tag == "select" and name:
            self.select = name
            form.fields.setdefault(name, [])
        elif tag == "option" and self.select:
            value = a.get("value", "")
            form.choices.setdefault(self.select, []).append(value)
            if "selected" in a:
                form.fields[self.select].append(value)
        elif tag == "textarea" and name:
            self.textarea, self.text = name, ""

    def handle_data(self, data):
        if self.textarea:
            self.text += data

    def handle_endtag(self, tag):
        if tag == "form" and self.open:
            self.open.pop()
        elif tag == "select":
            if self.select and self.open and not self.open[-1].fields[self.select]:
                # Nothing selected: a browser sends the first option.
                first = self.open[-1].choices.get(self.select, [])[:1]
                self.open[-1].fields[self.select] = first
            self.select = None
        elif tag == "textarea" and self.textarea and self.open:
            self.open[-1].fields.setdefault(self.textarea, []).append(self.text.lstrip("\n"))
            self.textarea = None


def forms_on(html: str, page_url: str) -> list[PageForm]:
    reader = _Reader(page_url)
    reader.feed(html)
    return reader.forms
