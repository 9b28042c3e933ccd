"""Starts and stops the tests' real OpenID Connect provider (provider.mjs).

panva's oidc-provider, run by Node.js from this folder's node_modules, which
``ensure_installed`` makes from package-lock.json on a fresh clone (``npm ci``:
the pinned versions, once; offline afterwards). Without node or npm the tests
fail and say so: single sign-on is never left untested.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
SCRIPT = HERE / "provider.mjs"
INSTALLED = HERE / "node_modules" / "oidc-provider" / "package.json"
# This helper's ports on the shared machine; any free port when all are taken.
PREFERRED_PORTS = range(8203, 8210)
READY_SECONDS = 20


class ProviderUnavailable(RuntimeError):
    """node, npm or the provider's packages cannot be had: a failure, never a skip."""


def ensure_installed() -> None:
    if INSTALLED.exists():
        return
    npm = shutil.which("npm")
    if not shutil.which("node") or not npm:
        raise ProviderUnavailable(
            "The single sign-on tests need Node.js and npm to run their OpenID Connect "
            "provider (tests/sso/provider.mjs): apt-get install -y nodejs npm"
        )
    result = subprocess.run(
        [npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"],
        cwd=HERE,
        capture_output=True,
        text=True,
        timeout=300,
    )
    if result.returncode != 0 or not INSTALLED.exists():
        raise ProviderUnavailable(
            f"npm ci in {HERE} failed ({result.returncode}):\n{result.stdout}\n{result.stderr}"
        )


def free_port() -> int:
    for port in PREFERRED_PORTS:
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@dataclass(frozen=True)
class Client:
    client_id: str
    client_secret: str
    redirect_uri: str


@dataclass
class RunningProvider:
    issuer: str
    process: subprocess.Popen
    output: list[str]


@contextmanager
def running_provider(clients: list[Client], accounts: dict[str, dict]) -> Iterator[RunningProvider]:
    """The provider on a free port of 127.0.0.1 while the block runs."""
    ensure_installed()
    node = shutil.which("node")
    if not node:
        raise ProviderUnavailable("Node.js is missing: apt-get install -y nodejs")
    config = {
        "port": free_port(),
        "clients": [
            {
                "client_id": client.client_id,
                "client_secret": client.client_secret,
                "redirect_uris": [client.redirect_uri],
            }
            for client in clients
        ],
        "accounts": accounts,
    }
    process = subprocess.Popen(
        [node, str(SCRIPT)],
        cwd=HERE,
        env={**os.environ, "NUMBO_TEST_OIDC": json.dumps(config), "NODE_NO_WARNINGS": "1"},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    output: list[str] = []
    ready = threading.Event()

    def read() -> None:
        # Keeps the pipe drained for the whole run, and notes the ready line.
        for line in process.stdout:
            output.append(line.rstrip())
            if line.startswith("ready "):
                ready.set()

    threading.Thread(target=read, daemon=True).start()
    deadline = time.monotonic() + READY_SECONDS
    while not ready.wait(0.05):
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            process.wait()
            raise ProviderUnavailable(
                "The OpenID Connect provider did not start:\n" + "\n".join(output)
            )
    try:
        yield RunningProvider(f"http://127.0.0.1:{config['port']}", process, output)
    finally:
        process.terminate()
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
