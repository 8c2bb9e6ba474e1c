"""``maic-tui simulate CLASSROOM``: sessions with a simulated learner (README, *Routing QA*), each recorded like any
other (its id printed), then their talk statistics. The learner is scripted from the classroom's material on the
``demo`` learner model (offline, the same for a seed) or played by a model (``--learner-model``)."""

from __future__ import annotations

import asyncio
import sys
from dataclasses import dataclass, field
from typing import Any, TextIO

from maic_tui.classroom import load_classroom
from maic_tui.classroom.lesson_steps import Phase
from maic_tui.classroom.models import Classroom
from maic_tui.commands.run import headless_driver, recorded_session
from maic_tui.demo import DemoLearner
from maic_tui.live.driver import TurnDriver
from maic_tui.live.session import ClassroomSession
from maic_tui.llm import ModelOptions
from maic_tui.llm.client import ModelClient
from maic_tui.llm.context import Said
from maic_tui.llm.model_learner import model_message
from maic_tui.llm.structured_modes import ModeMemory
from maic_tui.log.talk import TalkStats
from maic_tui.provider import make_provider
from maic_tui.settings import resolve_settings
from maic_tui.stop_signals import StopSignals

LESSON_STEPS = 500  # a bound on the lesson's moves, so a lesson that never ends cannot hold the simulation


def _said(session: ClassroomSession) -> list[Said]:
    return [Said(entry.agent_id or entry.role, entry.text) for entry in session.history
            if entry.role != "lesson" and entry.text]


class _Learner:
    """The simulated learner: the scripted one, or a model."""

    def __init__(self, classroom: Classroom, persona: str, seed: int, spec: str | None, options: ModelOptions) -> None:
        self.classroom, self.persona = classroom, persona
        self.scripted = DemoLearner(classroom, persona, seed) if spec in (None, "demo") else None
        self.client = None if self.scripted else ModelClient(make_provider(str(spec), classroom, options),
                                                             ModeMemory(None))

    async def say(self, session: ClassroomSession) -> str:
        said = _said(session)
        if self.scripted is not None:
            return self.scripted.message(said, session.context.scene_index)
        assert self.client is not None
        return await model_message(self.client, self.classroom, self.persona, said)


async def _lesson(driver: TurnDriver, session: ClassroomSession, learner: _Learner, stop: StopSignals) -> None:
    lesson = driver.lesson
    if lesson is None:
        return
    driver.start_lesson()
    await driver.play()
    for _ in range(LESSON_STEPS):
        if stop.stopping or lesson.phase == Phase.ENDED:
            return
        step = lesson.cursor.current
        if lesson.phase == Phase.WAITING and step is not None and step.question is not None \
                and learner.scripted is not None:
            driver.submit(driver.read(learner.scripted.answer(step.question)))
        elif lesson.phase == Phase.WAITING:
            driver.submit(driver.read(await learner.say(session)))
        else:
            driver.lesson_key()  # on from a pause, or back from Q&A
        await driver.play()


async def _one(driver: TurnDriver, session: ClassroomSession, learner: _Learner, turns: int, lesson: bool,
               stop: StopSignals) -> None:
    if lesson:
        await _lesson(driver, session, learner, stop)
    for _ in range(turns):
        if stop.stopping:
            return
        driver.submit(driver.read(await learner.say(session)))
        await driver.play()


@dataclass
class _Summary:
    played: int = 0  # sessions that played (and were recorded)
    merged: int = 0  # sessions whose statistics are in ``total``
    total: TalkStats = field(default_factory=TalkStats)


def simulate(classroom_name: str, persona: str, turns: int, sessions: int, lesson: bool, flags: dict[str, Any],
             learner_model: str | None, seed: int, data_dir: str | None, out: TextIO,
             stop: StopSignals | None = None, concurrency: int = 1) -> int:
    """Each session on its own seed (``seed + n``), so playing up to ``concurrency`` of them at once against the
    model server gives the same sessions as one after another. ``concurrency`` workers take the next session
    number as they finish one, so memory stays flat however many sessions are asked for, and a stop signal stops
    them all within the turn each is playing."""
    classroom = load_classroom(classroom_name)
    spec, options = resolve_settings(flags)
    signals = stop or StopSignals()
    playing: set[TurnDriver] = set()
    numbers = iter(range(sessions))
    done: dict[int, TalkStats | None] = {}  # finished sessions not merged yet: at most one per worker
    summary = _Summary()

    async def session_number(number: int) -> TalkStats | None:
        """The session's statistics; None when a stop came before it played anything."""
        stats = TalkStats.of(classroom)
        seeded = options.model_copy(update={"seed": seed + number, "pace": 0.0})
        session = recorded_session(classroom_name, classroom, spec, seeded, data_dir, simulated=True)
        # the class is warmed only when it is the server's one caller (live/warming.py)
        session.warming.enabled = learner_model in (None, "demo") and concurrency == 1
        driver = headless_driver(session, stats.add, lesson=lesson)
        playing.add(driver)
        try:
            await _one(driver, session, _Learner(classroom, persona, seed + number, learner_model, seeded),
                       turns, lesson, signals)
        finally:
            playing.discard(driver)
            session.close()
        log = session.log
        if not stats.turns and not (log is not None and log.stored):
            return None
        summary.played += 1
        out.write(f"session {number + 1} of {sessions}: "
                  f"{log.session_id if log is not None and log.stored else '(not recorded)'}\n")
        out.flush()
        return stats

    async def worker() -> None:
        for number in numbers:  # shared: each worker takes the next number
            if signals.stopping:
                return
            done[number] = await session_number(number)
            while summary.merged in done:  # merged in session order, as one after another would
                stats = done.pop(summary.merged)
                summary.total = summary.total.merge(stats) if stats is not None else summary.total
                summary.merged += 1

    async def every_session() -> None:
        def stop_all() -> None:
            for driver in list(playing):
                driver.stop()

        signals.on_stop(asyncio.get_running_loop(), stop_all)
        try:
            await asyncio.gather(*(worker() for _ in range(min(concurrency, sessions))))
        finally:
            signals.on_stop(None, None)

    asyncio.run(every_session())
    out.write("\n".join(summary.total.lines()) + "\n")
    if signals.exit_code:
        print(f"maic-tui: {summary.played} of {sessions} session{'s' if sessions != 1 else ''}, stopped",
              file=sys.stderr)
    return signals.exit_code or 0

