"""What a client shows, rebuilt from a session's records (``record``, the one handler of records): transcript,
roster status, board, slide pointer, cue and director trace. The TUI draws it; a replay of a recorded log rebuilds
it the same way. What no record carries (a decision before its turn's ``done``, the queue, the app's notes) the
screen sets directly (ARCHITECTURE.md, *The app*).

Text is cleaned once here (escape sequences and control characters removed), so no view downstream
has to remember to.
"""

from __future__ import annotations

from contextlib import suppress
from dataclasses import dataclass, field
from typing import Literal, assert_never

from maic_tui.actions import SLIDE_ACTIONS, WIDGET_ACTIONS, action_chip
from maic_tui.classroom.models import Classroom, Scene
from maic_tui.events import (
    ActionEvent,
    AgentEndEvent,
    AgentStartEvent,
    CueUserData,
    CueUserEvent,
    DoneData,
    DoneEvent,
    ErrorEvent,
    Event,
    TextDeltaEvent,
    ThinkingEvent,
    TraceRecord,
)
from maic_tui.i18n import ENGLISH, _, ngettext, translator
from maic_tui.llm.errors import shown_failure
from maic_tui.log.records import (
    ClassControlData,
    ClassControlRecord,
    InteractionData,
    InteractionRecord,
    InterruptRecord,
    LearnerRecord,
    LessonEndData,
    LessonEndRecord,
    QuizResultData,
    QuizResultRecord,
    Record,
    SceneEventData,
    SceneEventRecord,
    SceneRecord,
    StepRecord,
)
from maic_tui.log.scene_events import kind_records
from maic_tui.log.talk import TalkStats
from maic_tui.orchestration.routing.picking import DecisionCard
from maic_tui.room.decisions import SessionDecisions
from maic_tui.room.lesson_state import LessonState
from maic_tui.room.turn_so_far import TurnSoFar
from maic_tui.scenes.base import SceneChangeError
from maic_tui.scenes.live_state import SceneChange, SceneStates
from maic_tui.text_safety import EscapeFilter, terminal_safe
from maic_tui.whiteboard import Whiteboard
from maic_tui.whiteboard.render import Pointer

Status = Literal["idle", "thinking", "speaking"]


@dataclass
class Part:
    kind: Literal["text", "chip"]
    text: str = ""  # made inert; grows append-only while streaming (an escape split across pieces goes whole)
    _filter: EscapeFilter = field(default_factory=EscapeFilter, repr=False, compare=False)

    def add(self, content: str) -> None:
        self.text += self._filter.feed(content)


@dataclass
class AgentMessage:
    message_id: str
    agent_id: str
    name: str
    avatar: str
    color: str
    parts: list[Part] = field(default_factory=list)
    streaming: bool = True
    interrupted: bool = False

    @property
    def text(self) -> str:
        return "".join(p.text for p in self.parts if p.kind == "text").strip()

    def add_text(self, content: str) -> None:
        if not self.parts or self.parts[-1].kind != "text":
            self.parts.append(Part("text"))
        self.parts[-1].add(content)

    def close(self) -> None:
        self.streaming = False


@dataclass
class LearnerMessage:
    text: str
    nickname: str


@dataclass
class SystemNote:
    text: str
    level: Literal["info", "error"] = "info"


Entry = AgentMessage | LearnerMessage | SystemNote


class ClassroomView:
    def __init__(self, classroom: Classroom) -> None:
        self.classroom = classroom
        self.entries: list[Entry] = []
        self.board = Whiteboard()
        self.scene_index = 0
        self.status: dict[str, Status] = {agent.id: "idle" for agent in classroom.agents}
        self.director_deciding = False
        self.pointer: Pointer | None = None
        self.cue: CueUserData | None = None
        self.decisions = SessionDecisions()  # every director decision of the session, by turn
        self.talk = TalkStats.of(classroom)  # who talks how much, how turns end
        self.stepping = False  # step mode is on: the class waits before each decision
        self.decision_card: DecisionCard | None = None  # the decision waiting for the tester, in step mode
        self.last_done: DoneData | None = None
        self.turn = TurnSoFar()  # the turn the records are in: answered now? interrupted? (a replay reads it too)
        self.lesson = LessonState.of(classroom)  # where the lesson is (None: the classroom has no scenes)
        self.queue: tuple[str, ...] = ()  # the learner's messages waiting for the class to finish
        self.structured_output: str | None = None  # how a server's output is constrained, once known
        self.replay: str | None = None  # a replay's progress ("playing · 12/80 records"), once one plays
        self.notice: str | None = None  # what the composer says while the class gets ready
        self.muted: frozenset[str] = frozenset()  # agents the learner muted
        self.scene_events: list[SceneEventData] = []  # the scene kinds' own records (a project's issues)
        self.max_agents: int | None = None  # agent turns per learner turn the learner allows
        self.board_version = 0  # bumped on every board, scene or pointer change
        self.board_changes = 0  # bumped on every whiteboard action only
        self.scene_states = SceneStates()  # what the learner and the agents made of each widget
        self.class_scene = 0  # the scene the class is on (its ``scene`` records), whatever the learner pages to
        self._worked_note: int | None = None  # the note of the learner's last change, while nothing follows it
        self.dirty: set[int] = set()  # indexes of entries changed since the last ``take_dirty``
        self._open: dict[str, int] = {}  # message id -> entry index, while the message streams

    # --- reading -----------------------------------------------------------------------------------

    @property
    def scene(self) -> Scene | None:
        scenes = self.classroom.scenes
        return scenes[self.scene_index] if 0 <= self.scene_index < len(scenes) else None

    @property
    def turn_active(self) -> bool:
        return self.turn.active

    def take_dirty(self) -> set[int]:
        dirty, self.dirty = self.dirty, set()
        return dirty

    # --- changes from the learner ------------------------------------------------------------------

    def learner(self, text: str) -> None:
        self._append(LearnerMessage(terminal_safe(text), terminal_safe(self.classroom.learner.nickname)))
        self.cue = None
        self.decisions.learner(text)
        self.turn.start()

    def note(self, text: str, level: Literal["info", "error"] = "info") -> None:
        self._append(SystemNote(terminal_safe(text), level))

    def request_interrupt(self) -> None:
        self.turn.interrupted = True

    def change_scene(self, index: int) -> bool:
        if not 0 <= index < len(self.classroom.scenes) or index == self.scene_index:
            return False
        self.scene_index = index
        self.pointer = None
        self.board_version += 1
        return True

    def clear_pointer(self) -> None:
        if self.pointer is not None:
            self.pointer = None
            self.board_version += 1

    @property
    def trace(self) -> list[TraceRecord]:
        """The decisions of the newest turn."""
        return self.decisions.latest

    def add_trace(self, record: TraceRecord) -> None:
        self.decisions.decided(record)

    # --- changes from the engine -------------------------------------------------------------------

    def record(self, record: Record) -> None:
        """Any record of a session, live or replayed (``room/replay.py`` feeds each one here): events, and the
        learner's and the lesson's own. The one handler of records, exhaustive over ``Record``: mypy names this
        match when a record type is added (ARCHITECTURE.md, *Where to change what*)."""
        self.talk.add(record)
        match record:
            case (TextDeltaEvent() | ActionEvent() | AgentStartEvent() | AgentEndEvent() | ThinkingEvent()
                  | ErrorEvent() | CueUserEvent() | DoneEvent()):  # the events first: most records are streamed text
                self.apply(record)
            case LearnerRecord(data=said):
                self.learner(said.text)
            case InterruptRecord():
                self.request_interrupt()
            case SceneRecord(data=moved):
                self.class_scene = moved.index
                self.change_scene(moved.index)
            case InteractionRecord(data=worked):
                self.worked(worked)
            case StepRecord(data=at):
                self.turn.end()  # the lesson moved on: whatever the learner said has been answered
                if self.lesson is not None:
                    self.lesson.scene, self.lesson.index = at.scene, at.index
                    self.lesson.score, self.lesson.missed = None, 0  # playing again (the missed questions)
            case QuizResultRecord(data=result):
                self.note(quiz_line(result, self.classroom.language))
            case ClassControlRecord(data=control):
                self.muted, self.max_agents = frozenset(control.muted), control.max_agents
                self.note(control_line(self.classroom, control))
            case SceneEventRecord(data=happened):
                self.scene_events.append(happened)
                if self.lesson is not None:
                    self.lesson.events.append(happened)
                part = kind_records(happened.kind)
                scenes = self.classroom.scenes
                line = (part.line(scenes[happened.scene], happened, self.classroom.language)
                        if part and happened.scene < len(scenes) else None)
                if line:
                    self.note(line)
            case LessonEndRecord(data=end):
                self.turn.end()
                self.note(lesson_end_line(end, self.classroom.language))
                if self.lesson is not None:
                    self.lesson.score = (end.score, end.max_score)
                    self.lesson.missed = sum(not result.correct for result in end.review)
            case _:
                assert_never(record)

    def apply(self, event: Event) -> None:
        """One event of the protocol (``record``'s share of them)."""
        if not self.turn.active and isinstance(event, ThinkingEvent | AgentStartEvent):
            # The lesson speaks (a scripted message, or a turn it opened): a fresh start, as after a learner message;
            # only the engine's turns think, and end with done.
            if isinstance(event, ThinkingEvent):
                self.turn.start()
            else:
                self.turn.lesson_speaks()
            self.cue = None  # the lesson went on: an earlier pause's or discussion's options no longer apply
        match event:
            case ThinkingEvent(data=data):
                self.decisions.thinking()
                self.director_deciding = data.stage == "director"
                if data.agent_id in self.status:
                    self.status[data.agent_id] = "thinking"
            case AgentStartEvent(data=data):
                self.director_deciding = False
                self.status[data.agent_id] = "speaking"
                self.decisions.agent_started(data.agent_id, data.message_id)
                self.turn.agents += 1
                self._open[data.message_id] = len(self.entries)
                self._append(AgentMessage(data.message_id, data.agent_id, terminal_safe(data.agent_name),
                                          terminal_safe(data.agent_avatar), data.agent_color))
            case TextDeltaEvent(data=data):
                message = self._message(data.message_id)
                if message is not None:
                    message.add_text(data.content)
            case ActionEvent(data=data):
                self._action(event)
                self.turn.actions += 1
            case ErrorEvent(data=data):  # the record keeps a model failure's English; shown translated
                self.note(shown_failure(data.message), "error")
            case AgentEndEvent(data=data):
                self.status[data.agent_id] = "idle"
                message = self._message(data.message_id)
                if message is not None:
                    message.close()
                    message.interrupted = self.turn.interrupted
                    self.turn.marked |= message.interrupted
                self._open.pop(data.message_id, None)
            case CueUserEvent(data=data):
                self.cue = data
            case DoneEvent(data=data):
                self._done(data)
            case _:
                assert_never(event)

    def _done(self, data: DoneData) -> None:
        self.last_done = data
        if data.structured_output is not None:
            self.structured_output = data.structured_output
        self.decisions.finished(data.director_trace)
        self.turn.end()
        self.director_deciding = False
        self.status = dict.fromkeys(self.status, "idle")
        if data.end_reason == "interrupted" and not self.turn.marked:
            self.note(_("Turn interrupted."))
        if data.end_reason != "cue_user":
            self.cue = None

    def _action(self, event: ActionEvent) -> None:
        data = event.data
        message = self._message(data.message_id)
        if message is not None:
            message.parts.append(Part("chip", terminal_safe(action_chip(data.action_name, data.params))))
        if data.action_name in WIDGET_ACTIONS:
            scenes = self.classroom.scenes
            scene = scenes[self.class_scene] if 0 <= self.class_scene < len(scenes) else None
            agent = self.classroom.agent(data.agent_id)
            with suppress(SceneChangeError):  # checked before it was sent; a log may hold anything
                self.scene_states.action(scene, data.action_name, data.params, agent.name if agent else data.agent_id)
        elif data.action_name in SLIDE_ACTIONS:
            kind: Literal["spotlight", "laser"] = "laser" if data.action_name == "laser" else "spotlight"
            color = str(data.params.get("color", "#ff0000"))
            self.pointer = Pointer(kind, str(data.params.get("elementId", "")), color)
        else:
            self.board.apply(data.action_name, data.params)
            self.board_changes += 1
        self.board_version += 1

    def worked(self, data: InteractionData) -> None:
        """The learner changed a scene's widget: its state, and one note in the transcript that the next change
        rewrites while nothing else was said in between (an arrow key held down is one line, not fifty)."""
        scenes = self.classroom.scenes
        scene = scenes[data.scene] if 0 <= data.scene < len(scenes) else None
        try:
            state = self.scene_states.change(scene, [SceneChange(data.verb, data.target, data.value)])
        except SceneChangeError as exc:  # a log may hold anything
            self.note(_("a change the widget could not take: {problem}").format(problem=exc.shown), "error")
            return
        self.board_version += 1
        told = str(getattr(state, "told", ""))  # in the interface's words, else as the class's model is told it
        said = told.replace("{who}", self.classroom.learner.nickname, 1) if told else \
            str(getattr(state, "last", "")).replace("the learner", self.classroom.learner.nickname, 1)
        line = "✎ " + terminal_safe(said or f"{data.verb} {data.target}")
        note = self.entries[self._worked_note] if self._worked_note == len(self.entries) - 1 else None
        if isinstance(note, SystemNote) and self._worked_note is not None:
            note.text = line
            self.dirty.add(self._worked_note)
        else:
            self.note(line)
            self._worked_note = len(self.entries) - 1

    def _message(self, message_id: str) -> AgentMessage | None:
        index = self._open.get(message_id)
        if index is None:
            return None
        self.dirty.add(index)
        entry = self.entries[index]
        return entry if isinstance(entry, AgentMessage) else None

    def _append(self, entry: Entry) -> None:
        self.entries.append(entry)
        self.dirty.add(len(self.entries) - 1)


def quiz_line(result: QuizResultData, language: str = ENGLISH) -> str:
    """A graded answer as the transcript, the exports and the headless printer show it, in the class's language."""
    t = translator(language)
    mark = "✔" if result.correct else "✘"
    if result.question is None:  # a log from before the question was kept
        comment = f" — {result.comment}" if result.comment else ""
        earned = t.gettext("{earned}/{points} for “{answer}”").format(earned=result.earned, points=result.points,
                                                                       answer=result.answer)
        return f"{mark} {result.question_id}: {earned}{comment}"
    parts = [f"{mark} {result.question} " + t.gettext("You answered “{answer}”: {earned}/{points}.").format(
        answer=result.answer, earned=result.earned, points=result.points)]
    if result.comment:
        parts.append(result.comment)
    if not result.correct and result.right_answer:
        parts.append(t.gettext("The answer: {answer}.").format(answer=result.right_answer.rstrip(".")))
    if result.analysis:
        parts.append(result.analysis)
    return " ".join(parts)


def control_line(classroom: Classroom, control: ClassControlData) -> str:
    """Who may speak now, as the transcript notes it when the learner changes it (in the interface's language)."""
    names = [agent.name for agent in classroom.agents if agent.id in control.muted]
    speaking = [agent.name for agent in classroom.agents if agent.id not in control.muted]
    if not names:
        who = _("Everyone may speak")
    elif len(speaking) == 1:
        who = _("Only {name} speaks (solo)").format(name=speaking[0])
    else:
        who = _("Muted: {names}").format(names=", ".join(names))
    limit = control.max_agents
    if limit:
        who += " · " + ngettext("at most {count} agent a turn", "at most {count} agents a turn", limit).format(
            count=limit)
    return who + "."


def lesson_end_line(end: LessonEndData, language: str = ENGLISH) -> str:
    """The lesson's end, with a review of its questions: each one, the learner's answer, the right one and why (in
    the class's language)."""
    t = translator(language)
    lines = [t.gettext("Lesson over: score {score}/{top} over {scenes} scenes.").format(
        score=end.score, top=end.max_score, scenes=end.scenes)]
    if end.review:
        lines.append(t.gettext("Review:"))
        for number, result in enumerate(end.review, 1):
            answered = (t.gettext("you answered “{answer}”").format(answer=result.answer) if result.answer
                        else t.gettext("not answered"))
            line = f"{number}. {'✔' if result.correct else '✘'} {result.question} — {answered}: " \
                   f"{result.earned}/{result.points}."
            if not result.correct and result.right_answer:
                line += " " + t.gettext("The answer: {answer}.").format(answer=result.right_answer.rstrip("."))
            if result.analysis:
                line += f" {result.analysis}"
            lines.append(line)
    return "\n".join(lines)
