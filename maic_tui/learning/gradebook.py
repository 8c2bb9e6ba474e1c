"""``maic-tui report``: a gradebook across recorded sessions, one row per session and its learner, as CSV (RFC 4180,
a header row, opens in a spreadsheet as is), Markdown or JSON. A fork (a tester's copy of a session) and a simulated
session are nobody's attempt: left out unless asked for, and then marked in the ``kind`` column."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from datetime import datetime
from functools import lru_cache
from pathlib import Path, PurePath
from typing import Any, Literal

from maic_tui.bad_input import BadInput
from maic_tui.classroom.loader import load_classroom_text
from maic_tui.classroom.models import Classroom
from maic_tui.learning.facts import SessionFacts, session_facts
from maic_tui.learning.scene_kinds import kind_learning
from maic_tui.log.records import SessionInfo
from maic_tui.log.store import LogStore
from maic_tui.text_safety import one_line

READS = ("scene", "quiz_result", "lesson_end", "scene_event")  # all a row needs of a session's records
SessionKind = Literal["learner", "fork", "simulated"]


@dataclass(frozen=True, slots=True)
class QuestionMark:
    id: str
    earned: int | None  # None: not answered
    points: int


@dataclass(frozen=True, slots=True)
class TaskMark:
    """A column a scene kind brings (a project's issue) and its value ("" when nothing happened)."""

    id: str
    value: str


@dataclass(frozen=True, slots=True)
class GradeRow:
    session: str
    classroom: str
    title: str
    learner: str
    kind: SessionKind  # a learner's own session, a fork of one, or a simulated learner's
    started: str  # ISO 8601, local time with its offset
    duration: float  # seconds, to the last record
    scenes_reached: int
    scenes: int
    questions: list[QuestionMark]
    total: int
    possible: int
    percentage: float | None  # None: no points to earn
    completed: bool
    tasks: list[TaskMark]  # the scene kinds' own columns (a project's issues)


def classroom_name(recorded: str) -> str:
    """A classroom as the gradebook names it: a sample's name, or its file's name without ``.toml``."""
    return PurePath(recorded).stem if recorded.endswith(".toml") else recorded


def session_kind(info: SessionInfo) -> SessionKind:
    return "simulated" if info.simulated else "fork" if info.forked_from is not None else "learner"


def gradebook(data_dir: Path, classroom: str | None = None, every_kind: bool = False) -> list[GradeRow]:
    """A row per session (of the classroom); forks and simulated sessions only with ``every_kind``."""
    rows = []
    wanted = classroom_name(classroom) if classroom is not None else None
    for info, records, last in LogStore(data_dir).each_session(READS):
        name = classroom_name(info.classroom)
        kind = session_kind(info)
        if (wanted is not None and name != wanted) or (kind != "learner" and not every_kind):
            continue
        kept = _classroom(info.classroom_toml)
        if kept is None:
            continue
        facts = session_facts(kept, records)
        answers = facts.last_answers
        marks = [QuestionMark(q.id, answers[q.id].result.earned if q.id in answers else None, q.worth)
                 for scene in kept.scenes for q in scene.graded()]
        earned, possible = sum(mark.earned or 0 for mark in marks), facts.possible
        rows.append(GradeRow(
            info.id, name, kept.title, info.learner or kept.learner.nickname, kind,
            datetime.fromtimestamp(info.started).astimezone().isoformat(timespec="seconds"), round(last, 2),
            len(facts.reached), len(kept.scenes), marks, earned, possible,
            round(100 * earned / possible, 1) if possible else None, facts.completed, _tasks(kept, facts)))
    return rows


def _tasks(classroom: Classroom, facts: SessionFacts) -> list[TaskMark]:
    marks = []
    for index, scene in enumerate(classroom.scenes):
        part = kind_learning(scene.type)
        if part is None:
            continue
        cells = part.cells(scene, [h.event for h in facts.happened if h.event.scene == index])
        # named under their scene, so a project's issue never shares a name with a quiz question
        marks += [TaskMark(f"{scene.id}/{column}", cells.get(column, "")) for column in part.columns(scene)]
    return marks


@lru_cache(maxsize=64)
def _classroom(toml: str) -> Classroom | None:
    """Sessions of one classroom share its text: it is read once."""
    try:
        return load_classroom_text(toml, "the session's classroom")
    except BadInput:
        return None


def _question_columns(rows: list[GradeRow]) -> list[tuple[str, str]]:
    """(classroom, question id) in order of first appearance; the classroom is named only when there are several."""
    return list(dict.fromkeys((row.classroom, mark.id) for row in rows for mark in row.questions))


def as_csv(rows: list[GradeRow]) -> str:
    columns = _question_columns(rows)
    several = len({row.classroom for row in rows}) > 1
    names = [f"{c}:{q}" if several else q for c, q in columns]
    task_columns = list(dict.fromkeys((row.classroom, task.id) for row in rows for task in row.tasks))
    tasks = [f"{c}:{t}" if several else t for c, t in task_columns]
    out = io.StringIO()
    writer = _InertWriter(csv.writer(out, lineterminator="\r\n"))  # headers too: they carry classroom names
    writer.writerow(["session", "classroom", "title", "learner", "kind", "started", "duration_s", "scenes_reached",
                     "scenes", *(f"{name} {part}" for name in names for part in ("earned", "points")),
                     "total", "possible", "percentage", "completed", *tasks])
    for row in rows:
        marks = {(row.classroom, mark.id): mark for mark in row.questions}
        cells: list[object] = [_cell(row.session), _cell(row.classroom), _cell(row.title), _cell(row.learner),
                               row.kind, row.started, row.duration, row.scenes_reached, row.scenes]
        for column in columns:
            mark = marks.get(column)
            cells += ["" if mark is None or mark.earned is None else mark.earned, "" if mark is None else mark.points]
        cells += [row.total, row.possible, "" if row.percentage is None else row.percentage,
                  "yes" if row.completed else "no"]
        values = {(row.classroom, task.id): task.value for task in row.tasks}
        cells += [values.get(column, "") for column in task_columns]
        writer.writerow(cells)
    return out.getvalue()


class _InertWriter:
    """Every text cell of every row, headers included, written as ``_cell`` makes it; numbers as they are."""

    def __init__(self, writer: Any) -> None:
        self._writer = writer

    def writerow(self, cells: Iterable[object]) -> None:
        self._writer.writerow([_cell(cell) if isinstance(cell, str) else cell for cell in cells])


def _cell(text: str) -> str:
    """A text cell a spreadsheet shows as text: one that starts as a formula would is quoted (CSV injection)."""
    text = one_line(text, 200)
    return f"'{text}" if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def as_json(rows: list[GradeRow]) -> str:
    return json.dumps([asdict(row) for row in rows], ensure_ascii=False, indent=2) + "\n"


def as_markdown(rows: list[GradeRow]) -> str:
    """One table per classroom, a column per question (earned/points, – when not answered)."""
    if not rows:
        return "No recorded sessions.\n"
    parts = []
    for name in dict.fromkeys(row.classroom for row in rows):
        mine = [row for row in rows if row.classroom == name]
        questions = [q for c, q in _question_columns(mine)]
        tasks = list(dict.fromkeys(task.id for row in mine for task in row.tasks))
        head = ["session", "learner", "kind", "started", "time", "scenes", *questions, "total", "%", "completed",
                *tasks]
        lines = [f"## {_md(mine[0].title)} ({_md(name)})", "", "| " + " | ".join(map(_md, head)) + " |",
                 "|" + "---|" * len(head)]
        for row in mine:
            marks = {mark.id: mark for mark in row.questions}
            cells = [row.session, row.learner, row.kind, row.started[:16].replace("T", " "), _minutes(row.duration),
                     f"{row.scenes_reached}/{row.scenes}",
                     *(_mark(marks.get(q)) for q in questions), f"{row.total}/{row.possible}",
                     "" if row.percentage is None else f"{row.percentage:g}", "yes" if row.completed else "no",
                     *({t.id: t.value for t in row.tasks}.get(task, "") for task in tasks)]
            lines.append("| " + " | ".join(map(_md, cells)) + " |")
        parts.append("\n".join(lines))
    return "\n\n".join(parts) + "\n"


def _mark(mark: QuestionMark | None) -> str:
    if mark is None:
        return ""
    return f"{'–' if mark.earned is None else mark.earned}/{mark.points}"


def _minutes(seconds: float) -> str:
    whole = int(seconds)
    return f"{whole // 60}:{whole % 60:02d}"


def _md(text: str) -> str:
    return one_line(text, 120).replace("|", "\\|")
