"""A session rebuilt from its log (``open_recorded`` reads one back from the database): what the learner sees (a
``ClassroomView``) and what the engine needs to go on (history, board, scene, message numbering). A log that stops
inside a turn (the process was killed) is closed as if the learner had interrupted: the partial message is kept,
marked interrupted."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from maic_tui.actions import SLIDE_ACTIONS
from maic_tui.classroom.loader import load_classroom_text
from maic_tui.classroom.models import Classroom
from maic_tui.events import (
    ActionEvent,
    AgentEndData,
    AgentEndEvent,
    AgentStartEvent,
    DirectorState,
    DoneData,
    DoneEvent,
    TextDeltaEvent,
)
from maic_tui.log.records import (
    ClassControlData,
    ClassControlRecord,
    InterruptRecord,
    LearnerRecord,
    LessonEndRecord,
    QuizResultData,
    QuizResultRecord,
    Record,
    SessionInfo,
    StepRecord,
    Timed,
)
from maic_tui.log.store import LogStore
from maic_tui.orchestration.graph.conversation import HistoryEntry
from maic_tui.room.view import ClassroomView
from maic_tui.whiteboard import Whiteboard


@dataclass
class _Speaking:
    agent_id: str
    name: str
    speech: list[str] = field(default_factory=list)
    actions: list[tuple[str, dict[str, Any]]] = field(default_factory=list)


@dataclass
class Rebuilt:
    view: ClassroomView
    board: Whiteboard  # the engine's own copy (the view keeps its replica)
    history: list[HistoryEntry] = field(default_factory=list)
    message_count: int = 0
    repairs: list[Record] = field(default_factory=list)  # records that close a turn the log left open
    quiz_results: list[QuizResultData] = field(default_factory=list)  # the graded answers, in order
    lesson_at: tuple[int, int] | None = None  # the step the lesson plays next (scene, index), once it started
    lesson_ended: bool = False
    control: ClassControlData | None = None  # who may speak, as the learner last set it
    _open: dict[str, _Speaking] = field(default_factory=dict)

    @property
    def scene_index(self) -> int:
        return self.view.scene_index

    def apply(self, record: Record) -> None:
        """One record, in log order, to the view (its handler is the exhaustive one, and keeps the turn's state,
        ``view.turn``) and then to what the engine needs to go on; records the engine does not need pass."""
        self.view.record(record)
        match record:
            case LearnerRecord(data=said):
                self.history.append(HistoryEntry(role="learner", text=said.text))
            case StepRecord(data=at):
                self.lesson_at = (at.scene, at.index)
            case QuizResultRecord(data=result):
                self.quiz_results.append(result)
            case LessonEndRecord():
                self.lesson_ended = True
            case ClassControlRecord(data=control):
                self.control = control
            case AgentStartEvent(data=data):
                self._open[data.message_id] = _Speaking(data.agent_id, data.agent_name)
                self.message_count += 1
            case TextDeltaEvent(data=data) if data.message_id in self._open:
                self._open[data.message_id].speech.append(data.content)
            case ActionEvent(data=data):
                if data.message_id in self._open:
                    self._open[data.message_id].actions.append((data.action_name, data.params))
                if data.action_name not in SLIDE_ACTIONS:
                    self.board.apply(data.action_name, data.params)
            case AgentEndEvent(data=data):
                speaking = self._open.pop(data.message_id, None)
                if speaking is not None:
                    self.history.append(HistoryEntry(
                        role="agent", text="".join(speaking.speech).strip(), agent_id=speaking.agent_id,
                        name=speaking.name, actions=tuple(speaking.actions), interrupted=self.view.turn.interrupted))

    def close_open_turn(self) -> None:
        """End a turn (or a lesson's message) the log left open, as an interruption, and keep the closing records
        in ``repairs``."""
        turn = self.view.turn
        if not turn.active and not self._open:
            return
        self.apply(InterruptRecord())
        closing: list[Record] = [InterruptRecord()]
        for message_id, speaking in list(self._open.items()):
            closing.append(AgentEndEvent(data=AgentEndData(message_id=message_id, agent_id=speaking.agent_id)))
        if turn.active:
            closing.append(DoneEvent(data=DoneData(
                total_actions=turn.actions, total_agents=turn.agents, agent_had_content=True,
                cue_user_received=False, end_reason="interrupted",
                director_state=DirectorState(turn_count=turn.agents, agent_responses=[],
                                             whiteboard_ledger=[]),
                director_trace=[])))
        for record in closing[1:]:
            self.apply(record)
        self.repairs = closing


def rebuild(classroom: Classroom, records: Iterable[Record], close: bool = True) -> Rebuilt:
    rebuilt = Rebuilt(ClassroomView(classroom), Whiteboard())
    for record in records:
        rebuilt.apply(record)
    if close:
        rebuilt.close_open_turn()
    rebuilt.view.take_dirty()
    return rebuilt


@dataclass
class Recorded:
    """A session read back from the database, rebuilt up to its last record."""

    info: SessionInfo
    classroom: Classroom
    records: list[Timed]
    rebuilt: Rebuilt
    skipped: list[str] = field(default_factory=list)  # one line per unreadable record left out

    def closed_records(self) -> list[Timed]:
        """The log with the records that close a turn it left open (a crash), as exports and replays show it."""
        last = self.records[-1].t if self.records else 0.0
        return self.records + [Timed(last, record) for record in self.rebuilt.repairs]


def open_recorded(data_dir: Path, id_or_prefix: str) -> Recorded:
    """A recorded session, rebuilt; a turn the log left open (a crash) is closed as interrupted."""
    info, records, skipped = LogStore(data_dir).load(id_or_prefix)
    classroom = load_classroom_text(info.classroom_toml, f"session {info.id}")
    return Recorded(info, classroom, records, rebuild(classroom, [item.record for item in records]), skipped)
