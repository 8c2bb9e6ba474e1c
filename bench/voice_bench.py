"""The class's voice (issue 35; goals in brackets), with espeak-ng, measured side by side in this one run:
  - first audio: from a message's first text token to its first sentence's sound ready, with the text as fast as
    the demo model gives it, as a ratio to one bare synthesis call of that same sentence          [<= 1.3x]
  - text pace with the voice on (espeak-ng speaking, a player that takes each sound's length) vs off, at the
    default reading pace: the voice queues, the text never waits                                   [<= 1.05x]
"""

from __future__ import annotations

import asyncio
import statistics
import time

from maic_tui.classroom import load_classroom
from maic_tui.classroom.voices import assign
from maic_tui.events import AgentStartEvent, DoneEvent, TextDeltaEvent
from maic_tui.live.driver import TurnDriver
from maic_tui.live.session import ClassroomSession
from maic_tui.llm import ModelOptions
from maic_tui.llm.options import DEMO_PACE
from maic_tui.log.records import Record
from maic_tui.speech.providers import Espeak, find_espeak
from maic_tui.speech.speaker import Speaker
from maic_tui.speech.wav import read_wav

QUESTIONS = ["What is a derivative?", "Why does it matter?", "Can you give me an example?"]


class Timed:
    """espeak-ng, noting when each sentence's sound is ready."""

    name = "espeak"

    def __init__(self, inner: Espeak) -> None:
        self.inner = inner
        self.ready: list[tuple[float, str, str]] = []

    async def synthesize(self, text: str, voice: str) -> bytes:
        wav = await self.inner.synthesize(text, voice)
        self.ready.append((time.perf_counter(), text, voice))
        return wav


class Listening:
    """A player with no sound card: it takes as long as the sound lasts."""

    async def play(self, wav: bytes) -> None:
        await asyncio.sleep(read_wav(wav).seconds)


async def _turns(pace: float, speaker: Speaker | None) -> tuple[list[float], dict[str, float]]:
    """Each turn's seconds from its first token to its done; and each message's first token time."""
    room = load_classroom("derivatives")
    session = ClassroomSession(room, "demo", ModelOptions(pace=pace))
    driver = TurnDriver(room)
    driver.attach(session, with_lesson=False)
    driver.speak_with(speaker, stops_on_message=False)
    first_token: dict[str, float] = {}
    starts: list[float] = []
    turns: list[float] = []

    def note(record: Record) -> None:
        now = time.perf_counter()
        if isinstance(record, AgentStartEvent) and len(starts) == len(turns):
            starts.append(now)
        elif isinstance(record, TextDeltaEvent):
            first_token.setdefault(record.data.message_id, now)
        elif isinstance(record, DoneEvent):
            turns.append(now - starts[-1] if starts else 0.0)

    driver.on_record = note
    for question in QUESTIONS:
        driver.submit(driver.read(question))
    await driver.play()
    if speaker is not None:
        await speaker.drain()
        await speaker.close()
    return turns, first_token


async def _first_audio(program: str) -> tuple[float, float]:
    """Median over turns of (the turn's first token -> its first sentence's sound ready), the voice idle when
    the turn starts, and of a bare synthesis of that same sentence, in seconds."""
    room = load_classroom("derivatives")
    provider = Timed(Espeak(program))
    speaker = Speaker(provider, assign(room.agents, "espeak", room.language))  # type: ignore[arg-type]
    session = ClassroomSession(room, "demo", ModelOptions(pace=0.0))
    driver = TurnDriver(room)
    driver.attach(session, with_lesson=False)
    driver.speak_with(speaker, stops_on_message=False)
    token: list[float] = []

    def note(record: Record) -> None:
        if isinstance(record, TextDeltaEvent) and not token:
            token.append(time.perf_counter())

    driver.on_record = note
    waits, sentences = [], []
    for question in QUESTIONS * 2:
        token.clear()
        mark = len(provider.ready)
        driver.submit(driver.read(question))
        await driver.play()
        await speaker.drain()
        ready, text, voice = provider.ready[mark]
        waits.append(ready - token[0])
        sentences.append((text, voice))
    await speaker.close()
    bare = []
    for text, voice in sentences:
        started = time.perf_counter()
        await Espeak(program).synthesize(text, voice)
        bare.append(time.perf_counter() - started)
    return statistics.median(waits), statistics.median(bare)


def main() -> None:
    program = find_espeak()
    if program is None:
        print("voice: espeak-ng is not installed (apt install espeak-ng); nothing measured")
        return
    wait, bare = asyncio.run(_first_audio(program))
    print(f"voice: first audio {wait * 1000:.0f} ms after the first token vs a bare synthesis {bare * 1000:.0f} ms "
          f"= {wait / bare:.2f}x  [<= 1.3x]")
    room = load_classroom("derivatives")
    off, _ = asyncio.run(_turns(DEMO_PACE, None))
    voices = assign(room.agents, "espeak", room.language)
    speaker = Speaker(Espeak(program), voices, Listening())  # type: ignore[arg-type]
    on, _ = asyncio.run(_turns(DEMO_PACE, speaker))
    ratio = sum(on) / sum(off)
    print(f"voice: text pace over {len(QUESTIONS)} turns at {DEMO_PACE:g} characters/s: voice on {sum(on):.2f} s vs "
          f"off {sum(off):.2f} s = {ratio:.3f}x  [<= 1.05x]")


if __name__ == "__main__":
    main()
