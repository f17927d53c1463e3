"""`ref T where F == same(path)` in a seed: a reference to a row of T whose field F equals a value
reached from the row being seeded, so that two references of one row agree (issue 29: the
registrar world written from the docs alone had class sections taught by an instructor of
another department than the course's, since a reference could only be filtered by a constant).
A row that finds no such key is not made, as with `ref T where F == const`; `worldc lint` (W109)
says how many rows a seed lost so."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from compoworld_dsl.check.loader import check_source
from compoworld_dsl.codegen.python import load_world
from compoworld_dsl.lint import lint
from compoworld_dsl.sample.run import load_sampler
from compoworld_dsl.syntax.format import format_source

ROOT = Path(__file__).resolve().parents[1]

WORLD = """type TeacherId = id
type CourseId = id

service school "School" {
  record Teacher "teacher" known by name {
    key id: TeacherId
    name: text
    department: text
  }
  record Course "course" known by title {
    key id: CourseId
    title: text
    department: text
    level: int
  }
  record Class "class" known by course {
    key id: id
    course: CourseId
    teacher: TeacherId
    code: text
  }
  state teachers: table[Teacher]
  state courses: table[Course]
  state classes: table[Class]

  seed teachers: %(teachers)s rows {
    name: pick(["A", "B", "C", "D", "E", "F"])
    department: pick(["History", "Physics", "Art"])
  }
  seed courses: 5 rows {
    title: pick(["T1", "T2", "T3"])
    department: pick(["History", "Physics", "Art"])
    level: 1..3
  }
  seed classes: %(classes)s rows {
    course: ref courses
    teacher: %(teacher)s
    code: format("{}-{}", same(course.title), 1..9)
  }
}
"""


def _world(teacher="ref teachers where department == same(course.department)", teachers="9", classes="12"):
    program = check_source(WORLD % {"teacher": teacher, "teachers": teachers, "classes": classes})
    errors = [d for d in program.diagnostics if d.severity == "error"]
    return program, errors


def test_each_reference_agrees_with_the_row_it_is_drawn_for():
    program, errors = _world()
    assert not errors, errors
    world = load_world(program.model)
    made = 0
    for seed in range(15):
        state = world.initial_state(seed)
        teachers, courses = state.tables["school.teachers"], state.tables["school.courses"]
        for c in state.tables["school.classes"].values():
            assert teachers[c["teacher"]]["department"] == courses[c["course"]]["department"], (seed, c)
            made += 1
    assert made >= 100  # most rows find a teacher: the check above is not vacuous


def test_the_same_rows_whether_seeded_whole_or_table_by_table():
    """The sampler seeds only the tables a walk needs (`seed_tables`): the target's and the
    hop's rows must be there first, or a section would get another instructor."""
    program, _ = _world()
    world = load_world(program.model)
    for seed in range(5):
        whole = world.initial_state(seed).tables["school.classes"]
        st = world.partial_state(seed)
        world.seed_tables(st, seed, ["school.classes"])
        assert st.tables["school.classes"] == whole


def test_unique_takes_each_key_once_and_still_agrees():
    program, errors = _world(teacher="unique ref teachers where department == same(course.department)", classes="20")
    assert not errors, errors
    world = load_world(program.model)
    for seed in range(10):
        state = world.initial_state(seed)
        teachers, courses = state.tables["school.teachers"], state.tables["school.courses"]
        rows = list(state.tables["school.classes"].values())
        assert len({c["teacher"] for c in rows}) == len(rows)
        assert all(teachers[c["teacher"]]["department"] == courses[c["course"]]["department"] for c in rows)
        assert len(rows) <= len(teachers)


def test_no_row_fits_no_row_is_made_and_lint_says_so():
    # one teacher: most courses' departments have nobody to teach them
    program, errors = _world(teachers="1", classes="12")
    assert not errors, errors
    world = load_world(program.model)
    lost = sum(world.rows_not_made(seed).get(("school.classes", "teacher"), 0) for seed in range(10))
    made = sum(len(world.initial_state(seed).tables["school.classes"]) for seed in range(10))
    assert lost > 0 and lost + made == 120
    warned = [d for d in lint(program.model, "<test>", seeds=10) if d.code == "W109"]
    assert len(warned) == 1 and f"for {lost} of 120 rows" in warned[0].message and "department == same(course.department)" in warned[0].message
    assert warned[0].span.line == WORLD.splitlines().index("    teacher: %(teacher)s") + 1


def test_lint_is_quiet_when_every_row_finds_one():
    program, _ = _world(teachers="30")  # thirty teachers over three departments
    world = load_world(program.model)
    assert all(not world.rows_not_made(seed) for seed in range(5))
    assert not [d for d in lint(program.model, "<test>", seeds=5) if d.code == "W109"]


@pytest.mark.parametrize(
    "gen,code,text",
    [
        ("ref teachers where rank == same(course.department)", "E601", "no field `rank`"),
        ("ref teachers where department == same(course.subject)", "E601", "no field `subject`"),
        ("ref teachers where department == same(code.department)", "E604", "`code` has type `text`"),
        ("ref teachers where department == same(course.level)", "E602", "no row can match"),
        ("ref teachers where department == same(teacher)", "E602", "its own value"),
        ("ref teachers where department == same(nothing)", "E601", "no field `nothing`"),
    ],
)
def test_a_match_that_cannot_apply_is_an_error_at_its_place(gen, code, text):
    _, errors = _world(teacher=gen)
    assert [d.code for d in errors] == [code] and text in errors[0].message, errors
    line = (WORLD % {"teacher": gen, "teachers": "9", "classes": "12"}).splitlines().index(f"    teacher: {gen}") + 1
    assert errors[0].span.line == line


def test_not_in_a_scalar_seed():
    src = WORLD % {"teacher": "ref teachers", "teachers": "9", "classes": "12"}
    src = src.replace("  state classes: table[Class]\n", "  state classes: table[Class]\n  state head: TeacherId\n")
    src = src.replace("  seed classes:", "  seed head: ref teachers where department == same(course.department)\n  seed classes:")
    errors = [d for d in check_source(src).diagnostics if d.severity == "error"]
    assert [d.code for d in errors] == ["E602"] and "cannot be used here" in errors[0].message


def test_the_formatter_keeps_it():
    src = WORLD % {"teacher": "unique ref teachers where department == same(course.department)", "teachers": "9", "classes": "12"}
    out = format_source(src)
    assert "unique ref teachers where department == same(course.department)" in out
    assert format_source(out) == out


def test_a_request_states_its_own_references():
    """`derive` makes a new row's derived fields the way its seed does (an email from a name);
    a matched reference is a reference the request states, never made up for it."""
    program, _ = _world()
    world = load_world(program.model)
    assert "teacher" not in world.derived_fields("school.classes")
    state = world.initial_state(1)
    course = next(iter(state.tables["school.courses"]))
    assert "teacher" not in world.derive("school.classes", {"course": course}, state, random.Random(0))


def test_registrar_sections_are_taught_in_their_courses_department():
    world = load_sampler(str(ROOT / "worlds" / "registrar.world")).world
    for seed in range(20):
        state = world.initial_state(seed)
        instructors, courses = state.tables["catalog.instructors"], state.tables["catalog.courses"]
        sections = state.tables["catalog.sections"]
        assert len(sections) >= 12, seed  # every course's department has an instructor: none lost
        for s in sections.values():
            assert instructors[s["instructor"]]["department"] == courses[s["course"]]["department"], (seed, s)
