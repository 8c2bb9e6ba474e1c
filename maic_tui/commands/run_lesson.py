"""``maic-tui run CLASSROOM --lesson``: the whole lesson played headless, one JSON record per line.

Each ``--say`` is used, in order, where the lesson waits for the learner (a quiz question, a pause); the rest
become Q&A turns after the lesson. The protocol's events are printed with the lesson's ``scene``,
``quiz_result`` and ``lesson_end`` records (DESIGN.md §9); the log keeps everything.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import AsyncIterator, Sequence
from typing import TextIO

from maic_tui.events import Event
from maic_tui.live.lesson_cursor import Phase
from maic_tui.live.lesson_player import LessonPlayer
from maic_tui.live.session import ClassroomSession
from maic_tui.log.records import (
    InterruptRecord,
    LearnerRecord,
    Record,
    StepRecord,
    record_json,
)
from maic_tui.stop_signals import StopSignals

NOT_PRINTED = (LearnerRecord, StepRecord, InterruptRecord)  # the learner's own input and the log's bookkeeping


async def play_lesson(session: ClassroomSession, says: Sequence[str], out: TextIO, stop: StopSignals) -> None:
    for message in says:
        session.check_message(message)  # a bad @name fails before anything is printed
    player = LessonPlayer(session)

    def stop_now() -> None:  # whatever plays: a lecture, a turn the lesson opened, or a learner's turn
        player.cut()
        session.interrupt()

    stop.on_stop(asyncio.get_running_loop(), stop_now)
    left = list(says)

    async def show(records: AsyncIterator[Record]) -> None:
        async for record in records:
            if not isinstance(record, NOT_PRINTED):
                out.write(record_json(record) + "\n")
                out.flush()

    try:
        await show(player.play())
        while not stop.stopping and player.phase != Phase.ENDED:
            step = player.cursor.current
            if player.phase == Phase.WAITING and step is not None and step.question is not None and not left:
                print(f"maic-tui: the lesson stopped at question '{step.question.id}': no --say left to answer it",
                      file=sys.stderr)
                return
            if player.phase == Phase.WAITING and left:
                await show(player.learner(left.pop(0)))
            else:
                player.go_on()
            await show(player.play())
        for message in left:
            if stop.stopping:
                break
            await show(_events(session, message))
    finally:
        stop.on_stop(None, None)


async def _events(session: ClassroomSession, message: str) -> AsyncIterator[Event]:
    async for event in session.turn(message):
        yield event
