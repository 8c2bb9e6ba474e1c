"""The session log (ARCHITECTURE.md, *The log*): what the learner did and every event, in order.

A record is one of the eight protocol events or one of the learner's own records:

- ``learner``   ``{"text": ...}``   a message sent to the class (starts a turn)
- ``interrupt`` ``{}``              Esc / Ctrl-C while the class spoke
- ``scene``     ``{"index", "id", "title"}``  a scene started (the learner or the lesson moved to it)
- ``step``      ``{"scene", "index"}``  the lesson moved on: the step it plays next (the session log's own)
- ``quiz_result`` ``{"questionId", "answer", "correct", "points", "earned", "comment"?, "question"?, "rightAnswer"?,
  "analysis"?, "chosen"?}``  a graded answer
- ``lesson_end`` ``{"score", "maxScore", "scenes", "review"?}``  the lesson's last scene is done; ``review`` lists
  each question as ``quiz_result`` data
- ``class_control`` ``{"muted", "maxAgents"?}``  who may speak, as the learner set it (mute, solo, agents per turn)
- ``scene_event`` ``{"scene", "kind", "name", "data"}``  a scene kind's own record (a project's role chosen, issue
  opened, submission, verdict, issue done), read by the kind's ``records`` part
- ``interaction`` ``{"scene", "verb", "target", "value"?}``  the learner worked a scene's widget (set a variable,
  picked a preset, revealed a node); agents' changes are their ``action`` events

In the database each record is stored as its wire JSON with ``t``, the seconds since the session started.
A JSONL export is one such line per record, ``{"type", "data", "t"}``, after one ``session`` header line.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import Field, ValidationError

from maic_tui.bad_input import BadInput, validation_line
from maic_tui.events import EVENT_TYPES, Event, EventDecodeError, WireModel, from_dict, json_error
from maic_tui.i18n import N_, _
from maic_tui.text_safety import clean_tree, json_safe


class LearnerData(WireModel):
    text: str


class LearnerRecord(WireModel):
    type: Literal["learner"] = "learner"
    data: LearnerData


class InterruptData(WireModel):
    pass


class InterruptRecord(WireModel):
    type: Literal["interrupt"] = "interrupt"
    data: InterruptData = InterruptData()


class SceneData(WireModel):
    index: int
    id: str | None = None  # None in logs written before lessons
    title: str | None = None


class SceneRecord(WireModel):
    type: Literal["scene"] = "scene"
    data: SceneData


class StepData(WireModel):
    scene: int
    index: int


class StepRecord(WireModel):
    """Where the lesson is now: the step it plays next (written whenever it moves on, so a resume goes on there)."""

    type: Literal["step"] = "step"
    data: StepData


class QuizResultData(WireModel):
    question_id: str
    answer: str  # what the learner answered: the options picked (``A) label``, "; " between), or the text
    correct: bool
    points: int
    earned: int
    comment: str | None = None
    question: str | None = None  # the question's words (absent in logs written before they were kept)
    right_answer: str | None = None  # as the learner should read it
    analysis: str | None = None  # why
    chosen: list[str] | None = None  # a choice question's option values as picked (absent in older logs)


class QuizResultRecord(WireModel):
    type: Literal["quiz_result"] = "quiz_result"
    data: QuizResultData


class LessonEndData(WireModel):
    score: int
    max_score: int
    scenes: int
    # each question of the lesson: the learner's last answer (earned 0 and answer "" when never answered), the right
    # one and why
    review: list[QuizResultData] = Field(default_factory=list)


class LessonEndRecord(WireModel):
    type: Literal["lesson_end"] = "lesson_end"
    data: LessonEndData


class ClassControlData(WireModel):
    muted: list[str] = Field(default_factory=list)  # agents the learner muted (never picked by the director)
    max_agents: int | None = None  # agent turns per learner turn the learner allows (None: the classroom's)


class ClassControlRecord(WireModel):
    """The learner changed who may speak: written when it changes, so a resume and a replay have it too."""

    type: Literal["class_control"] = "class_control"
    data: ClassControlData


class SceneEventData(WireModel):
    scene: int  # the scene's index
    kind: str  # the scene's kind, whose ``records`` part reads ``data``
    name: str  # what happened, in the kind's words
    data: dict[str, Any] = Field(default_factory=dict)


class SceneEventRecord(WireModel):
    """Something a scene kind keeps of its scene (ARCHITECTURE.md, *Scene kinds*): written by its lesson part, so
    a resume, a replay and the learning records have it."""

    type: Literal["scene_event"] = "scene_event"
    data: SceneEventData
class InteractionData(WireModel):
    scene: int  # the scene's index
    verb: Literal["set", "preset", "reveal", "highlight", "annotate"]
    target: str  # the variable, preset or node ("" for a diagram's next node)
    value: float | str | None = None  # a variable's new value; an annotation's text


class InteractionRecord(WireModel):
    """The learner changed a scene's live state (ARCHITECTURE.md, *Scene kinds*): any kind whose scenes have one
    writes it, so a replay, a resume, a fork and the learning records have each change."""

    type: Literal["interaction"] = "interaction"
    data: InteractionData


class ForkedFrom(WireModel):
    """Where a forked session came from: the session, and the learner turn it was cut before."""

    id: str
    turn: int


class SessionInfo(WireModel):
    """A session's header: what it is, and the classroom file as it was (so it resumes and replays exactly)."""

    id: str
    classroom: str  # the name or path it was opened with
    title: str
    model: str  # the model spec, never a key
    started: float  # unix time
    classroom_toml: str
    forked_from: ForkedFrom | None = None
    learner: str | None = None  # who the session's learning records are about (None: the classroom's learner)
    simulated: bool = False  # played by ``maic-tui simulate``: nobody's attempt (the gradebook leaves it out)


class SessionHeader(WireModel):
    type: Literal["session"] = "session"
    data: SessionInfo


LearnerSide = (LearnerRecord | InterruptRecord | SceneRecord | StepRecord | QuizResultRecord | LessonEndRecord
               | ClassControlRecord | SceneEventRecord | InteractionRecord)
Record = Event | LearnerSide
_LEARNER_SIDE: dict[str, type[LearnerSide]] = {"learner": LearnerRecord, "interrupt": InterruptRecord,
                                                "scene": SceneRecord, "step": StepRecord,
                                                "quiz_result": QuizResultRecord,
                                                "lesson_end": LessonEndRecord, "class_control": ClassControlRecord,
                                                "scene_event": SceneEventRecord,
                                                "interaction": InteractionRecord}
RECORD_TYPES = (*EVENT_TYPES, *_LEARNER_SIDE)


class LogError(BadInput):
    """A log line that cannot be read; one line saying where and what, in the interface's language (shown on the
    terminal and in the room, never recorded)."""


_BAD_RECORD = N_("bad {kind} record: {problem}")


@dataclass(frozen=True, slots=True)
class Timed:
    """A record and when it happened (seconds since the session started)."""

    t: float
    record: Record


def record_json(record: Record) -> str:
    return json_safe(record.model_dump_json(by_alias=True, exclude_none=True))


def parse_learner_side(kind: str, body: str) -> LearnerSide:
    """A learner-side record of a known type, its text left as stored: only for a reader that shows none of it (the
    gradebook reads numbers and ids it matches against the classroom, over thousands of sessions, so the JSON is
    read and checked in one step). Raises LogError."""
    model = _LEARNER_SIDE.get(kind)
    if model is None:
        raise LogError(_("not a learner-side record type: {kind}").format(kind=repr(kind)))
    try:
        return model.model_validate_json(body)
    except ValidationError as exc:
        raise LogError(_(_BAD_RECORD).format(kind=kind, problem=validation_line(exc))) from None


def parse_record(body: str | dict[str, Any]) -> Record:
    """A record from its wire JSON (text or already decoded; untrusted, its text is made inert); raises LogError."""
    try:
        raw = json.loads(body) if isinstance(body, str) else body
    except (ValueError, RecursionError) as exc:
        raise LogError(_("not JSON: {error}").format(error=json_error(exc))) from None
    kind = raw.get("type") if isinstance(raw, dict) else None
    try:
        if kind in _LEARNER_SIDE:
            return _LEARNER_SIDE[kind].model_validate(clean_tree(raw))
        if kind in EVENT_TYPES:
            return from_dict(raw)
    except ValidationError as exc:
        raise LogError(_(_BAD_RECORD).format(kind=kind, problem=validation_line(exc))) from None
    except EventDecodeError as exc:
        raise LogError(exc.lines[0]) from None
    raise LogError(_("unknown record type {kind} (expected one of {kinds})").format(kind=repr(kind),
                                                                                   kinds=", ".join(RECORD_TYPES)))


def timed_line(item: Timed) -> str:
    """One JSONL line: the record's wire JSON with ``t`` added."""
    wire = item.record.model_dump(mode="json", by_alias=True, exclude_none=True)
    return json_safe(json.dumps({**wire, "t": round(item.t, 3)}, ensure_ascii=False))


def header_line(info: SessionInfo) -> str:
    return json_safe(SessionHeader(data=info).model_dump_json(by_alias=True, exclude_none=True))


def read_jsonl(text: str, name: str) -> tuple[SessionInfo, list[Timed]]:
    """A JSONL export read back; every problem is ``name:line: what`` in one line."""
    lines = [(number, line) for number, line in enumerate(text.splitlines(), 1) if line.strip()]
    if not lines:
        raise LogError(_("{path}: empty file (expected a session header line, then one record per line)")
                       .format(path=name))
    info: SessionInfo | None = None
    records: list[Timed] = []
    for number, line in lines:
        try:
            raw = json.loads(line)
        except (ValueError, RecursionError) as exc:
            raise LogError(f"{name}:{number}: " + _("not JSON: {error}").format(error=json_error(exc))) from None
        if not isinstance(raw, dict):
            raise LogError(f"{name}:{number}: " + _("a record must be a JSON object"))
        if raw.get("type") == "session":
            if info is not None or records:
                raise LogError(f"{name}:{number}: " + _("the session header must be the first line, once"))
            try:
                info = SessionHeader.model_validate(clean_tree(raw)).data
            except ValidationError as exc:
                raise LogError(f"{name}:{number}: " + _("bad session header: {problem}")
                               .format(problem=validation_line(exc))) from None
            continue
        if info is None:
            raise LogError(f"{name}:{number}: " + _("the first line must be the session header"))
        t = raw.pop("t", None)
        if not isinstance(t, int | float) or isinstance(t, bool):
            raise LogError(f"{name}:{number}: " + _("missing or bad 't' (seconds since the session started)"))
        try:
            records.append(Timed(float(t), parse_record(raw)))
        except LogError as exc:
            raise LogError(f"{name}:{number}: {exc}") from None
    assert info is not None  # a non-empty file either had a header first or raised
    return info, records
