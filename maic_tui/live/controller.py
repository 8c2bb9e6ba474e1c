"""The learner's side of a live session, for a client such as the app: messages wait in a queue while the
class speaks and are played one turn after another, and the view follows every event.

Headless on purpose: the app drives it (``submit``, ``play_queue``, ``interrupt``) and observes it (the
``on_*`` callbacks), so everything it decides is tested without a terminal.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from typing import TYPE_CHECKING, Literal

from maic_tui.bad_input import BadInput
from maic_tui.live.lesson_cursor import Phase
from maic_tui.log.records import LearnerRecord, LessonEndRecord, QuizResultRecord, Record, StepRecord
from maic_tui.text_safety import one_line

if TYPE_CHECKING:
    from maic_tui.live.lesson_player import LessonPlayer, Pacing
    from maic_tui.live.session import ClassroomSession
    from maic_tui.room.view import ClassroomView

Interrupted = Literal["turn", "queue"]


class ClassroomController:
    def __init__(self, view: ClassroomView) -> None:
        self.view = view
        self.session: ClassroomSession | None = None
        self.waiting: list[str] = []
        self.running = False  # a turn is being played (or the queue is being worked through)
        self.on_event: Callable[[Record], None] | None = None  # after the view has taken the event or record
        self.on_queue: Callable[[tuple[str, ...]], None] | None = None  # the waiting messages changed
        self.on_problem: Callable[[str], None] | None = None  # a message that could not be played
        self.on_lesson: Callable[[], None] | None = None  # the lesson moved, paused, waits or ended
        self.lesson: LessonPlayer | None = None  # the classroom's lesson, once the session is attached

    def attach(self, session: ClassroomSession, pacing: Pacing | None = None) -> None:
        """The session is ready (the app builds it in a thread): its director decisions reach the view live, and
        a classroom with scenes has its lesson (played by ``play_queue`` once started)."""
        from maic_tui.live.lesson_player import LessonPlayer

        self.session = session
        session.engine.on_trace = self.view.add_trace
        if session.classroom.scenes:
            self.lesson = LessonPlayer(session, pacing, open_floor_after_discussion=True)

    def start_lesson(self) -> bool:
        """Begin the lesson (a new session; a resumed one waits for the learner to go on); True when the caller
        should start ``play_queue`` now."""
        if self.lesson is None or self.lesson.phase != Phase.IDLE:
            return False
        self.lesson.cursor.start()
        return self.ready

    def lesson_key(self) -> bool:
        """Pause, resume or continue the lesson (one key); True when the caller should start ``play_queue``."""
        lesson = self.lesson
        if lesson is None:
            return False
        if lesson.phase == Phase.PLAYING and self.running:
            lesson.pause()
        elif lesson.phase == Phase.PAUSED:
            lesson.resume()
        elif lesson.phase in (Phase.LIVE, Phase.IDLE, Phase.WAITING) and not self.running:
            step = lesson.cursor.current
            if step is not None and step.question is not None:  # a question waits for its answer
                return False
            lesson.go_on()
        self._lesson_changed()
        return self.ready and lesson.phase == Phase.PLAYING

    def lesson_started(self) -> bool:
        return self.lesson is not None and self.lesson.phase != Phase.IDLE

    def jump(self, scene: int) -> bool:
        """To another scene of a started lesson (F5/F6), which plays it; True when the caller should start
        ``play_queue``."""
        if self.lesson is None or not self.lesson_started():
            return False
        if self.running:
            self.lesson.cut()
        self.lesson.jump(scene)
        self._lesson_changed()
        return self.ready

    @property
    def ready(self) -> bool:
        """A new message would be played at once."""
        return self.session is not None and not self.running

    def has_work(self) -> bool:
        """Messages wait, or the lesson plays."""
        return bool(self.waiting) or (self.lesson is not None and self.lesson.phase in (Phase.PLAYING, Phase.PAUSED))

    def refusal(self, text: str) -> str | None:
        """Why a message cannot be played (an ``@name`` not in the class), before it leaves the composer."""
        from maic_tui.orchestration.mentions import mentioned_agent

        try:
            mentioned_agent(self.view.classroom.agents, text)
        except BadInput as exc:
            return exc.lines[0]
        return None

    def submit(self, text: str) -> bool:
        """Queue a learner message; True when the caller should start ``play_queue`` now. A lecture being read
        stops at the end of its step, then the message is played."""
        text = text.strip()
        if not text:
            return False
        self.waiting.append(text)
        self._queue_changed()
        if self.lesson is not None and self.running:
            self.lesson.hold()
        return self.ready

    async def play_queue(self) -> None:
        """Play the waiting messages, one turn each, and the lesson while it plays, until neither has anything
        left (nothing if they are already being played)."""
        if not self.ready:
            return
        self.running = True
        try:
            while self.session is not None:
                if self.waiting:
                    text = self.waiting.pop(0)
                    self._queue_changed()
                    await self._play(self.session, text)
                elif self.lesson is not None and self.lesson.phase in (Phase.PLAYING, Phase.PAUSED):
                    await self._show(self.lesson.play())
                else:
                    break
                self._lesson_changed()
        finally:
            self.running = False
            self._lesson_changed()

    async def _play(self, session: ClassroomSession, text: str) -> None:
        try:
            session.check_message(text)
        except BadInput as exc:  # an @name that is not in the class
            self._problem(exc.lines[0])
            return
        self.view.learner(text)
        await self._show(self.lesson.learner(text) if self.lesson is not None else session.turn(text))

    async def _show(self, records: AsyncIterator[Record]) -> None:
        try:
            async for record in records:
                if isinstance(record, LearnerRecord):  # the learner's answer, already shown as it was sent
                    continue
                self.view.record(record)
                if self.on_event is not None:
                    self.on_event(record)
                if isinstance(record, StepRecord | LessonEndRecord | QuizResultRecord):
                    self._lesson_changed()
        except Exception as exc:  # the engine ends every turn itself; this is the last line of defence
            self._problem(f"the turn failed: {one_line(str(exc), 200) or 'no details'}")

    def can_interrupt(self) -> bool:
        return self._speaking() or bool(self.waiting) or self._lecturing()

    def interrupt(self) -> Interrupted | None:
        """Stop the class speaking (the partial message stays, marked interrupted; a lecture step cut short
        plays again when the lesson goes on); with the class silent, drop the queued messages instead."""
        if self._lecturing():
            assert self.lesson is not None
            self.lesson.cut()
            self.lesson.cursor.learner_spoke()  # the learner has the floor until they go on
            self.view.request_interrupt()
            return "turn"
        if self._speaking():
            assert self.session is not None
            self.view.request_interrupt()
            self.session.interrupt()
            return "turn"
        if self.waiting:
            self.waiting.clear()
            self._queue_changed()
            return "queue"
        return None

    def _speaking(self) -> bool:
        # Between two turns the view's turn is over: an interruption then would hit the next turn.
        return self.running and self.session is not None and self.view.turn_active

    def _lecturing(self) -> bool:
        """The lesson is playing (not a learner's turn)."""
        return self.lesson is not None and self.lesson.playing

    def _lesson_changed(self) -> None:
        if self.on_lesson is not None:
            self.on_lesson()

    def _queue_changed(self) -> None:
        if self.on_queue is not None:
            self.on_queue(tuple(self.waiting))

    def _problem(self, text: str) -> None:
        if self.on_problem is not None:
            self.on_problem(text)
