"""The lesson played (ARCHITECTURE.md, *The lesson*): the cursor's steps become agent messages and turns, recorded as
they happen.

Everything it plays leaves as records (the protocol's events and the lesson's own ``scene``, ``step``,
``quiz_result``, ``lesson_end``), already written to the session log, so the app, ``run --lesson`` and a replay
show the same thing. Speech is read at ``pace``; ``hold`` stops at the end of the step being played (the learner
typed), ``cut`` stops at once (Esc), ``pause`` freezes it mid-sentence until ``resume``.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator, Sequence
from typing import assert_never

from maic_tui.classroom.answer_reading import GO_ON
from maic_tui.classroom.lesson import ScriptStep
from maic_tui.classroom.lesson_steps import Phase, Step, read_out
from maic_tui.classroom.models import Agent
from maic_tui.classroom.quiz import question_text
from maic_tui.events import (
    AgentStartEvent,
    CueUserData,
    CueUserEvent,
    DoneEvent,
    ErrorData,
    ErrorEvent,
    TextDeltaEvent,
)
from maic_tui.i18n import translator
from maic_tui.live.lesson_cursor import LessonCursor
from maic_tui.live.lesson_parts import arrived, kind_lesson, waiting_line
from maic_tui.live.lesson_talk import (
    Pacing,
    asks_learner,
    present_request,
    review,
    wants_retry,
)
from maic_tui.live.session import ClassroomSession
from maic_tui.llm.context import LessonCall
from maic_tui.log.records import (
    InterruptRecord,
    LessonEndData,
    LessonEndRecord,
    Record,
    StepData,
    StepRecord,
)
from maic_tui.orchestration.answers.scripted import ScriptedMessage
from maic_tui.orchestration.routing.mentions import Addressed

Played = AsyncGenerator[Record, None]
class LessonPlayer:
    def __init__(self, session: ClassroomSession, pacing: Pacing | None = None) -> None:
        self.session = session
        self.cursor: LessonCursor = session.cursor
        self.pacing = pacing or Pacing()
        self._hold = False
        self._cut = False
        self._in_turn = False  # a turn the lesson opened is running (Esc interrupts it)
        self.playing = False  # ``play`` is running
        self._awake = asyncio.Event()
        self._awake.set()
        self._scene: int | None = None  # the scene whose ``scene`` record was written
        self._written: tuple[int, int] | None = None  # the position last written as a ``step`` record

    # --- control, from the app ----------------------------------------------------------------------

    @property
    def phase(self) -> Phase:
        return self.cursor.phase

    def hold(self) -> None:
        """Stop at the end of the step being played (the learner has something to say); a turn the lesson opened
        ends once its agent speaking now has finished."""
        self._hold = True
        self._awake.set()
        if self._in_turn:
            self.session.raise_hand()

    def cut(self) -> None:
        """Stop now: the message being read is cut (and replays later), a turn is interrupted."""
        self._hold = self._cut = True
        self._awake.set()
        if self._in_turn:
            self.session.interrupt()

    def pause(self) -> None:
        self.cursor.pause()
        if self.cursor.phase == Phase.PAUSED:
            self._awake.clear()

    def resume(self) -> None:
        self.cursor.resume()
        self._awake.set()

    # --- playing ------------------------------------------------------------------------------------

    async def play(self) -> Played:
        """Play steps while the lesson plays: until it waits for the learner, is held or cut, or ends."""
        self._hold = self._cut = False
        self.cursor.start()
        self.playing = True
        try:
            async for record in self._steps():
                yield record
        finally:
            self.playing = False

    async def _steps(self) -> Played:
        while self.cursor.phase in (Phase.PLAYING, Phase.PAUSED) and not self._hold:
            await self._awake.wait()
            step = self.cursor.current
            if step is None or self._hold:
                break
            if self._scene != step.scene:
                self._scene = step.scene
                yield self.session.start_scene(step.scene)
            async for record in self.moved():
                yield record
            async for record in self._step(step):
                yield record
            if self.cursor.phase == Phase.PLAYING and not self._hold:
                if self.pacing.step_by_step and self.cursor.current is not None:
                    self.pause()  # one step at a time: F7 plays the next
                    async for record in self.moved():  # where it waits, and that it does (the room's line)
                        yield record
                elif self.pacing.beat:
                    await asyncio.sleep(self.pacing.beat)
        async for record in self.moved():
            yield record

    async def _step(self, step: Step) -> Played:
        kind = step.kind
        match kind:
            case "say" | "action":
                steps = self._run_of(step)
                agent = self.session.classroom.agent(steps[0].agent or "")
                assert agent is not None  # the loader checked every step's agent
                if agent.id in self.session.context.settings.muted:
                    self._done(step, len(steps))  # the learner muted this agent: the lesson goes on without it
                    return
                finished = True
                async for record in self.say(agent, steps):
                    finished = not isinstance(record, InterruptRecord) and finished
                    yield record
                if finished:
                    self._done(step, len(steps))
            case "discussion":
                assert step.script is not None and step.script.discussion is not None
                script = step.script
                call = LessonCall("discussion", request=" ".join(filter(None, [script.discussion, script.prompt])),
                                  scene=step.scene, opener=script.agent, topic=script.discussion or "")
                cued = False
                async for record in self.turn(call):
                    cued = cued or isinstance(record, CueUserEvent)
                    yield record
                if cued and self._at(step):
                    self.cursor.hand_over()  # the learner's contribution is awaited (F7 goes on without one)
                else:
                    self._done(step)
            case "present":
                scene = self.session.classroom.scenes[step.scene]
                async for record in self.turn(LessonCall("present", present_request(scene.title), step.scene,
                                                          opener=self.lead().id, topic=scene.title)):
                    yield record
                if not self._cut:
                    self._done(step)
            case "pause":
                assert step.script is not None
                own = waiting_line(self.session.classroom.scenes[step.scene].type)
                prompt = (own(self, step) if own is not None else None) or step.script.prompt or \
                    translator(self.session.classroom.language).gettext("Take a moment. Anything to ask before we go "
                                                                        "on?")
                agent = self.session.classroom.agent(step.script.agent or "") or self.lead()
                finished = True
                async for record in self.say(agent, [ScriptStep(agent=agent.id, say=prompt)]):
                    finished = not isinstance(record, InterruptRecord) and finished
                    yield record
                if finished:  # said in the transcript, by its agent; the options stay beside the composer
                    yield self.session.record(CueUserEvent(data=CueUserData(
                        from_agent_id=agent.id, prompt=prompt, options=list(step.script.options) or None)))
                    self._done(step)
                    begin = arrived(self.session.classroom.scenes[step.scene].type)
                    if begin is not None and self.cursor.phase == Phase.WAITING:
                        async for record in begin(self, step):
                            yield record
            case "ask":
                assert step.question is not None
                asked = question_text(step.question, self.session.classroom.language)
                async for record in self.say(self.lead(), [ScriptStep(agent=self.lead().id, say=asked)]):
                    yield record
                self._done(step)
            case _:
                assert_never(kind)

    def _at(self, step: Step) -> bool:
        """The lesson is still playing this step (not moved by F5/F6, nor stopped for the learner)."""
        return self.cursor.position == (step.scene, step.index) and self.cursor.phase in (Phase.PLAYING,
                                                                                          Phase.PAUSED)

    def _done(self, step: Step, count: int = 1) -> bool:
        """The step (and the ``count - 1`` after it) has been played, unless the lesson was moved meanwhile
        (F5/F6, or the learner took the floor): True when the cursor went on from it."""
        if not self._at(step):
            return False
        for _ in range(count):
            self.cursor.step_done()
        return True

    def _run_of(self, step: Step) -> list[ScriptStep]:
        """The say and action steps by the same agent from here on: one message, as a model's answer would be."""
        speaker = step.script.agent if step.script else None
        run: list[ScriptStep] = []
        for later in self.cursor.scenes[step.scene][step.index:]:
            script = later.script
            if not read_out(later.kind) or script is None or script.agent != speaker:
                break
            run.append(script)
        return run

    async def say(self, agent: Agent, steps: Sequence[ScriptStep]) -> Played:
        message = ScriptedMessage(self.session.context, agent, steps)
        for event in message.begin():
            yield self.session.record(event)
        cut = False
        for piece in message.pieces:
            await self._awake.wait()
            if self._cut:
                cut = True
                break
            for event in message.play(piece):
                yield self.session.record(event)
                if isinstance(event, TextDeltaEvent) and self.pacing.chars_per_second:
                    await asyncio.sleep(len(event.data.content) / self.pacing.chars_per_second)
        if cut:
            yield self.session.record(InterruptRecord())
        for warning in message.warnings:
            yield self.session.record(ErrorEvent(data=ErrorData(message=f"lesson script: {warning}")))
        for event in message.finish(interrupted=cut):
            yield self.session.record(event)

    async def turn(self, call: LessonCall) -> Played:
        self._in_turn = True
        try:
            async for event in self.session.lesson_turn(call):
                yield event
                if isinstance(event, DoneEvent) and event.data.end_reason == "interrupted":
                    self._cut = self._hold = True
        finally:
            self._in_turn = False

    async def moved(self) -> Played:
        """Write where the lesson is now, when that changed; and the lesson's end, once."""
        cursor = self.cursor
        if cursor.phase == Phase.ENDED:
            if self._written != (-1, -1):
                self._written = (-1, -1)
                async for record in self._ending():
                    yield record
            return
        if cursor.phase != Phase.IDLE and cursor.position != self._written:
            self._written = cursor.position
            yield self.session.record(StepRecord(data=StepData(scene=cursor.scene, index=cursor.index)))

    async def _ending(self) -> Played:
        score, top = self.cursor.score()
        t = translator(self.session.classroom.language)  # the class's own words, in its language
        line = t.gettext("That's the end of our lesson. Thank you for taking part!")
        if top:
            line = t.gettext("That's the end of our lesson: you scored {score} of {top} points. Thank you for taking "
                             "part!").format(score=score, top=top)
            missed = len(self.cursor.missed())
            if missed:
                line += " " + t.ngettext("Type “retry” or press F7 to try the question you missed again.",
                                         "Type “retry” or press F7 to try the {count} questions you missed again.",
                                         missed).format(count=missed)
        async for record in self.say(self.lead(), [ScriptStep(agent=self.lead().id, say=line)]):
            yield record
        yield self.session.record(LessonEndRecord(data=LessonEndData(
            score=score, max_score=top, scenes=len(self.cursor.scenes), review=review(self.cursor))))

    def retry(self) -> bool:
        """After the lesson, ask the missed questions again; True when there are any (the caller then plays)."""
        if self.cursor.phase != Phase.ENDED or not self.cursor.missed():
            return False
        self.cursor.retry()
        self._written = None
        self._awake.set()
        return True

    def lead(self) -> Agent:
        classroom = self.session.classroom
        return classroom.lead() or classroom.agents[0]

    # --- the learner's side -------------------------------------------------------------------------

    async def learner(self, message: Addressed) -> Played:
        """A message from the learner: the answer to a waiting question or pause, "go on" back to the lesson,
        else Q&A with the scene as context (the lesson keeps its place). The caller records and shows the message
        itself (``ClassroomSession.record_learner``)."""
        text = message.text
        step = self.cursor.current
        waiting = self.cursor.phase == Phase.WAITING
        part = kind_lesson(self.session.classroom.scenes[step.scene].type) if waiting and step is not None else None
        if part is not None and step is not None and part.takes(step):  # the kind reads the reply (a quiz grades it)
            async for record in part.reply(self, step, text):
                yield record
            return
        if wants_retry(text, self.session.classroom.language) and self.retry():
            async for record in self.moved():
                yield record
            return
        if GO_ON.match(text) and self.cursor.phase != Phase.ENDED:
            self.go_on()
            async for record in self.moved():
                yield record
            return
        if not waiting:
            self.cursor.learner_spoke()
        said: list[str] = []  # each message of the class's answer: does one ask the learner something?
        async for event in self.session.turn(message):
            if isinstance(event, AgentStartEvent):
                said.append("")
            elif isinstance(event, TextDeltaEvent) and said:
                said[-1] += event.data.content
            yield event
        if waiting:  # a pause (or a discussion's hand-over), answered
            self.cursor.answered()
            if any(asks_learner(text) for text in said):
                self.cursor.learner_spoke()  # the class asked back: the lesson waits for the answer (or F7)
            async for record in self.moved():
                yield record

    def go_on(self) -> None:
        """Back to the lesson (after Q&A, past a waiting pause, out of a pause); the caller then plays it."""
        step = self.cursor.current
        if self.cursor.phase == Phase.WAITING and step is not None and step.question is None:
            self.cursor.answered()  # past a pause or a discussion, without a word
        elif self.cursor.phase == Phase.PAUSED:
            self.cursor.resume()
        else:
            self.cursor.go_on()
        self._awake.set()

    def jump(self, scene: int) -> None:
        """To another scene's first step (F5/F6); the caller then plays it."""
        self.cursor.jump(scene)
        self._awake.set()
