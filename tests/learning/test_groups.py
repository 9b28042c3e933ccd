"""Groups for the next lesson, from the five pupils of the trust issue (and Finn,
who masters + and − and never met ×), and the tables proposed for them."""

from __future__ import annotations

from dataclasses import replace

from learning import groups, tally
from learning.table_plan import partners, plan
from tests.learning.test_profiles import ADA, BEN, CLEO, DAN, EVE, Pupil

OPS = ("add", "sub", "mul", "div")


def plus_minus(rng):
    return [rng.choice(("add", "sub")) for _ in range(3)]


class PlusMinusPupil(Pupil):
    """Plays the plus-and-minus game: × and ÷ could never help."""

    def records(self, seed: int = 1):
        attempts, chances = super().records(seed)
        return attempts, [c._replace(could={"add": True, "sub": True}) for c in chances]


FINN = PlusMinusPupil("Finn", plus_minus, lambda skill, n, rng: True)
CLASS = (ADA, BEN, CLEO, DAN, EVE, FINN)


def class_of(pupils=CLASS):
    found = {}
    for pupil in pupils:
        attempts, chances = pupil.records()
        mastery = tally.summarise(attempts, chances)[pupil.pupil_id]
        found[pupil.pupil_id] = (mastery.skills, mastery.avoidance)
    return found


def test_each_pupil_joins_the_group_of_their_most_pressing_need():
    found = groups.groups(class_of())
    members = {(g.skill, g.kind): {m.pupil_id: m.reason for m in g.members} for g in found}
    assert members == {
        ("add", "need"): {"Dan": "not_enough", "Eve": "needs_help"},
        ("sub", "need"): {"Cleo": "needs_help"},
        ("mul", "need"): {"Ben": "needs_help"},
        ("mul", "ready"): {"Finn": "ready"},
    }
    # Needs first, by the order of the operations; the ready groups after.
    assert [(g.skill, g.kind) for g in found] == [
        ("add", "need"), ("sub", "need"), ("mul", "need"), ("mul", "ready"),
    ]
    # Nobody twice; Ada, who masters everything, nowhere.
    seated = [m.pupil_id for g in found for m in g.members]
    assert len(seated) == len(set(seated)) and "Ada" not in seated


def test_each_member_says_why_in_the_reports_own_sentence():
    found = {(g.skill, g.kind): g for g in groups.groups(class_of())}
    why = {m.pupil_id: m.sentence for g in found.values() for m in g.members}
    pupils = class_of()
    assert why["Eve"] == pupils["Eve"][0]["add"].sentence
    assert why["Eve"].startswith("needs help: ")
    assert why["Dan"].startswith("not enough yet: ")
    assert why["Ben"] == pupils["Ben"][0]["mul"].sentence
    assert why["Finn"] == (
        "ready for multiplication: addition and subtraction mastered, no multiplication yet"
    )


def test_avoiding_comes_before_not_enough_and_after_needing_help():
    ben = class_of([BEN])["Ben"]
    assert [(n.skill, n.reason) for n in groups.needs(*ben)] == [
        ("mul", "needs_help"), ("div", "avoids"),
    ]
    assert groups.needs(*ben)[1].sentence == (
        "avoids division: has not divided in 48 turns where dividing would help"
    )
    skills, avoidance = ben
    better = {**skills, "mul": replace(skills["add"], skill="mul")}
    assert groups.next_skill(better, avoidance) == ("div", "avoids")


def test_ready_needs_every_earlier_operation_mastered_and_this_one_untried():
    finn_skills, finn_avoidance = class_of([FINN])["Finn"]
    assert groups.ready_for(finn_skills) == "mul"
    assert groups.next_skill(finn_skills, finn_avoidance) == ("mul", "ready")
    ada_skills, _ = class_of([ADA])["Ada"]
    assert groups.ready_for(ada_skills) is None  # nothing left to start
    assert groups.ready_for({}) is None  # a pupil who never played starts nowhere


def test_translations_reach_every_sentence():
    marked = groups.groups(class_of(), gettext=lambda message: "»" + message)
    finn = next(m for g in marked for m in g.members if m.pupil_id == "Finn")
    assert finn.sentence.startswith("»ready for multiplication")
    ben = groups.needs(*class_of([BEN])["Ben"], gettext=lambda message: "»" + message)
    assert ben[1].sentence.startswith("»avoids division: »has not divided")


def test_masters_partner_mixed_tables_and_none_is_taken_twice():
    pupils = class_of()
    assert groups.masters(pupils, "add") == ["Ada", "Ben", "Cleo", "Finn"]
    assert groups.masters(pupils, "div") == ["Ada"]
    found = groups.groups(pupils)
    masters = {g.skill: groups.masters(pupils, g.skill) for g in found}
    paired = partners(found, masters)
    # Only Ada is in no group: she partners the pupil who needs a master most
    # (Eve needs help with +; Dan's + is only "not enough yet").
    assert paired == {"Eve": "Ada"}
    add = next(g for g in found if g.skill == "add")
    mixed = plan("need", add.pupil_ids, mixed=True, partners=paired)
    assert [t.seats for t in mixed.tables] == [(("Ada", "Eve"),), (("Dan",),)]
    assert mixed.team_size == 2 and all(t.computers == 1 for t in mixed.tables)
    assert mixed.seating() == {"Ada": 1, "Eve": 1, "Dan": 2}
    # Nobody is seated by two groups' plans.
    seated = [p for g in found
              for p in plan(g.kind, g.pupil_ids, mixed=True, partners=paired).seating()]
    assert len(seated) == len(set(seated))
    # A group with no partner left sits as one need.
    sub = next(g for g in found if g.skill == "sub")
    alone = plan("need", sub.pupil_ids, mixed=True, partners=paired)
    assert not alone.mixed and alone.team_size == 1


def test_partners_go_to_needs_help_before_not_enough_yet():
    one = groups.Group("add", "need", (
        groups.Member("Dan", "not_enough", ""), groups.Member("Eve", "needs_help", ""),
    ))
    two = groups.Group("mul", "need", (groups.Member("Ben", "avoids", ""),))
    masters = {"add": ["Ada", "Gus"], "mul": ["Gus"]}
    assert partners([one, two], masters) == {"Eve": "Ada", "Ben": "Gus"}
    assert partners([one], {"add": ["Dan", "Ada"]}) == {"Eve": "Ada"}  # Dan is in a group


def test_same_need_tables_seat_two_and_give_the_odd_one_a_computer():
    three = plan("need", ["Dan", "Eve", "Cleo"])
    assert [t.seats for t in three.tables] == [(("Dan",), ("Eve",)), (("Cleo",),)]
    assert [t.computers for t in three.tables] == [0, 1]
    assert three.seating() == {"Dan": 1, "Eve": 1, "Cleo": 2}
    assert three.computer_level == "beginner"
    assert plan("ready", ["Finn"]).computer_level == "greedy"


def test_mixed_tables_without_teams_seat_the_pair_side_by_side():
    side = plan("need", ["Eve", "Dan"], mixed=True, partners={"Eve": "Ada"}, teams=False)
    assert [t.seats for t in side.tables] == [(("Ada",), ("Eve",)), (("Dan",),)]
    assert side.team_size == 1
    assert side.seating() == {"Ada": 1, "Eve": 1, "Dan": 2}


def test_each_table_takes_the_level_of_its_pupils():
    """A pupil who needs help sets a beginner computer at their table, one who
    avoids the operation a medium one; a table of both takes the gentler."""
    reasons = {"Cleo": "needs_help", "Ben": "avoids", "Eve": "avoids", "Dan": "not_enough",
               "Gus": "avoids"}
    four = plan("need", ["Cleo", "Ben", "Eve", "Gus", "Dan"], reasons=reasons)
    assert [t.computer_level for t in four.tables] == ["beginner", "greedy", "beginner"]
    assert four.levels() == {1: "beginner", 2: "greedy", 3: "beginner"}
    # A master beside a pupil: the pupil's level, in teams or side by side.
    for teams in (True, False):
        mixed = plan("need", ["Ben", "Cleo"], mixed=True, partners={"Ben": "Ada", "Cleo": "Finn"},
                     teams=teams, reasons=reasons)
        assert [t.computer_level for t in mixed.tables] == ["greedy", "beginner"]
    # Without reasons, every table takes the group's level.
    assert plan("ready", ["Finn", "Ada", "Zoe"]).levels() == {1: "greedy", 2: "greedy"}
