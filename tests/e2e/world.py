"""A class in the middle of its games, for the tests that read every page:
one game of each kind under way and one of each kind that the teacher ended,
with tokens, pawns, tiles and cards on the boards, a whole-class NMBR 9, a
class report with evidence and a prepared export. Léa plays in every game.
The teacher is their school's administrator, with a colleague, an e-mail
invitation and a school code waiting: the school's pages are read too."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from classroom.models import Attempt, Pupil, ReportJob, Teacher
from classroom.reports import jobs
from engine.nmbr9 import bot_moves
from games import services
from games.models import GameSession, Table
from games.pages import engine_of
from school import invitations
from school.models import Invitation, School

GAMES = ["numberquest", "ultimes", "nmbr9", "nambarz", "numx"]
SKILLS = ("add", "sub", "mul", "div", "brackets", "multi_step", "primes", "powers")


@dataclass
class World:
    classroom: object
    teacher: object
    pupil: Pupil  # Léa: at every table
    sessions: list[GameSession] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    jobs: list[ReportJob] = field(default_factory=list)
    school_jobs: list[ReportJob] = field(default_factory=list)  # its school's report
    # game slug -> (table under way, table the teacher ended)
    boards: dict[str, tuple[Table, Table]] = field(default_factory=dict)
    invitations: list[Invitation] = field(default_factory=list)


def _midgame(table: Table, game: str) -> None:
    """Pieces on the board, as a game a few turns in has them."""
    engine = engine_of(game)
    state = engine.from_json(table.state)
    if game == "numberquest":
        squares = [s for s in range(state.variant.lo, state.variant.hi + 1)][3:40:3]
        state = replace(state, covered=tuple(
            (square, i % state.players) for i, square in enumerate(squares)
        ))
    elif game == "ultimes":
        state = replace(state, positions=tuple(12 + 25 * p for p in range(state.players)))
    elif game == "nmbr9":
        for card in range(6):
            for player in range(state.players):
                for move in bot_moves(state, player, seed=card):
                    state = engine.apply(state, player, move).state
    table.state = state.to_json()
    table.save(update_fields=["state"])


def build_world(classroom, teacher, pupils: list[Pupil]) -> World:
    """The world of ``classroom``; ``pupils``: Léa first. A fourth pupil
    joins when there are three: Number Quest's table of four shows every
    player's colour."""
    lea = pupils[0]
    if len(pupils) < 4:
        pupils = [*pupils, Pupil.objects.create(
            classroom=classroom, first_name="Jade", initial="R", avatar="owl",
            picture_password="boat,cloud,heart",
        )]
    world = World(classroom=classroom, teacher=teacher, pupil=lea)
    for game in GAMES:
        players = pupils[:4] if game == "numberquest" else pupils[:2]
        ended = []
        for end in (False, True):
            session = services.start_session(
                classroom, teacher, game=game, options={}, pupils=players,
                table_size=len(players), seating={p.pk: 1 for p in players}, seed=3,
            )
            table = session.tables.get()
            _midgame(table, game)
            if end:
                services.set_status(session, GameSession.Status.ENDED)
            table.refresh_from_db()
            world.sessions.append(session)
            world.tables.append(table)
            ended.append(table)
        world.boards[game] = (ended[0], ended[1])
    whole = services.start_session(
        classroom, teacher, game="nmbr9", options={}, pupils=pupils, table_size=1,
        whole_class=True, seed=2,
    )
    world.sessions.append(whole)
    world.tables.append(whole.tables.get(seats__pupil=lea))
    first = world.sessions[0]
    Attempt.objects.bulk_create(
        Attempt(pupil=pupil, session=first, table=world.tables[0], game="numberquest",
                skill=skill, operands=[3, 4], expected="7", given="7" if n % 4 else "8",
                correct=bool(n % 4))
        for pupil in pupils[:2] for skill in SKILLS for n in range(8)
    )  # fmt: skip
    report, _ = jobs.request_job(teacher, classroom, ReportJob.Kind.CLASS_MASTERY, send_task=False)
    assert jobs.run_job(report.pk) == "done"
    export, _ = jobs.request_job(
        teacher, classroom, ReportJob.Kind.EXPORT, {"format": "csv", "language": "en"},
        send_task=False,
    )
    assert jobs.run_job(export.pk) == "done"
    world.jobs.append(export)
    _school_of(world)
    # The administrator's school report, built: its pages and files are read.
    school_report, _ = jobs.request_job(
        teacher, None, ReportJob.Kind.SCHOOL, send_task=False, school=teacher.school
    )
    assert jobs.run_job(school_report.pk) == "done"
    world.school_jobs.append(school_report)
    return world


def _school_of(world: World) -> None:
    teacher = world.teacher
    teacher.school = School.objects.create(name="École des Tilleuls")
    teacher.role = Teacher.Role.ADMIN
    teacher.save(update_fields=["school", "role"])
    colleague = Teacher.objects.create_user(
        "colleague@school.test", "a-long-pass-phrase-9", display_name="Mme Roux",
        school=teacher.school,
    )
    world.classroom.co_teachers.add(colleague)
    world.invitations.append(invitations.invite_by_email(
        teacher.school, "invited@school.test", Teacher.Role.MATHS_LEAD, teacher,
        lambda token: f"/school/join/{token}/",
    ))
    world.invitations.append(
        invitations.make_code(teacher.school, Teacher.Role.TEACHER, 30, 7, teacher)
    )
