"""What a recorded session says about the learner's learning, read once from its records: the one source for the
xAPI statements (``statements.py``) and the gradebook (``gradebook.py``).

Times are seconds since the session started, as the log keeps them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from maic_tui.classroom.lesson import QuizQuestion
from maic_tui.classroom.models import Classroom, Scene
from maic_tui.log.progress import possible_points
from maic_tui.log.records import (
    InteractionData,
    InteractionRecord,
    LearnerRecord,
    LessonEndData,
    LessonEndRecord,
    QuizResultData,
    QuizResultRecord,
    SceneEventData,
    SceneEventRecord,
    SceneRecord,
    Timed,
)


@dataclass(frozen=True, slots=True)
class Reached:
    t: float
    index: int
    scene: Scene


@dataclass(frozen=True, slots=True)
class Answered:
    t: float
    scene: int | None  # the scene the question belongs to (None: not in the classroom as kept)
    question: QuizQuestion | None
    result: QuizResultData


@dataclass(frozen=True, slots=True)
class Asked:
    t: float
    text: str
    scene: int | None  # the scene the class was in (None: before any)


@dataclass(frozen=True, slots=True)
class Worked:
    """The learner changed a scene's widget (an ``interaction`` record)."""

    t: float
    scene: int | None  # the scene's index (None: not in the classroom as kept)
    change: InteractionData


@dataclass(frozen=True, slots=True)
class Ended:
    t: float
    end: LessonEndData


@dataclass(frozen=True, slots=True)
class Happened:
    t: float
    event: SceneEventData  # a scene kind's own record (a project's verdict, an issue done)


@dataclass
class SessionFacts:
    classroom: Classroom
    reached: list[Reached] = field(default_factory=list)  # each scene the first time it was reached, in order
    answered: list[Answered] = field(default_factory=list)  # every graded answer (a retried question twice)
    asked: list[Asked] = field(default_factory=list)  # the learner's messages to the class
    ended: list[Ended] = field(default_factory=list)  # each time the lesson came to its end (again after a retry)
    worked: list[Worked] = field(default_factory=list)  # every change the learner made to a widget
    happened: list[Happened] = field(default_factory=list)  # the scene kinds' own records, in order
    last: float = 0.0  # the last record's time

    @property
    def last_answers(self) -> dict[str, Answered]:
        """Each question's last answer: what it earns."""
        return {answer.result.question_id: answer for answer in self.answered}

    @property
    def possible(self) -> int:
        return possible_points(self.classroom)

    @property
    def completed(self) -> bool:
        return bool(self.ended)


def session_facts(classroom: Classroom, records: list[Timed]) -> SessionFacts:
    facts = SessionFacts(classroom)
    scenes = {scene.id: (index, scene) for index, scene in enumerate(classroom.scenes)}
    questions = {question.id: (index, question) for index, scene in enumerate(classroom.scenes)
                 for question in scene.graded()}
    seen: set[int] = set()
    current: int | None = None
    for at, item in enumerate(records):
        record = item.record
        facts.last = max(facts.last, item.t)
        if isinstance(record, QuizResultRecord):
            index, question = questions.get(record.data.question_id, (None, None))
            facts.answered.append(Answered(item.t, index, question, record.data))
        elif isinstance(record, LearnerRecord) and _to_the_class(records, at):
            facts.asked.append(Asked(item.t, record.data.text, current))
        elif isinstance(record, SceneRecord):
            found = _scene_of(record, scenes, classroom)
            current = found[0] if found is not None else current
            if found is not None and found[0] not in seen:
                seen.add(found[0])
                facts.reached.append(Reached(item.t, *found))
        elif isinstance(record, LessonEndRecord):
            facts.ended.append(Ended(item.t, record.data))
        elif isinstance(record, InteractionRecord):
            index = record.data.scene if 0 <= record.data.scene < len(classroom.scenes) else None
            facts.worked.append(Worked(item.t, index, record.data))
        elif isinstance(record, SceneEventRecord) and 0 <= record.data.scene < len(classroom.scenes):
            facts.happened.append(Happened(item.t, record.data))
    return facts


def _to_the_class(records: list[Timed], at: int) -> bool:
    """A learner message the class answered (or was about to): not an answer to a quiz question (its result comes
    next) nor a word that only moved the lesson on ("go on", "retry": the lesson's next step comes next)."""
    following = (item.record.type for item in records[at + 1:] if item.record.type not in ("error", "interrupt"))
    return next(following, None) not in ("quiz_result", "step", "scene", "lesson_end", "scene_event")


def _scene_of(record: SceneRecord, scenes: dict[str, tuple[int, Scene]],
              classroom: Classroom) -> tuple[int, Scene] | None:
    if record.data.id is not None:
        return scenes.get(record.data.id)
    index = record.data.index  # a log written before scenes kept their id
    return (index, classroom.scenes[index]) if 0 <= index < len(classroom.scenes) else None
