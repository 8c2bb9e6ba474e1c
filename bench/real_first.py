"""Against the real llama.cpp server: is the first question of a session as quick as the ones after it?

The learner's wait from the message to the class's first word (text shown as it streams: the wait is the model's and
the routing's), for the five questions of ``real_quality`` on ``derivatives``, side by side in one run: a session
whose class is not warmed (its first call reads the whole shared part of the prompt) and one warmed while it opens
(``live/warming.py``), each on a server of its own started fresh, so no cache is left from the run before. The warmed
session's first question is asked once the warm-up is done (how long that took is printed: the opening screen and the
lesson's first lines it needs to hide behind).                 [first question <= 1.3x the later ones' median]
A third session, warmed, has the learner read and type for a few seconds before each next question, as people do:
the conversation so far is warmed meanwhile (each question above is asked the moment the turn before ends, when a
warm-up would have no time).
"""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.llama_server import llama_server
from bench.real_quality import QUESTIONS
from maic_tui.classroom import load_classroom
from maic_tui.events import TextDeltaEvent
from maic_tui.live.driver import TurnDriver
from maic_tui.live.session import ClassroomSession
from maic_tui.llm import ModelOptions
from maic_tui.log.records import LearnerRecord, Record

TYPING = 4.0  # seconds the learner reads the answer and types the next question, in the third session


async def _session(url: str, folder: Path, warmed: bool, typing: float = 0.0) -> dict[str, Any]:
    room = load_classroom("derivatives")
    session = ClassroomSession(room, "openai:smollm2", ModelOptions(base_url=url, pace=0.0), data_dir=folder)
    driver = TurnDriver(room)
    first_word: list[float] = []
    asked, turns = [0.0], [0]

    def seen(record: Record) -> None:
        if isinstance(record, LearnerRecord):
            asked[0] = time.perf_counter()
        elif isinstance(record, TextDeltaEvent) and record.data.content and len(first_word) < turns[0]:
            first_word.append(time.perf_counter() - asked[0])

    driver.on_record = seen
    warm_seconds = None
    if warmed:
        started = time.perf_counter()
        driver.attach(session, with_lesson=False)  # in the running loop, as the app attaches: the warm-up starts
        if session.warming.task is not None:
            await session.warming.task
        warm_seconds = time.perf_counter() - started
    else:
        session.warming.warm = lambda: False  # type: ignore[method-assign]  # the class as it opened before
        driver.attach(session, with_lesson=False)
    for number, question in enumerate(QUESTIONS):
        if number and typing:
            await asyncio.sleep(typing)
        turns[0] += 1
        driver.submit(driver.read(question))
        await driver.play()
        if len(first_word) < turns[0]:
            first_word.append(float("nan"))  # nobody spoke: shown as such
    return {"first_word": first_word, "warm": warm_seconds, "notes": list(session.warming.notes)}


def _one(folder: Path, warmed: bool, typing: float = 0.0) -> dict[str, Any]:
    with llama_server() as url:  # a fresh server: nothing cached from the other session
        return asyncio.run(_session(url, folder, warmed, typing))


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        runs = [(warmed, typing, _one(Path(folder) / f"{warmed}-{typing}", warmed, typing))
                for warmed, typing in ((False, 0.0), (True, 0.0), (True, TYPING))]
    print("real server (llama.cpp, SmolLM2-135M), 'derivatives', text shown as it streams, a fresh server per session:"
          " the wait from the learner's message to the class's first word")
    for warmed, typing, run in runs:
        waits = run["first_word"]
        later = statistics.median(waits[1:])
        title = "warmed while it opens" if warmed else "not warmed (as before)"
        if typing:
            title += f", the learner reading and typing for {typing:g} s before each next question"
        warm = f"; the warm-up took {run['warm']:.2f} s before the first question" if run["warm"] is not None else ""
        print(f"  {title}: first question {waits[0]:.2f} s, later ones {', '.join(f'{w:.2f}' for w in waits[1:])} s "
              f"(median {later:.2f} s): first = {waits[0] / later:.2f}x the later ones' median (target <= 1.3x){warm}")
        for note in run["notes"]:
            print(f"    {note}")
