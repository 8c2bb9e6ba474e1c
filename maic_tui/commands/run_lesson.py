"""``maic-tui run CLASSROOM --lesson``: the whole lesson played headless through the turn driver, one JSON record
per line.

Each ``--say`` is used, in order, where the lesson waits for the learner (a quiz question, a pause); the rest
become Q&A turns after the lesson. The protocol's events are printed with the lesson's ``scene``,
``quiz_result`` and ``lesson_end`` records (ARCHITECTURE.md, *The lesson*); the log keeps everything.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from maic_tui.classroom.lesson_steps import Phase
from maic_tui.i18n import _
from maic_tui.live.driver import TurnDriver
from maic_tui.live.lesson_parts import kind_lesson
from maic_tui.stop_signals import StopSignals


async def play_lesson(driver: TurnDriver, says: Sequence[str], stop: StopSignals) -> None:
    left = [driver.read(message) for message in says]  # a bad @name fails before anything is printed
    lesson = driver.lesson
    if lesson is None:  # a classroom without scenes has no lesson: its says are Q&A
        for message in left:
            driver.submit(message)
        await driver.play()
        return
    driver.start_lesson()
    await driver.play()
    while not stop.stopping and lesson.phase != Phase.ENDED:
        step = lesson.cursor.current
        if lesson.phase == Phase.WAITING and step is not None and step.question is not None and not left:
            print(_("maic-tui: the lesson stopped at question '{question}': no --say left to answer it")
                  .format(question=step.question.id), file=sys.stderr)
            return
        scene = driver.classroom.scenes[step.scene] if step is not None else None
        part = kind_lesson(scene.type) if scene is not None else None
        if lesson.phase == Phase.WAITING and step is not None and part is not None and part.takes(step) and not left:
            # a scene whose kind reads the learner's replies (a project) waits for them, as a question does
            where = scene.id if scene is not None else ""
            print(_("maic-tui: the lesson stopped at scene '{scene}': no --say left to go on with it")
                  .format(scene=where), file=sys.stderr)
            return
        if lesson.phase == Phase.WAITING and left:
            driver.submit(left.pop(0))
        else:
            driver.lesson_key()  # on from a pause, or back from Q&A
        await driver.play()
    for message in left:
        if stop.stopping:
            break
        driver.submit(message)
        await driver.play()
