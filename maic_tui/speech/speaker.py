"""The class's voice as it talks: each message's sentences are sent for synthesis as they complete, the next one
synthesized while the current one plays, played in order (a voice slower than the text queues, it skips
nothing), and written to ``--audio-out`` as they are spoken. Nothing here waits on the caller: ``message``,
``text`` and ``end`` only queue; ``interrupt`` stops the sound at once and drops what was queued.

A failing provider or player is said once through ``notice`` and speech goes quiet for the session; the text
never waits for it."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from dataclasses import dataclass

from maic_tui.i18n import _
from maic_tui.speech.audio_out import AudioOut, CannotWrite
from maic_tui.speech.player import NoSound, Player
from maic_tui.speech.providers import SpeechError, SpeechProvider
from maic_tui.speech.words import Sentences
from maic_tui.text_safety import one_line


@dataclass(frozen=True, slots=True)
class Utterance:
    agent_id: str
    voice: str
    text: str
    scene_id: str | None


class Speaker:
    def __init__(self, provider: SpeechProvider, voices: dict[str, str], player: Player | None = None,
                 audio_out: AudioOut | None = None, notice: Callable[[str], None] | None = None) -> None:
        self.provider, self.voices, self.player, self.audio_out = provider, voices, player, audio_out
        self.notice = notice or (lambda line: None)
        self.on_speaking: Callable[[str | None], None] = lambda agent_id: None
        self.muted = False
        self.quiet_reason: str | None = None  # set once speech has failed: nothing more is spoken
        self.speaking: str | None = None  # the agent heard now
        self.spoken = 0  # utterances played or written
        self._messages: dict[str, tuple[str, Sentences]] = {}
        self._scene: str | None = None
        self._queue: asyncio.Queue[Utterance] = asyncio.Queue()
        self._ready: asyncio.Queue[tuple[Utterance, bytes]] = asyncio.Queue(maxsize=1)
        self._tasks: list[asyncio.Task[None]] = []
        self._generation = 0  # bumped by interrupt: what was made before it is dropped
        self._pending = 0  # utterances queued and not yet spoken, written or dropped
        self._sound: asyncio.Future[None] | None = None  # the sound playing now

    # --- what the class says (never waits) -------------------------------------------------------------

    def scene(self, scene_id: str | None) -> None:
        self._scene = scene_id

    def message(self, message_id: str, agent_id: str) -> None:
        self._messages[message_id] = (agent_id, Sentences())

    def text(self, message_id: str, delta: str) -> None:
        found = self._messages.get(message_id)
        if found is not None:
            for sentence in found[1].feed(delta):
                self._say(found[0], sentence)

    def end(self, message_id: str) -> None:
        found = self._messages.pop(message_id, None)
        if found is not None:
            for sentence in found[1].flush():
                self._say(found[0], sentence)

    def _say(self, agent_id: str, sentence: str) -> None:
        if self.quiet_reason is None and (not self.muted or self.audio_out is not None):
            self._ensure_running()
            self._pending += 1
            self._queue.put_nowait(Utterance(agent_id, self.voices.get(agent_id, ""), sentence, self._scene))

    @property
    def busy(self) -> bool:
        """Something is being said, or is still to be."""
        return self.speaking is not None or self._pending > 0

    # --- control ---------------------------------------------------------------------------------------

    def interrupt(self) -> None:
        """Silence now: the sentence playing stops, the queued ones are dropped, messages half-said are forgotten."""
        self._generation += 1
        self._messages.clear()
        self._pending = 0
        for queue in (self._queue, self._ready):
            while not queue.empty():
                queue.get_nowait()
        if self._tasks:  # the workers start again on what is said next
            for task in self._tasks:
                task.cancel()
            self._tasks = []
        self._speaking(None)

    def toggle_mute(self) -> bool:
        self.muted = not self.muted
        if self.muted and self.audio_out is None:
            self.interrupt()
        elif self.muted and self._sound is not None:  # the files go on; the sound stops now
            self._sound.cancel()
        return self.muted

    async def drain(self) -> None:
        """Until everything queued is spoken (or written), or speech went quiet."""
        while self._tasks and self._pending:
            if self.quiet_reason is not None:
                return
            if any(task.done() for task in self._tasks):  # a worker that ended cannot say the rest
                self._quiet(_("the voice stopped"))
                return
            await asyncio.sleep(0.02)

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._tasks = []

    # --- the two workers -------------------------------------------------------------------------------

    def _ensure_running(self) -> None:
        if not self._tasks:
            generation = self._generation
            self._tasks = [asyncio.create_task(self._synthesize(generation)),
                           asyncio.create_task(self._play(generation))]

    async def _synthesize(self, generation: int) -> None:
        while True:
            said = await self._queue.get()
            try:
                wav = await self.provider.synthesize(said.text, said.voice)
            except SpeechError as exc:
                self._quiet(str(exc))
                return
            except Exception as exc:  # a provider's own bug: still one notice, never a worker dead with work queued
                failed = one_line(str(exc), 200) or type(exc).__name__
                self._quiet(_("the voice failed ({reason})").format(reason=failed))
                return
            if generation == self._generation:
                await self._ready.put((said, wav))

    async def _play(self, generation: int) -> None:
        while True:
            said, wav = await self._ready.get()
            if generation != self._generation:
                continue
            try:
                self._write(said, wav)
                if self.player is not None and not self.muted:
                    self._speaking(said.agent_id)
                    try:
                        await self._sound_of(wav)
                    except NoSound as exc:
                        self.notice(_("no sound: {reason}; the class goes on in text").format(reason=exc))
                        self.player = None
                    finally:
                        self._speaking(None)
            finally:
                if generation == self._generation:
                    self.spoken += 1
                    self._done_one()

    async def _sound_of(self, wav: bytes) -> None:
        """Plays ``wav``; muting stops it at once (the worker goes on to the next sound, unplayed)."""
        assert self.player is not None
        self._sound = asyncio.ensure_future(self.player.play(wav))
        try:
            await self._sound
        except asyncio.CancelledError:
            current = asyncio.current_task()
            if current is not None and current.cancelling():  # the worker itself is stopped: interrupt, close
                self._sound.cancel()
                raise
        finally:
            self._sound = None

    def _write(self, said: Utterance, wav: bytes) -> None:
        if self.audio_out is None or self.audio_out.problem is not None:
            return
        try:
            self.audio_out.write(said.agent_id, said.voice, said.text, said.scene_id, wav)
        except CannotWrite as exc:  # a full disk: said once, with what was written; the class goes on
            self.audio_out.problem = str(exc)
            self.notice(_("audio files: {problem}; {written}").format(problem=exc, written=self.audio_out.so_far()))
            if self.player is None:  # the files were all the voice was for: nothing more is synthesized
                self.quiet_reason = _("audio files: {problem}").format(problem=exc)
                self._quiet(self.quiet_reason)

    def _done_one(self) -> None:
        self._pending = max(0, self._pending - 1)

    def _quiet(self, reason: str) -> None:
        if self.quiet_reason is None:
            self.quiet_reason = reason
            self.notice(_("voice off: {reason}; the class goes on in text").format(reason=reason))
        while not self._queue.empty():
            self._queue.get_nowait()
        self._pending = 0

    def _speaking(self, agent_id: str | None) -> None:
        if agent_id != self.speaking:
            self.speaking = agent_id
            self.on_speaking(agent_id)
