"""A live classroom session: the classroom, its models, board and history, one engine for all its turns.

With a ``LogWriter`` every learner message, interruption, scene change and event is appended to the
session log as it happens; ``restore`` continues a session rebuilt from such a log."""

from __future__ import annotations

from collections.abc import AsyncGenerator
from contextlib import aclosing
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from maic_tui.classroom.models import Classroom
from maic_tui.classroom.quiz import Grade
from maic_tui.events import Event
from maic_tui.live.lesson_cursor import LessonCursor
from maic_tui.live.warming import Warmer
from maic_tui.llm import ModelOptions
from maic_tui.llm.client import ModelClient
from maic_tui.llm.context import LessonCall
from maic_tui.llm.structured_modes import ModeMemory
from maic_tui.log.records import (
    ClassControlData,
    ClassControlRecord,
    InterruptRecord,
    LearnerData,
    LearnerRecord,
    Record,
    SceneData,
    SceneEventData,
    SceneEventRecord,
    SceneRecord,
)
from maic_tui.orchestration.graph.conversation import HistoryEntry
from maic_tui.orchestration.graph.engine import TurnEngine
from maic_tui.orchestration.graph.engine_context import EngineContext
from maic_tui.orchestration.graph.state import TurnSettings
from maic_tui.orchestration.routing.mentions import Addressed
from maic_tui.provider import make_provider
from maic_tui.whiteboard import Whiteboard

if TYPE_CHECKING:
    from maic_tui.log.writer import LogWriter
    from maic_tui.room.replay import Rebuilt

R = TypeVar("R", bound=Record)


class ClassroomSession:
    def __init__(self, classroom: Classroom, model: str = "demo", options: ModelOptions | None = None,
                 settings: TurnSettings | None = None, log: LogWriter | None = None,
                 data_dir: Path | None = None) -> None:
        self.classroom = classroom
        self.log = log
        self._recording_problem: str | None = None
        self._reported: set[str] = set()
        self._in_turn = False  # a turn is being played (a learner turn's learner record is in the log)
        self._interrupt_pending = False  # an interruption to record once the turn starts, after its learner record
        self.provider = make_provider(model, classroom, options)
        self.context = EngineContext(classroom, ModelClient(self.provider, ModeMemory(data_dir)),
                                     settings=settings or TurnSettings())
        self.engine = TurnEngine(self.context)
        self.warming = Warmer(self.context)  # the shared part of the prompt sent ahead (live/warming.py)
        self.cursor = LessonCursor.of(classroom)  # where the lesson is: rebuilt from the log on a resume
        self.role: str | None = None  # the learner's role in a project, given beforehand (--role)
        self.scene_events: list[SceneEventData] = []  # the scene kinds' own records (a project's issues), in order

    @property
    def board(self) -> Whiteboard:
        return self.context.board

    @property
    def history(self) -> list[HistoryEntry]:
        return self.context.history

    def warm(self) -> bool:
        """Send the class's shared part ahead for the server to cache, if it changed since it was last sent (the
        session opened, the scene changed); True when a warm-up started. Never waits."""
        return self.warming.warm()

    def not_recorded(self, reason: str) -> None:
        """The database could not be opened: the session runs anyway, and says so once."""
        self._recording_problem = f"this session is not recorded: {reason}"

    def restore(self, rebuilt: Rebuilt) -> None:
        """Go on from a rebuilt log: same history, board, scene and message numbering; the records that
        closed a turn the log left open are appended to the log."""
        ctx = self.context
        ctx.history, ctx.board, ctx.scene_index = list(rebuilt.history), rebuilt.board, rebuilt.scene_index
        ctx.message_count = rebuilt.message_count
        ctx.scene_states.restore(rebuilt.view.scene_states)
        grades = {r.question_id: Grade(r.earned, r.points, r.comment or "", r.answer) for r in rebuilt.quiz_results}
        self.cursor.restore(rebuilt.lesson_at, grades, rebuilt.lesson_ended)
        self.scene_events = list(rebuilt.view.scene_events)
        if rebuilt.control is not None:
            ctx.settings = replace(ctx.settings, muted=frozenset(rebuilt.control.muted),
                                   max_agents=rebuilt.control.max_agents)
        if self.log is not None:
            for record in rebuilt.repairs:
                self.log.record(record)

    def record_learner(self, text: str) -> LearnerRecord:
        """What the learner said, appended to the log (secrets replaced) before its turn is played, and handed back
        to be shown: the one place a learner record is made (the turn driver calls it)."""
        return self.record(LearnerRecord(data=LearnerData(text=self.context.redact(text))))

    def turn(self, message: Addressed) -> AsyncGenerator[Event, None]:
        """One learner turn, its events recorded as they happen (the message itself is recorded before:
        ``record_learner``). An interruption that came before the turn started is recorded first."""
        return self._recorded(self.engine.run(message), learner=True)

    def lesson_turn(self, call: LessonCall) -> AsyncGenerator[Event, None]:
        """A turn the lesson opens (a discussion, a slide presented, a reaction): recorded as it happens."""
        return self._recorded(self.engine.run(call))

    async def _recorded(self, events: AsyncGenerator[Event, None], learner: bool = False,
                        ) -> AsyncGenerator[Event, None]:
        """A turn's events, each appended to the log as it comes; an interruption meanwhile is recorded where it
        comes, so a replay marks this turn, not the next learner turn."""
        if learner and self._interrupt_pending:
            self.record(InterruptRecord())
        self._in_turn, self._interrupt_pending = True, False
        try:
            async with aclosing(events):  # closing this closes the graph's run
                async for event in events:
                    yield self.record(event)
        finally:
            self._in_turn = self._interrupt_pending = False
        self.warm()  # the conversation so far, read by the server while the learner reads and types

    def record(self, record: R) -> R:
        """Append one record to the session log (when recorded) and hand it back."""
        if isinstance(record, SceneEventRecord):
            self.scene_events.append(record.data)
        if self.log is not None:
            self.log.record(record)
        return record

    def control(self, muted: frozenset[str], max_agents: int | None) -> ClassControlRecord:
        """Who may speak from the next turn on (the learner's mute, solo, agents per turn), recorded."""
        ctx = self.context
        ctx.settings = replace(ctx.settings, muted=muted, max_agents=max_agents)
        return self.record(ClassControlRecord(data=ClassControlData(muted=sorted(muted), max_agents=max_agents)))

    def start_scene(self, index: int) -> SceneRecord:
        """The lesson starts a scene: agents see it from now on, and the log says so (even for the scene shown)."""
        self.context.scene_index = index
        self.warm()  # the slide shown is part of every prompt: the server reads the new one while the lesson plays
        scene = self.classroom.scenes[index]
        return self.record(SceneRecord(data=SceneData(index=index, id=scene.id, title=scene.title)))

    def interrupt(self) -> None:
        if self.log is not None:
            if self._in_turn:
                self.log.record(InterruptRecord())
            else:  # the log must read learner, then interrupt: it is written once the turn starts
                self._interrupt_pending = True
        self.engine.interrupt()

    def raise_hand(self) -> None:
        """The learner sent another message while the class speaks: the turn ends after the agent speaking now."""
        self.engine.raise_hand()

    def change_scene(self, index: int) -> None:
        """Agents see this scene (and its slide elements) from their next turn on."""
        if 0 <= index < len(self.classroom.scenes) and index != self.context.scene_index:
            self.context.scene_index = index
            self.warm()
            if self.log is not None:
                scene = self.classroom.scenes[index]
                self.log.record(SceneRecord(data=SceneData(index=index, id=scene.id, title=scene.title)))

    def close(self) -> None:
        """Stop a warm-up under way, write what is still buffered and stop the log writer."""
        self.warming.cancel()
        if self.log is not None:
            self.log.flush()
            self.log.close()

    def recording_problem(self) -> str | None:
        """Why this session is not (or no longer) recorded, once; None while all is well."""
        problem = self._recording_problem or (self.log.error if self.log is not None else None)
        if problem is None or problem in self._reported:
            return None
        self._reported.add(problem)
        return problem
