"""A tiny browser for the stack test: one origin, its cookies, forms posted
with the CSRF token, nothing followed (the test reads each answer)."""

from __future__ import annotations

import http.client
import re
from dataclasses import dataclass
from http.cookies import SimpleCookie
from urllib.parse import urlencode


@dataclass
class Answer:
    status: int
    location: str
    text: str


class Browser:
    def __init__(self, port: int) -> None:
        self.port = port
        self.cookies: dict[str, str] = {}

    def get(self, path: str, headers: dict[str, str] | None = None) -> Answer:
        return self._send("GET", path, None, headers or {})

    def post(self, path: str, fields: dict[str, str], headers: dict[str, str] | None = None):
        # Django takes the cookie's own secret as a token.
        body = urlencode({**fields, "csrfmiddlewaretoken": self.cookies.get("csrftoken", "")})
        sent = {"Content-Type": "application/x-www-form-urlencoded", **(headers or {})}
        return self._send("POST", path, body, sent)

    def _send(self, method: str, path: str, body: str | None, headers: dict[str, str]) -> Answer:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            if self.cookies:
                jar = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
                headers = {**headers, "Cookie": jar}
            connection.request(method, path, body=body, headers={"Host": "localhost", **headers})
            response = connection.getresponse()
            for line in response.headers.get_all("Set-Cookie") or []:
                # The cookies say Secure (production): this browser keeps them
                # on plain HTTP, as the TLS proxy in front would pass them on.
                jar = SimpleCookie()
                jar.load(line)
                for name, morsel in jar.items():
                    if morsel["max-age"] == "0":
                        self.cookies.pop(name, None)
                    else:
                        self.cookies[name] = morsel.value
            return Answer(
                response.status,
                response.headers.get("Location", ""),
                response.read().decode(errors="replace"),
            )
        finally:
            connection.close()


def poll_token(page: str) -> str:
    return re.search(r"\?t=([^&\"]+)", page).group(1)
