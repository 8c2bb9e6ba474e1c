"""The lecture's pace as a reader counts it: a reading pace by default, F8/F9 steps through words a minute, below
the slowest the lesson goes one step at a time (F7 plays the next), and the demo model follows the pace."""

from __future__ import annotations

import asyncio
from pathlib import Path

from maic_tui.classroom.lesson_steps import Phase
from maic_tui.live.driver import TurnDriver
from maic_tui.live.lesson_talk import Pacing
from maic_tui.live.session import ClassroomSession
from maic_tui.llm import ModelOptions
from maic_tui.llm.options import DEMO_PACE
from maic_tui.llm.pace import LEVELS_WPM, READING_PACE, Pace
from maic_tui.log.records import StepRecord
from tests.test_lesson_cursor import lesson


def test_the_default_is_a_reading_pace_of_250_words_a_minute() -> None:
    assert READING_PACE.words() == "250 wpm" and DEMO_PACE == READING_PACE.chars_per_second == 25
    assert ModelOptions().pace == DEMO_PACE


def test_slower_and_faster_step_through_the_levels_and_below_the_slowest_go_step_by_step() -> None:
    pace, seen = READING_PACE, []
    for _ in range(len(LEVELS_WPM) + 2):
        pace = pace.slower()
        seen.append(pace.words())
    assert seen[:4] == ["200 wpm", "150 wpm", "100 wpm", "step by step"] and seen[-1] == "step by step"
    assert pace.faster().words() == "100 wpm"  # out of step by step, at the slowest reading pace
    fast = Pace.of_words(LEVELS_WPM[-1])
    assert fast.faster() == fast and Pace(0).faster() == Pace(0) and Pace(0).slower().words() == "1500 wpm"
    assert Pace(40).slower().words() == "300 wpm" and Pace(40).faster().words() == "600 wpm"  # --pace 40: 400 wpm


async def test_step_by_step_pauses_after_each_step_and_f7_plays_the_next(tmp_path: Path) -> None:
    driver = TurnDriver(lesson(tmp_path))
    driver.attach(ClassroomSession(driver.classroom, "demo", ModelOptions(pace=0)))
    played: list[object] = []
    driver.on_record = played.append
    driver.set_pace(Pace(0, step_by_step=True))
    driver.start_lesson()
    playing = asyncio.create_task(driver.play())
    lesson_player = driver.lesson
    assert lesson_player is not None
    for _ in range(100):
        await asyncio.sleep(0.02)
        if lesson_player.phase == Phase.PAUSED:
            break
    assert lesson_player.phase == Phase.PAUSED and not playing.done()  # waits for F7, mid-lesson
    assert lesson_player.cursor.position == (0, 2)  # the first message (say and spotlight) was one step
    driver.lesson_key()  # F7: the next step
    await asyncio.wait_for(playing, 5)
    assert lesson_player.phase == Phase.WAITING  # the pause waits for the learner, step by step or not
    positions = [(r.data.scene, r.data.index) for r in played if isinstance(r, StepRecord)]
    assert positions == [(0, 0), (0, 2)]


async def test_a_new_pace_reaches_the_lecture_and_the_demo_model(tmp_path: Path) -> None:
    driver = TurnDriver(lesson(tmp_path))
    session = ClassroomSession(driver.classroom, "demo", ModelOptions(pace=25))
    driver.attach(session, Pacing.of(READING_PACE))
    driver.set_pace(Pace.of_words(600))
    assert driver.lesson is not None and driver.lesson.pacing.chars_per_second == 60
    assert session.context.client.provider.options.pace == 60
    assert session.context.client.provider.for_caller("agent").pace == 60  # type: ignore[attr-defined]
