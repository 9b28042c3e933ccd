"""What drawing a table costs in each game: ``.venv/bin/python tests/bench/bench_draw.py``.

bench_moves.py times whole requests of three games; this one times only the
drawing a move's answer and a drawn poll do (``games.views.play._render``:
the table's context and its ``_table.html``), in all five games, so a change
to the presenters or the templates shows apart from the database, Redis and
the middleware. Each game is played by its engine's bots through
``services.play`` (no computer seats), and after every move each seat's page
is drawn, timed by kind:

- ``turn``: a pupil the game waits on (their forms, the page a move answers);
- ``other``: a pupil it does not wait on, drawn for them alone;
- ``watchers``: the page all watchers share (games.watching), drawn once;
- ``context``: ``table_context`` alone, for the pupil whose turn it is.

Times are the process's CPU time (``--wall`` for the clock's), queries
included, the table's loading not.

The database and Redis are bench_load.py's (``NUMBO_BENCH_DB``,
``NUMBO_BENCH_REDIS_DB``): recreated and flushed. Named bench_* so pytest skips it.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
ROOT = BENCH_DIR.parents[1]
# (game, options, pupils at the table)
GAMES = {
    "numberquest": ({"preset": "classic"}, 4),
    "ultimes": ({}, 3),
    "nmbr9": ({}, 4),
    "nambarz": ({}, 4),
    "numx": ({}, 4),
}


def child(args) -> None:
    sys.path[:0] = [str(ROOT), str(BENCH_DIR)]
    import django

    django.setup()
    from django.db import connection
    from django.template.loader import render_to_string
    from django.test import RequestFactory
    from django.test.utils import CaptureQueriesContext
    from django.utils import translation

    from classroom.models import Classroom, Pupil, Teacher
    from games import seating, services
    from games.models import Table
    from games.pages import presenter
    from games.views import play
    from games.views.tables import table_context

    translation.activate(args.language)
    # CPU time by default: the host is shared, and CPU is what issue 15 counts.
    clock = time.perf_counter if args.wall else time.process_time
    teacher = Teacher.objects.create_user("draw@school.test", "correct-horse-draw")
    factory = RequestFactory()
    samples: dict[tuple[str, str], list[float]] = defaultdict(list)
    queries: dict[tuple[str, str], list[int]] = defaultdict(list)
    sizes: dict[tuple[str, str], list[int]] = defaultdict(list)
    profiler = cProfile.Profile() if args.profile else None
    nodes: dict[tuple[str, int, str], float] = defaultdict(float)
    fragment_counts = _count_fragments() if args.fragments else None
    if args.nodes:
        _time_nodes(nodes)

    def timed(game: str, kind: str, draw) -> str:
        profiling = args.profile == f"{game}:{kind}"
        _NODES_ON[0] = profiling and args.nodes
        profiling = profiling and profiler is not None
        with CaptureQueriesContext(connection) as captured:
            if profiling:
                profiler.enable()
            started = clock()
            html = draw()
            seconds = clock() - started
            if profiling:
                profiler.disable()
        samples[game, kind].append(seconds)
        queries[game, kind].append(len(captured.captured_queries))
        if isinstance(html, str):
            sizes[game, kind].append(len(html))
        return html

    def fresh(pk: int) -> Table:
        table = Table.objects.select_related("session").get(pk=pk)
        seating.load(table)
        return table

    for game in args.games:
        options, size = GAMES[game]
        classroom = Classroom.objects.create(teacher=teacher, name=game)
        pupils = [
            Pupil.objects.create(classroom=classroom, first_name=f"{game[:6]}{i}", initial="B",
                                 avatar="cat", picture_password="sun,moon,star")
            for i in range(size)
        ]
        session = services.start_session(classroom, teacher, game=game, options=options,
                                         pupils=pupils, table_size=size, seed=args.seed)
        pk = Table.objects.get(session=session).pk
        shown = presenter(game)
        for _turn in range(args.turns):
            table = fresh(pk)
            state = shown.engine.from_json(table.state)
            if shown.engine.result(state) is not None:
                break
            seats = {s.player: s.pupil for s in table.seats.all() if s.pupil_id}
            waiting = sorted(p for p in shown.waiting_on(state) if p in seats)
            for player, pupil in seats.items():
                request = factory.get(f"/tables/{pk}/poll/")
                request.pupil = pupil
                request.htmx = True
                kind = "turn" if player in waiting else "other"
                for _repeat in range(args.repeat):
                    # Loaded before the clock starts: the request's one query is not drawing.
                    loaded = fresh(pk)
                    timed(game, kind, lambda r=request, t=loaded, p=pupil: play._render(
                        r, t, p, partial=True).content.decode())
                if kind == "turn":
                    loaded = fresh(pk)
                    timed(game, "context", lambda t=loaded, n=player, p=pupil: table_context(
                        t, player=n, pupil=p))
            if any(shown.watching(table, state, p) for p in seats):
                request = factory.get(f"/tables/{pk}/poll/")
                request.pupil = next(iter(seats.values()))

                loaded = fresh(pk)

                def watchers(t=loaded, r=request, name=f"games/{game}/_table.html") -> str:
                    context = table_context(t, player=None, pupil=r.pupil, for_watchers=True)
                    return render_to_string(name, context, r)

                timed(game, "watchers", watchers)
            if not waiting:
                break
            player = waiting[0]
            moves = shown.bot_moves(state, player, "greedy", table.version)[:3]
            if not moves:
                break
            for move in moves:
                version = fresh(pk).version
                outcome = services.play(pk, seats[player], move, version,
                                        f"d{time.perf_counter_ns()}")
                if outcome.status != "applied":
                    break
    print(f"{'game':<13}{'kind':<10}{'n':>5}{'median ms':>11}{'p90 ms':>9}{'queries':>9}"
          f"{'kB':>7}")
    for (game, kind), values in samples.items():
        kept = sorted(values)
        size = statistics.median(sizes[game, kind]) / 1000 if sizes[game, kind] else 0
        print(f"{game:<13}{kind:<10}{len(kept):>5}{statistics.median(kept) * 1000:>11.2f}"
              f"{kept[int(len(kept) * 0.9)] * 1000:>9.2f}"
              f"{statistics.median(queries[game, kind]):>9.0f}{size:>7.1f}")
    if fragment_counts is not None:
        print("\nFragments ({% drawn %}): served kept / drawn")
        for name, (hits, misses) in sorted(fragment_counts.items()):
            print(f"{hits:>8} / {misses:<8}{name}")
    if nodes:
        print("\nTemplate nodes by time, nested ones counted in their parents too (ms a draw):")
        draws = len(samples[tuple(args.profile.split(":"))])
        for (name, line, source), seconds in sorted(nodes.items(), key=lambda i: -i[1])[:45]:
            print(f"{seconds * 1000 / draws:8.3f}  {name}:{line}  {source[:90]}")
    if profiler is not None and not args.nodes:
        out = io.StringIO()
        stats = pstats.Stats(profiler, stream=out).sort_stats("cumulative")
        stats.print_stats(70)
        stats.sort_stats("tottime").print_stats(40)
        print(out.getvalue())


_NODES_ON = [False]


def _count_fragments() -> dict[str, list[int]]:
    """Counts, per fragment template, the draws served kept and drawn anew."""
    from games.pages import base
    from games.templatetags import drawn

    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    plain = base.drawn_fragment

    def counted(key, draw):
        counts[key[1]][0 if key in base._fragments else 1] += 1
        return plain(key, draw)

    drawn.drawn_fragment = counted
    return counts


def _time_nodes(nodes) -> None:
    """Times each template node (by template and line) while the profiled kind draws."""
    from django.template.base import Node

    plain = Node.render_annotated

    def render_annotated(self, context):
        if not _NODES_ON[0] or self.token is None:
            return plain(self, context)
        started = time.perf_counter()
        try:
            return plain(self, context)
        finally:
            origin = getattr(self, "origin", None)
            name = getattr(origin, "template_name", "?") or "?"
            nodes[name, self.token.lineno, self.token.contents] += time.perf_counter() - started

    Node.render_annotated = render_annotated


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--games", nargs="+", choices=list(GAMES), default=list(GAMES))
    parser.add_argument("--turns", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=2, help="draws of each seat's page")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--language", default="en")
    parser.add_argument("--profile", metavar="GAME:KIND")
    parser.add_argument("--fragments", action="store_true",
                        help="count the fragments served kept and drawn anew")
    parser.add_argument("--wall", action="store_true", help="wall-clock time, not CPU time")
    parser.add_argument("--nodes", action="store_true",
                        help="with --profile: time the template's nodes instead")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    sys.path.insert(0, str(BENCH_DIR))
    import bench_load

    return bench_load.child_or_fresh_setup(__file__, args, child, collectstatic=False)


if __name__ == "__main__":
    sys.exit(main())
