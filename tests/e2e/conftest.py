"""Real Chromium (Debian's package) driven by Playwright, in a tablet viewport."""

import contextlib
import os
from pathlib import Path

import pytest

CHROMIUM = Path(os.environ.get("NUMBO_CHROMIUM", "/usr/bin/chromium"))

# Playwright's sync API runs an event loop in this thread; the ORM calls of the
# test body are still synchronous and safe here.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


def pytest_collection_modifyitems(config, items):
    for item in items:
        if "tests/e2e/" in str(item.fspath):
            item.add_marker(pytest.mark.e2e)
    if CHROMIUM.exists():
        return
    if os.environ.get("NUMBO_REQUIRE_SERVICES") == "1":
        raise pytest.UsageError(
            f"Chromium is required for the browser tests: {CHROMIUM} is missing"
        )
    skip = pytest.mark.skip(reason=f"{CHROMIUM} missing: apt-get install -y chromium")
    for item in items:
        if "tests/e2e/" in str(item.fspath):
            item.add_marker(skip)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {
        **browser_type_launch_args,
        "executable_path": str(CHROMIUM),
        "args": ["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
    }


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    return {
        **browser_context_args,
        "viewport": {"width": 768, "height": 1024},
        "has_touch": True,
        "locale": "en-GB",
    }


@pytest.fixture(autouse=True)
def _close_tablets_after_each_test(browser):
    """Close every browser context a test opened. The browser and the live
    server last the whole session: a tablet left open kept polling a table of
    an earlier test (404s every 2 s) and held its push stream, and dozens of
    them slowed the server under the tests that came later."""
    yield
    for context in list(browser.contexts):
        with contextlib.suppress(Exception):  # already closed with its page
            context.close()
