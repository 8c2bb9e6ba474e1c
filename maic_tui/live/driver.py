"""The one turn driver: how every client plays a live session (the app, ``run``, ``run --lesson``, ``demo``, ``eval``).

Learner messages wait in a queue while the class speaks (the turn playing ends once the agent speaking has
finished) and are played one turn after another; the lesson plays between them while it plays. Each message is
read once, when it is sent (``read``: the agent it names, or a one-line refusal), and queued as read
(``submit``); every record played reaches ``on_record`` (first for each message the ``learner`` record the
session logged, an ``interrupt`` record when the learner interrupts), so a client only shows or prints records.
``interrupt`` is the learner's Esc, ``stop`` a signal's: one place for both.

Headless on purpose: everything it decides is tested without a terminal.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, Callable
from contextlib import aclosing
from typing import TYPE_CHECKING, Literal

from maic_tui.bad_input import BadInput
from maic_tui.classroom.lesson_steps import Phase
from maic_tui.i18n import N_, _
from maic_tui.live.scene_work import record_change, typed_change, worked
from maic_tui.live.step_mode import StepMode
from maic_tui.live.voice import feed
from maic_tui.log.records import (
    InterruptRecord,
    LessonEndRecord,
    QuizResultRecord,
    Record,
    StepRecord,
)
from maic_tui.orchestration.routing.mentions import Addressed, addressed
from maic_tui.scenes.base import SceneChangeError
from maic_tui.scenes.live_state import SceneChange
from maic_tui.text_safety import one_line

if TYPE_CHECKING:
    from maic_tui.classroom.models import Classroom
    from maic_tui.live.lesson_player import LessonPlayer
    from maic_tui.live.lesson_talk import Pacing
    from maic_tui.live.session import ClassroomSession
    from maic_tui.llm.pace import Pace
    from maic_tui.speech.speaker import Speaker

_TURN_FAILED = N_("the turn failed: {details}")

Interrupted = Literal["turn", "queue", "voice"]


class TurnDriver:
    def __init__(self, classroom: Classroom) -> None:
        self.classroom = classroom
        self.session: ClassroomSession | None = None
        self.lesson: LessonPlayer | None = None  # the classroom's lesson, once the session is attached
        self.waiting: list[Addressed] = []
        self.running = False  # the queue (or the lesson) is being played
        self.on_record: Callable[[Record], None] | None = None  # every record played, in order
        self.on_queue: Callable[[tuple[str, ...]], None] | None = None  # the waiting messages changed
        self.on_problem: Callable[[str], None] | None = None  # a message that could not be played, as shown
        # the same problem for a record (eval's report), in English: set, it is called instead of ``on_problem``
        self.on_problem_recorded: Callable[[str], None] | None = None
        self.on_lesson: Callable[[], None] | None = None  # the lesson moved, paused, waits or ended
        self._in_turn = False  # a learner's message is being answered
        self.stopped = False  # a stop signal (or quitting): nothing more is played
        self.step_mode = StepMode(classroom)  # off: the director decides without waiting
        self.voice: Speaker | None = None  # the class's voice (live/voice.py); None: text only
        self.voice_stops_on_message = True  # a new message silences what the voice had left (the app)
        self._voice_feed: Callable[[Record], None] | None = None

    def speak_with(self, speaker: Speaker | None, stops_on_message: bool = True) -> None:
        """The voice every record played is also said in; the one before it is silenced."""
        if self.voice is not None:
            self.voice.interrupt()
        self.voice, self.voice_stops_on_message = speaker, stops_on_message
        self._voice_feed = feed(speaker) if speaker is not None else None

    def attach(self, session: ClassroomSession, pacing: Pacing | None = None, with_lesson: bool = True) -> None:
        """The session is ready (the app builds it in a thread); a classroom with scenes gets its lesson (played
        by ``play`` once started)."""
        from maic_tui.live.lesson_player import LessonPlayer

        self.session = session
        session.context.picker = self.step_mode
        if with_lesson and session.classroom.scenes:
            self.lesson = LessonPlayer(session, pacing)
        session.warm()  # while the room opens and the lesson starts (from a running event loop; else in ``play``)

    # --- messages ---------------------------------------------------------------------------------------

    def read(self, text: str) -> Addressed:
        """The composer's text (or ``run``'s ``--say``) read once, as it will be played: the agent it picks by
        ``@name`` or by name. Raises the one-line error of an ``@name`` not in the class, or of one the learner
        muted, before the message leaves the composer."""
        message = addressed(self.classroom.agents, text.strip())
        if message.agent is not None and message.agent in self.muted:
            agent = self.classroom.agent(message.agent)
            raise BadInput(_("{name} is muted: unmute them (Ctrl+P) to ask them").format(
                name=agent.name if agent else message.agent))
        if self.session is not None:
            typed_change(self.session, message.text)  # a change the widget shown now cannot take stays here
        return message

    def work(self, scene: int, change: SceneChange) -> str | None:
        """A change the learner made with a widget's keys: applied and recorded at once (shown through
        ``on_record``), no turn opened; a one-line refusal, or None when done."""
        if self.session is None:
            return _("the class is not ready yet")
        try:
            self._emit(record_change(self.session, scene, change))
        except SceneChangeError as exc:
            return exc.shown
        return None

    # --- who may speak --------------------------------------------------------------------------------------

    @property
    def muted(self) -> frozenset[str]:
        return self.session.context.settings.muted if self.session is not None else frozenset()

    @property
    def max_agents(self) -> int | None:
        return self.session.context.settings.max_agents if self.session is not None else None

    def control(self, muted: frozenset[str] | None = None, max_agents: int | Literal["keep"] | None = "keep",
                ) -> str | None:
        """Mute or unmute agents, or limit the agents per turn, from the next turn on (recorded, and shown through
        ``on_record``); the lead teacher cannot be muted. A one-line refusal, or None when done."""
        if self.session is None:
            return _("the class is not ready yet")
        lead = self.classroom.lead() or self.classroom.agents[0]
        muted = self.muted if muted is None else muted
        if lead.id in muted:
            return _("{name} leads the class and cannot be muted").format(name=lead.name)
        limit = self.max_agents if max_agents == "keep" else max_agents
        self._emit(self.session.control(frozenset(muted), limit))
        return None

    def submit(self, message: Addressed) -> bool:
        """Queue a learner message (read when it was sent: ``read``); True when the caller should start ``play``
        now. A lecture being read stops at the end of its step."""
        if not message.text.strip():
            return False
        self.waiting.append(message)
        self._queue_changed()
        if self.voice is not None and self.voice_stops_on_message:
            self.voice.interrupt()
        if self.lesson is not None and self.running:
            self.lesson.hold()
        if self._speaking():
            assert self.session is not None
            self.session.raise_hand()  # the class lets the learner in after the agent speaking now
        return self.ready

    @property
    def ready(self) -> bool:
        """A new message would be played at once."""
        return self.session is not None and not self.running

    def has_work(self) -> bool:
        """Messages wait, or the lesson plays."""
        return bool(self.waiting) or (self.lesson is not None and self.lesson.phase in (Phase.PLAYING, Phase.PAUSED))

    async def play(self) -> None:
        """Play the waiting messages, one turn each, and the lesson while it plays, until neither has anything
        left (nothing if they are already being played)."""
        if not self.ready:
            return
        assert self.session is not None
        self.session.warm()  # a client that attached outside its event loop (``run``): sent unless a turn starts now
        self.running = True
        try:
            while self.session is not None and not (self.stopped and not self.waiting):
                if self.waiting:
                    message = self.waiting.pop(0)
                    self._queue_changed()
                    await self._answer(self.session, message)
                elif not self.stopped and self.lesson is not None and self.lesson.phase in (Phase.PLAYING,
                                                                                           Phase.PAUSED):
                    await self._show(self.lesson.play())
                else:
                    break
                self._lesson_changed()
        finally:
            self.running = False
            self._lesson_changed()

    async def _answer(self, session: ClassroomSession, message: Addressed) -> None:
        try:  # the widget shown when the message is played (``run --say`` reads every message before the lesson)
            change = typed_change(session, message.text) if message.agent is None else None
        except BadInput as exc:
            self._problem(str(exc), str(exc))  # (already in the interface's language)
            return
        if change is not None:
            await self._show(worked(session, change))
            return
        self._emit(session.record_learner(message.text))
        self._in_turn = True
        try:
            await self._show(self.lesson.learner(message) if self.lesson is not None else session.turn(message))
        finally:
            self._in_turn = False

    async def _show(self, records: AsyncGenerator[Record, None]) -> None:
        """Each record to ``on_record``; a failure of the engine (the last line of defence: it ends every turn
        itself) is a problem line, while a failing client (a closed pipe) stops the driver."""
        async with aclosing(records):  # a client that fails closes the turn's run at once, not at exit
            while True:
                try:
                    record = await anext(records)
                except StopAsyncIteration:
                    return
                except Exception as exc:
                    details = one_line(str(exc), 200)
                    self._problem(_TURN_FAILED.format(details=details or "no details"),
                                  _(_TURN_FAILED).format(details=details or _("no details")))
                    return
                self._emit(record)
                if isinstance(record, StepRecord | LessonEndRecord | QuizResultRecord):
                    self._lesson_changed()

    # --- the lesson ---------------------------------------------------------------------------------------

    def start_lesson(self, scene: int = 0) -> bool:
        """Begin the lesson at ``scene`` (the slide the learner paged to while the class was starting; a new session;
        a resumed one waits for the learner to go on); True when the caller should start ``play`` now."""
        if self.lesson is None or self.lesson.phase != Phase.IDLE:
            return False
        if scene:
            self.lesson.cursor.jump(scene)
        else:
            self.lesson.cursor.start()
        return self.ready

    def lesson_key(self) -> bool:
        """Pause, resume or continue the lesson, or retry the missed questions once it is over (one key); True when
        the caller should start ``play``."""
        lesson = self.lesson
        if lesson is None:
            return False
        if lesson.phase == Phase.PLAYING and self.running:
            lesson.pause()
        elif lesson.phase == Phase.PAUSED:
            lesson.resume()
        elif lesson.phase == Phase.ENDED and not self.running:
            if not lesson.retry():  # the missed questions again, when there are any
                return False
        elif lesson.phase in (Phase.LIVE, Phase.IDLE, Phase.WAITING) and not self.running:
            step = lesson.cursor.current
            if lesson.phase == Phase.WAITING and step is not None and step.question is not None:
                return False  # an asked question waits for its answer (one not asked yet is asked now)
            lesson.go_on()
        self._lesson_changed()
        return self.ready and lesson.phase == Phase.PLAYING

    def set_pace(self, pace: Pace) -> None:
        """How fast the lecture (and the demo model) speaks from now on, mid-sentence included."""
        from maic_tui.live.lesson_talk import Pacing

        if self.lesson is not None:
            was_step_by_step = self.lesson.pacing.step_by_step
            self.lesson.pacing = Pacing.of(pace)
            if was_step_by_step and not pace.step_by_step and self.lesson.phase == Phase.PAUSED:
                self.lesson.resume()  # out of step by step: the lesson waiting for F7 plays on
        if self.session is not None:
            self.session.provider.set_pace(pace.chars_per_second)
        self._lesson_changed()

    def lesson_started(self) -> bool:
        return self.lesson is not None and self.lesson.phase != Phase.IDLE

    def jump(self, scene: int) -> bool:
        """To another scene of a started lesson (F5/F6), which plays it; True when the caller should start
        ``play``."""
        if self.lesson is None or not self.lesson_started():
            return False
        if self.running:
            self.lesson.cut()
        self.lesson.jump(scene)
        self._lesson_changed()
        return self.ready

    # --- stopping -----------------------------------------------------------------------------------------

    def can_interrupt(self) -> bool:
        voice = self.voice is not None and self.voice.busy
        return self._speaking() or bool(self.waiting) or self._lecturing() or voice

    def interrupt(self) -> Interrupted | None:
        """Stop the class speaking (the partial message stays, marked interrupted; a lecture step cut short
        plays again when the lesson goes on), and its voice at once; with the class silent, drop the queued
        messages instead (or, with those gone, silence a voice still catching up)."""
        voice = self.voice is not None and self.voice.busy
        if self.voice is not None:
            self.voice.interrupt()
        found = self._interrupt_text()
        return "voice" if found is None and voice else found

    def _interrupt_text(self) -> Interrupted | None:
        if self._lecturing():
            assert self.lesson is not None
            self.lesson.cut()
            self.lesson.cursor.learner_spoke()  # the learner has the floor until they go on
            self._emit(InterruptRecord())
            self.step_mode.release()
            return "turn"
        if self._speaking():
            assert self.session is not None
            self._emit(InterruptRecord())
            self.session.interrupt()
            self.step_mode.release()  # a decision waiting for the tester ends with the turn
            return "turn"
        if self.waiting:
            self.waiting.clear()
            self._queue_changed()
            return "queue"
        return None

    def stop(self) -> None:
        """A stop signal, or quitting: what plays ends now, closed as interrupted with its ``done``, and nothing
        more is played. Before anything played, the first message's turn still runs, ending at once: a signal
        that came while the session was being built still leaves a closed turn."""
        self.stopped = True
        del self.waiting[0 if self.running else 1:]
        self._queue_changed()
        if self.lesson is not None:
            self.lesson.cut()
        if self.session is not None:
            self.session.interrupt()
            self.session.warming.cancel()
        self.step_mode.release()

    def _speaking(self) -> bool:
        return self.running and self.session is not None and self._in_turn

    def _lecturing(self) -> bool:
        """The lesson is playing (not a learner's turn)."""
        return self.lesson is not None and self.lesson.playing

    # --- telling the client -------------------------------------------------------------------------------

    def _emit(self, record: Record) -> None:
        if self.on_record is not None:
            self.on_record(record)
        if self._voice_feed is not None:
            self._voice_feed(record)

    def _lesson_changed(self) -> None:
        if self.on_lesson is not None:
            self.on_lesson()

    def _queue_changed(self) -> None:
        if self.on_queue is not None:
            self.on_queue(tuple(message.text for message in self.waiting))

    def _problem(self, english: str, shown: str) -> None:
        if self.on_problem_recorded is not None:
            self.on_problem_recorded(english)
        elif self.on_problem is not None:
            self.on_problem(shown)
