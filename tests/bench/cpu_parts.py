"""What bench_load.py --cpu-parts splits a web worker's CPU into: timed_wsgi.py
counts each part in the workers, bench_load.py names them in its report."""

NAMES = {
    "draw": "drawing pages (templates)",
    "page": "presenters' page contexts (SVG in Python)",
    "engine": "the engines (read, apply, view, moves)",
    "orm": "the ORM building SQL",
    "sql": "the database driver (queries, commits)",
    "redis": "the Redis client",
    "threads": "gunicorn's other thread, meanwhile",
}
PARTS = tuple(NAMES)
