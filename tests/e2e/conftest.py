"""Real Chromium (Debian's package) driven by Playwright, in a tablet viewport."""

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
