"""Soak the five games with the load bench's pupils: whole games, to their end.

``nice -n 19 .venv/bin/python tests/bench/soak_games.py [--minutes 10] [--games nambarz numx]
[--only nambarz:3] [--seeds 3]``

In process, with the Django test client: every human seat is a signed-in
tablet whose mind (tests/bench/load_pupils.py) reads only the pupil's own
page and posts the tap the page offers; computer seats move through
``services.advance`` (the bot pause set to 0); whole-class NMBR 9's teacher
turns the cards through the real "next card" view. At each step, for the
seats the game waits on, the pupil's page is read, the mind asked, the tap
posted. Recorded, with the seed and options that reproduce it:

- ``stuck``: the engine has moves for a player it waits on, but the page
  offers no form or button of those move types (the mind returns None);
- ``mind_none``: the page offers such a form, and the mind read nothing in it
  (a mind that misreads a page, not a game defect);
- ``no_moves``: the presenter waits on a player the engine gives no move;
- ``no_progress``: many taps in a row and the table's version did not move;
- ``http_5xx`` / ``exception``;
- ``refused_repeatedly``: the same tap type refused 3 times in a row;
- ``hidden_card``: a card of another pupil's hand, of the pile, or a face-down
  score card, in a pupil's bytes (Nambarz, NUM-X; pages, move answers, polls,
  and the teacher's live view and projector);
- ``never_ends``: the game is not over after the tap budget.

Run it with its own database and Redis db, e.g.
``DATABASE_URL=postgres://postgres@127.0.0.1:5432/numbo_soak
REDIS_URL=redis://127.0.0.1:6379/11 CELERY_TASK_ALWAYS_EAGER=1``. ``--first 1
--seeds 5 --minutes 19`` played 131 whole games (15,034 taps) to their end:
no issue of any kind. The detector was checked against the template before
a493baf (a replay joker laid as the last card): it reports ``stuck`` with
the engine offering ``draw`` and the page offering nothing.

Named soak_* so pytest does not collect it. Its database and Redis are the
environment's (DATABASE_URL, REDIS_URL); it migrates the database and empties
the cache at start. Each game's moves are written to ``--out`` when an issue
is found, with the state at the time.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import sys
import time
import traceback
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
ROOT = BENCH_DIR.parents[1]
sys.path[:0] = [str(ROOT), str(BENCH_DIR)]
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

HTMX = {"HTTP_HX_REQUEST": "true"}
RE_TYPE_FIELD = re.compile(r'name="type" value="(\w+)"')
RE_TYPE_VALS = re.compile(r'"type": "(\w+)"')
RE_NOTE_ERROR = re.compile(r'<p class="note error"[^>]*>([^<]*)<')
RE_POLL = re.compile(r'hx-get="([^"]+/poll/[^"]+)"')
RE_NZ_CARD = re.compile(r'data-card="(\d+)"')
RE_SHOWN = re.compile(r'name="shown" value="(\d+)"')


# --------------------------------------------------------------------------- the runs


@dataclass
class Run:
    game: str
    options: dict
    humans: int
    size: int  # players at the table (humans + computers)
    seed: int
    bot_level: str = ""
    tablets: str = "own"
    team_size: int = 1
    whole_class: bool = False
    cap: int = 3000  # taps before the game "never ends"

    @property
    def label(self) -> str:
        parts = [self.game, f"seed={self.seed}", f"humans={self.humans}", f"size={self.size}"]
        if self.bot_level:
            parts.append(f"bots={self.bot_level}")
        if self.tablets != "own":
            parts.append(f"tablets={self.tablets}")
        if self.team_size > 1:
            parts.append(f"team_size={self.team_size}")
        if self.whole_class:
            parts.append("whole_class")
        parts.append(json.dumps(self.options, sort_keys=True))
        return " ".join(parts)


def plan(seeds: int, first: int = 0) -> dict[str, list[Run]]:
    """Every game's runs, seeds and options spread over table sizes."""
    runs: dict[str, list[Run]] = defaultdict(list)
    presets = ["addition-3", "addition", "plus-minus", "three-dice", "classic"]
    for s in range(first, first + seeds):
        for i, preset in enumerate(presets):
            seed = 100 + 10 * s + i
            size = 2 + (s + i) % 3
            bank = {} if (s + i) % 2 else {"pupils_bank": (s + i) % 4 == 0}
            options = {"preset": preset, "second_chance": bool((s + i) % 3 == 0), **bank}
            if preset == "classic" and s % 2:
                options["end_conditions"] = ["each_colour"]
            runs["numberquest"].append(Run("numberquest", options, size, size, seed))
            if i % 2 == 0:  # against the computer: one pupil, computers to 2-4
                runs["numberquest"].append(Run(
                    "numberquest", {"preset": preset}, 1, size, seed + 5,
                    bot_level=("beginner", "greedy", "strategist")[(s + i) % 3]))
        for size in (2, 3, 4):
            seed = 200 + 10 * s + size
            marks = [{}, {"mark_ultimates": True}, {"mark_ultimates": True,
                                                   "mark_elevated": True}][(s + size) % 3]
            runs["ultimes"].append(Run("ultimes", {"second_chance": bool(s % 2), **marks},
                                       size, size, seed))
        runs["ultimes"].append(Run("ultimes", {}, 1, 2 + s % 3, 250 + s, bot_level="greedy"))
        for size in (1, 2, 3, 4):
            seed = 300 + 10 * s + size
            board = (None, 12, 16, None)[(s + size) % 4]
            options = {"second_chance": bool(s % 2)} | ({"board": board} if board else {})
            runs["nmbr9"].append(Run("nmbr9", options, size, size, seed, cap=200 * size))
        runs["nmbr9"].append(Run("nmbr9", {"board": (12, 16)[s % 2]}, 1, 2, 350 + s,
                                 bot_level="greedy", cap=400))
        runs["nmbr9"].append(Run("nmbr9", {"board": (16, 12, 20)[s % 3]}, 4 + s % 3, 1, 360 + s,
                                 whole_class=True, cap=1500))
        for size in (2, 3, 4, 5):
            seed = 400 + 10 * s + size
            options = {
                "rounds": (1, 3, 5)[(s + size) % 3],
                "jokers": (12, 8, 4)[(s + size) % 3 if s % 2 else (size % 3)],
                "brackets": bool((s + size) % 2),
                "young": (s + size) % 4 == 3,
            }
            if size == 4 and s % 2:
                options["teams"] = True  # an engine option the start form does not offer
            runs["nambarz"].append(Run("nambarz", options, size, size, seed, cap=4000))
        runs["nambarz"].append(Run("nambarz", {"rounds": 1, "jokers": 12}, 1, 2 + s % 3, 450 + s,
                                   bot_level="greedy"))
        for size in (2, 3, 4):
            seed = 500 + 10 * s + size
            mode = ("speed_run", "x_game", "family")[(s + size) % 3]
            runs["numx"].append(Run("numx", {"mode": mode}, size, size, seed))
        runs["numx"].append(Run("numx", {"mode": ("speed_run", "x_game", "family")[s % 3],
                                         "teams": [[0, 2], [1, 3]]}, 4, 4, 540 + s))
        runs["numx"].append(Run("numx", {"mode": ("x_game", "speed_run")[s % 2]}, 1, 2 + s % 3,
                                550 + s, bot_level="greedy"))
        # Shared tablets (one tablet passed round) and teams (pupils per seat).
        runs["numberquest"].append(Run("numberquest", {"preset": "plus-minus"}, 3, 3, 130 + s,
                                       tablets="shared"))
        runs["numberquest"].append(Run("numberquest", {"preset": "addition"}, 2, 2, 135 + s,
                                       team_size=2))
        runs["ultimes"].append(Run("ultimes", {}, 2, 2, 260 + s, tablets="shared"))
        runs["nambarz"].append(Run("nambarz", {"rounds": 3, "jokers": 8}, 3, 3, 460 + s,
                                   tablets="shared"))
        runs["nambarz"].append(Run("nambarz", {"rounds": 1, "jokers": 4}, 2, 2, 465 + s,
                                   team_size=2))
        runs["numx"].append(Run("numx", {"mode": ("family", "x_game")[s % 2]}, 3, 3, 560 + s,
                                tablets="shared"))
        runs["numx"].append(Run("numx", {"mode": "speed_run"}, 2, 2, 565 + s, team_size=2))
    return runs


# --------------------------------------------------------------------------- the soak


@dataclass
class Soak:
    out: Path
    issues: list = field(default_factory=list)
    stats: dict = field(default_factory=lambda: defaultdict(Counter))
    refusals: Counter = field(default_factory=Counter)
    repeats: Counter = field(default_factory=Counter)

    def issue(self, run: Run, kind: str, table=None, key=None, **details) -> None:
        """Recorded once per game and kind (and ``key``): the others are counted."""
        seen = (run.label, kind, key)
        self.repeats[seen] += 1
        if self.repeats[seen] > 1:
            return
        record = {"kind": kind, "run": run.label, "key": key, **details}
        if table is not None:
            table.refresh_from_db()
            record["table"] = table.pk
            record["version"] = table.version
            dump = self.out / f"{run.game}-{run.seed}-{table.pk}.json"
            moves = list(table.moves.order_by("number").values_list(
                "number", "player", "pupil_id", "move"))
            dump.write_text(json.dumps({"run": run.label, "state": table.state,
                                        "moves": moves}, default=str))
            record["dump"] = str(dump)
        self.issues.append(record)
        short = {k: (v[:300] if isinstance(v, str) else v) for k, v in record.items()}
        print("  ISSUE", json.dumps(short, default=str)[:900], flush=True)


class Tablet:
    def __init__(self, client, pupil, player, mind):
        self.client, self.pupil, self.player, self.mind = client, pupil, player, mind
        self.refused_in_a_row: list[str] = []


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--games", nargs="+",
                        default=["numberquest", "ultimes", "nmbr9", "nambarz", "numx"])
    parser.add_argument("--seeds", type=int, default=2, help="rounds of the plan")
    parser.add_argument("--first", type=int, default=0, help="the plan's first round")
    parser.add_argument("--minutes", type=float, default=10, help="no new game after this")
    parser.add_argument("--game-seconds", type=float, default=240, help="one game's wall time")
    parser.add_argument("--only", nargs="*", default=[], help="game:index of the plan")
    parser.add_argument("--check-every", type=int, default=4,
                        help="every pupil's page and poll checked every this many steps")
    parser.add_argument("--out", default="/tmp/numbo_soak")
    args = parser.parse_args()

    import django

    django.setup()
    from django.core.management import call_command
    from django.test.utils import setup_test_environment

    setup_test_environment(debug=False)
    call_command("migrate", verbosity=0)
    from django.core.cache import cache

    cache.clear()

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    soak = Soak(out)
    runs = plan(args.seeds, args.first)
    chosen = []
    if args.only:
        for item in args.only:
            game, index = item.split(":")
            chosen.append((game, int(index), runs[game][int(index)]))
    else:
        # Interleaved, so that a budget that runs out leaves every game played.
        longest = max(len(runs[g]) for g in args.games)
        for index in range(longest):
            for game in args.games:
                if index < len(runs[game]):
                    chosen.append((game, index, runs[game][index]))
    started = time.monotonic()
    for game, index, run in chosen:
        if time.monotonic() - started > args.minutes * 60:
            print(f"budget spent: {len(chosen)} planned, stopping", flush=True)
            break
        print(f"[{game}:{index}] {run.label}", flush=True)
        t0 = time.monotonic()
        try:
            result = play_run(run, soak, args)
        except Exception:  # noqa: BLE001 - a soak records and goes on
            soak.issue(run, "exception", trace=traceback.format_exc())
            result = "exception"
        soak.stats[game]["games"] += 1
        soak.stats[game][result] += 1
        print(f"  -> {result} in {time.monotonic() - t0:.1f}s "
              f"({soak.stats[game]['taps_last']} taps)", flush=True)
    report(soak)
    return 0


def report(soak: Soak) -> None:
    print("\n=== summary")
    for game, counts in soak.stats.items():
        shown = {k: v for k, v in counts.items() if k != "taps_last"}
        print(f"{game:<12} {json.dumps(dict(sorted(shown.items())))}")
    print("\n=== refusals (game, tap type, note): count")
    for key, count in soak.refusals.most_common(40):
        print(f"{count:>6}  {key}")
    print(f"\n=== issues: {len(soak.issues)}")
    for kind, count in Counter(i["kind"] for i in soak.issues).most_common():
        print(f"{count:>6}  {kind}")
    (soak.out / "issues.json").write_text(json.dumps(soak.issues, indent=1, default=str))


# --------------------------------------------------------------------------- one game


_classroom_counter = [0]


def play_run(run: Run, soak: Soak, args) -> str:
    import load_pupils
    from django.test import Client
    from django.urls import reverse

    from classroom.models import Classroom, Pupil, Teacher
    from games import services
    from games.models import Table
    from games.pages import presenter
    from games.pages.nmbr9.presenter import card_gated
    from tests.conftest import tap_pictures

    services.BOT_PAUSE = timedelta(0)
    random.seed(run.seed)
    _classroom_counter[0] += 1
    number = _classroom_counter[0]
    teacher = Teacher.objects.create_user(f"soak{number}-{time.time_ns()}@school.test",
                                          "correct-horse-soak")
    classroom = Classroom.objects.create(teacher=teacher, name=f"Soak {number}")
    pictures = ["sun,moon,star", "tree,fish,house", "car,apple,flower"]
    count = run.humans * run.team_size
    pupils = [
        Pupil.objects.create(classroom=classroom, first_name=f"P{i}x{number}", initial="S",
                             avatar="cat", picture_password=pictures[i % 3])
        for i in range(count)
    ]
    shown = presenter(run.game)
    engine = shown.engine
    session = services.start_session(
        classroom, teacher, game=run.game, options=run.options, pupils=pupils,
        table_size=run.size, tablets=run.tablets, bot_level=run.bot_level,
        seating=None if run.whole_class else {p.pk: 1 for p in pupils}, seed=run.seed,
        whole_class=run.whole_class, team_size=run.team_size,
    )
    tables = list(session.tables.order_by("number"))
    tablets: dict[int, list[Tablet]] = {}  # table pk -> its tablets
    for table in tables:
        found = []
        shared = None
        for seat in table.seats.select_related("pupil").order_by("player", "pk"):
            if seat.pupil_id is None:
                continue
            if shared is None:
                client = Client()
                answer = tap_pictures(client, seat.pupil, seat.pupil.password_pictures)
                assert answer.status_code == 302, "could not sign in"
                if run.tablets == "shared":
                    shared = client  # the one tablet the table passes round
            else:
                client = shared
            found.append(Tablet(client, seat.pupil, seat.player,
                                load_pupils.mind_for(run.game)))
        tablets[table.pk] = found
    teacher_client = Client()
    teacher_client.force_login(teacher)

    taps = 0
    still = Counter()  # table pk -> taps in a row that moved nothing
    step = 0
    began = time.monotonic()
    result = "over"
    ongoing = {t.pk for t in tables}
    while ongoing:
        step += 1
        if taps >= run.cap:
            for pk in ongoing:
                soak.issue(run, "never_ends", Table.objects.get(pk=pk), taps=taps)
            result = "never_ends"
            break
        if time.monotonic() - began > args.game_seconds:
            result = "out_of_time"
            print(f"  game wall time spent after {taps} taps", flush=True)
            break
        moved_any = False
        for pk in sorted(ongoing):
            table = Table.objects.select_related("session").get(pk=pk)
            state = engine.from_json(table.state)
            if engine.result(state) is not None:
                ongoing.discard(pk)
                moved_any = True
                continue
            seats = {s.player: s for s in table.seats.all()}
            humans = {p for p, s in seats.items() if s.pupil_id}
            bots = {p for p, s in seats.items() if not s.pupil_id}
            waiting = shown.waiting_on(state)
            # The computers first (a bystander Rainbow too), as the polls make them.
            if bots and (waiting & bots or run.game == "numx"):
                before = table.version
                services.advance(pk)
                table.refresh_from_db()
                if table.version != before:
                    moved_any = True
                    continue
            asked = sorted(waiting & humans)
            if run.whole_class:
                asked = [p for p in asked if not card_gated(table, state, p)]
            if run.tablets == "shared":
                # The tablet shows the page of the pupil whose turn it is.
                now = shown.current(state)
                asked = [now] if now in asked else asked[:1]
            # Bystanders who may add a Rainbow (NUM-X): the page must offer it.
            extra = []
            if run.game == "numx" and state.phase == "play":
                extra = [p for p in sorted(humans - waiting)
                         if engine.moves(state, p) and random.random() < 0.7]
            if step % args.check_every == 0 and run.game in ("nambarz", "numx"):
                check_every_page(run, soak, table, tablets[pk], engine)
                check_teacher(run, soak, table, teacher_client, engine)
            if not asked and not extra:
                continue
            for player in asked + extra:
                team = [t for t in tablets[pk] if t.player == player]
                if not team:
                    continue
                # Any member of a team may tap for the seat.
                tablet = random.choice(team) if run.team_size > 1 else team[0]
                outcome = tap(run, soak, table, tablet, engine, shown, player)
                if outcome == "none":
                    continue
                taps += 1
                moved_any = True  # a tap was posted: no_progress watches the rest
                if outcome in ("applied", "wrong"):
                    still[pk] = 0
                else:
                    still[pk] += 1
                if still[pk] >= 12:
                    soak.issue(run, "no_progress", table, player=player)
                    ongoing.discard(pk)
                    result = "no_progress"
                    break
                table = Table.objects.select_related("session").get(pk=pk)
                state = engine.from_json(table.state)
        # Everyone has placed the card turned, or now and then before (some
        # pupils lag): the teacher turns the next one.
        if run.whole_class and ongoing and (not moved_any or random.random() < 0.15):
            page = teacher_client.get(reverse("games:session_cards", args=[session.pk]))
            if page.status_code >= 500:
                soak.issue(run, "http_5xx", url="session_cards", status=page.status_code)
            shown_now = RE_SHOWN.search(page.content.decode())
            if shown_now:
                answer = teacher_client.post(
                    reverse("games:session_next_card", args=[session.pk]),
                    {"shown": shown_now.group(1)}, **HTMX)
                if answer.status_code >= 500:
                    soak.issue(run, "http_5xx", url="session_next_card",
                               status=answer.status_code)
                session.refresh_from_db()
                # A card turned is progress; none left to turn is not.
                moved_any = moved_any or session.cards_shown > int(shown_now.group(1))
        if not moved_any and ongoing:
            for pk in ongoing:
                table = Table.objects.get(pk=pk)
                state = engine.from_json(table.state)
                soak.issue(run, "nobody_moves", table,
                           waiting=sorted(shown.waiting_on(state)),
                           moves={p: engine.moves(state, p) for p in range(state.players)})
            result = "nobody_moves"
            break
    soak.stats[run.game]["taps"] += taps
    soak.stats[run.game]["taps_last"] = taps
    # One last look at every page: the end must be drawn without error.
    for table in tables:
        for tablet in tablets[table.pk]:
            page = tablet.client.get(reverse("games:table_play", args=[table.pk]))
            if page.status_code >= 500:
                soak.issue(run, "http_5xx", table, url="table_play (end)")
    return result


def offered_types(html: str) -> set[str]:
    """The move types the page's forms and buttons post."""
    found = set(RE_TYPE_FIELD.findall(html)) | set(RE_TYPE_VALS.findall(html))
    if '<form class="nz-play"' in html and re.search(
            r'<button type="button" class="ncard[^"]*"[^>]*data-card="\d+"(?![^>]*disabled)', html):
        found |= {"match", "joker", "calculate"}
    if 'id="n9-place-data"' in html:
        found.add("place")
    return found


def tap(run, soak, table, tablet, engine, shown, player) -> str:
    """The pupil's page read, the mind's tap posted: 'applied', 'wrong',
    'refused', 'stale', 'other' or 'none'."""
    import load_pupils
    from django.urls import reverse

    state = engine.from_json(table.state)
    try:
        page = tablet.client.get(reverse("games:table_play", args=[table.pk]))
    except Exception:  # noqa: BLE001
        soak.issue(run, "exception", table, url="table_play", trace=traceback.format_exc())
        return "other"
    if page.status_code >= 500:
        soak.issue(run, "http_5xx", table, url="table_play", status=page.status_code)
        return "other"
    html = page.content.decode()
    check_hidden(run, soak, table, state, tablet.player, html, "page", tablet.pupil)
    move = tablet.mind.next_tap(load_pupils.Page.read(page.content))
    if move is None:
        kinds = {m.get("type") for m in engine.moves(state, player)}
        offered = offered_types(html)
        if not kinds:
            if player in shown.waiting_on(state):
                soak.issue(run, "no_moves", table, player=player)
            return "none"
        if not kinds & offered:
            soak.issue(run, "stuck", table, key=tuple(sorted(kinds)), player=player,
                       engine_moves=sorted(kinds),
                       offered=sorted(offered), page=_table_part(html))
        else:
            soak.issue(run, "mind_none", table, key=tuple(sorted(kinds)), player=player,
                       engine_moves=sorted(kinds),
                       offered=sorted(offered), page=_table_part(html))
        return "none"
    before = table.version
    try:
        answer = tablet.client.post(reverse("games:table_move", args=[table.pk]), move, **HTMX)
    except Exception:  # noqa: BLE001
        soak.issue(run, "exception", table, url="table_move", move=move,
                   trace=traceback.format_exc())
        return "other"
    if answer.status_code >= 500 or answer.status_code != 200:
        soak.issue(run, "http_5xx" if answer.status_code >= 500 else "http_other", table,
                   url="table_move", status=answer.status_code, move=move)
        return "other"
    text = answer.content.decode()
    table.refresh_from_db()
    after = engine.from_json(table.state)
    check_hidden(run, soak, table, after, tablet.player, text, "answer", tablet.pupil)
    if table.version > before:
        tablet.refused_in_a_row = []
        return "wrong" if 'class="feedback wrong"' in text else "applied"
    if "The game moved on" in text:
        return "stale"
    notes = RE_NOTE_ERROR.findall(text)
    said = notes[0] if notes else "(no note)"
    soak.refusals[(run.game, move.get("type"), said)] += 1
    if soak.refusals[(run.game, move.get("type"), said)] == 1:
        print(f"  first refusal: {move.get('type')}: {said}", flush=True)
    tablet.refused_in_a_row.append(move.get("type"))
    if len(tablet.refused_in_a_row) == 3 and len(set(tablet.refused_in_a_row)) == 1:
        soak.issue(run, "refused_repeatedly", table, key=move.get("type"), player=player,
                   move=move, notes=notes, page=_table_part(text))
    return "refused"


def _table_part(html: str) -> str:
    start = html.find('<div id="table"')
    return html[start:start + 6000] if start >= 0 else html[:6000]


# --------------------------------------------------------------------------- hidden cards


def hidden_cards(game: str, state, viewer: int | None) -> dict[str, str]:
    """The cards ``viewer`` must not see, by id, with where each is."""
    hidden: dict[str, str] = {}
    if game == "nambarz":
        for player, hand in enumerate(state.hands):
            if player != viewer:
                hidden |= {str(c): f"hand of {player}" for c in hand}
        hidden |= {str(c): "pile" for c in state.pile}
    elif game == "numx":
        from engine.numx.cards import CARDS

        for player, hand in enumerate(state.hands):
            if player != viewer:
                hidden |= {c: f"hand of {player}" for c in hand}
        hidden |= {c: "pile" for c in state.pile}
        revealed = state.phase in ("count", "over")  # the count turns every row up
        for player, row in enumerate(state.rows if not revealed else ()):
            hidden |= {c: f"face down in row {player}" for c, up in row if not up}
        if state.phase == "choose":
            for player, chosen in enumerate(state.chosen):
                if player != viewer and chosen in CARDS:
                    hidden[chosen] = f"secret choice of {player}"
        hidden.pop("numx", None)  # the card's id is also the game's name in every page
    return hidden


def numx_name(card: str) -> str | None:
    found = re.fullmatch(r"(blue|red|yellow|green|rainbow|shadow)(\d+)", card)
    if not found:
        return None
    colour = found.group(1)
    return f"{colour.capitalize() if colour in ('rainbow', 'shadow') else colour} {found.group(2)}"


def leaked(game: str, html: str, hidden: dict[str, str]) -> list[tuple[str, str, str]]:
    found = []
    if game == "nambarz":
        for card in set(RE_NZ_CARD.findall(html)) & set(hidden):
            found.append((card, hidden[card], "data-card"))
    else:
        for card, where in hidden.items():
            if re.search(rf'(?<![A-Za-z0-9]){card}(?![0-9])', html):
                found.append((card, where, "id"))
            name = numx_name(card)
            if name and f'aria-label="{name}"' in html:
                found.append((card, where, f'aria-label="{name}"'))
    return found


def check_hidden(run, soak, table, state, viewer, html, what, pupil=None) -> None:
    if run.game not in ("nambarz", "numx"):
        return
    if pupil is not None:
        from games import services

        viewer = services.player_for(table, pupil, state)  # a shared tablet: whose turn it is
    hidden = hidden_cards(run.game, state, viewer)
    found = leaked(run.game, html, hidden)
    if found:
        excerpts = []
        for card, _where, how in found[:3]:
            needle = card if how in ("id", "data-card") else how
            at = html.find(f'data-card="{card}"' if how == "data-card" else needle)
            excerpts.append(html[max(0, at - 300):at + 200])
        soak.issue(run, "hidden_card", table, key=(what, tuple(sorted({f[1].split(" of ")[0]
                   .split(" in ")[0] for f in found}))), viewer=viewer, what=what,
                   phase=getattr(state, "phase", None), pending=str(getattr(state, "pending", "")),
                   found=found, excerpts=excerpts)


def check_every_page(run, soak, table, tablets, engine) -> None:
    """Each pupil's page and poll: their hand, nothing of the others'."""
    from django.urls import reverse

    state = engine.from_json(table.state)
    for tablet in tablets:
        page = tablet.client.get(reverse("games:table_play", args=[table.pk]))
        if page.status_code >= 500:
            soak.issue(run, "http_5xx", table, url="table_play (check)")
            continue
        html = page.content.decode()
        check_hidden(run, soak, table, state, tablet.player, html, "page (check)",
                     tablet.pupil)
        poll = RE_POLL.search(html)
        if poll:
            url = poll.group(1).replace("&amp;", "&").split("&v=")[0]
            polled = tablet.client.get(url, **HTMX)
            if polled.status_code >= 500:
                soak.issue(run, "http_5xx", table, url="table_poll")
            elif polled.status_code == 200:
                check_hidden(run, soak, table, state, tablet.player, polled.content.decode(),
                             "poll", tablet.pupil)


def check_teacher(run, soak, table, teacher_client, engine) -> None:
    """The live view and the projector: no hand, no pile, nothing face down."""
    from django.urls import reverse

    state = engine.from_json(table.state)
    for name, pk in (("session_live", table.session_id), ("table_projector", table.pk)):
        page = teacher_client.get(reverse(f"games:{name}", args=[pk]))
        if page.status_code >= 500:
            soak.issue(run, "http_5xx", table, url=name)
            continue
        check_hidden(run, soak, table, state, None, page.content.decode(), name)


if __name__ == "__main__":
    sys.exit(main())
