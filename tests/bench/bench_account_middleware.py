"""What allauth's AccountMiddleware adds to every request (single sign-on needs
it installed): ``.venv/bin/python tests/bench/bench_account_middleware.py``.

The bare 204 view of bare_wsgi.py called directly and through the middleware,
interleaved in one process, so that a busy machine slows both alike. It adds
no query (the poll and move query counts are held by
tests/games/test_query_counts.py). Session 18, on the shared 2-core machine:
4.5-11.4 µs a request in four runs, beside bench_requests.py's bare request
of 0.35-0.41 ms. Named bench_* so pytest skips it.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ROUNDS, CALLS = 15, 20_000


def main() -> None:
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from allauth.account.middleware import AccountMiddleware
    from django.test import RequestFactory

    sys.path.insert(0, str(ROOT / "tests" / "bench"))
    from bare_wsgi import bare

    through = AccountMiddleware(bare)
    request = RequestFactory().get("/bare/")
    alone, wrapped = [], []
    for _ in range(ROUNDS):
        for view, times in ((bare, alone), (through, wrapped)):
            started = time.perf_counter()
            for _ in range(CALLS):
                view(request)
            times.append((time.perf_counter() - started) / CALLS)
    a, w = statistics.median(alone), statistics.median(wrapped)
    print(f"bare view {a * 1e6:.2f} µs, through AccountMiddleware {w * 1e6:.2f} µs: "
          f"+{(w - a) * 1e6:.2f} µs a request (medians of {ROUNDS} x {CALLS})")


if __name__ == "__main__":
    main()
