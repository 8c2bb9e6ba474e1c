"""The learner's side of a live session, for a client such as the app: messages wait in a queue while the
class speaks and are played one turn after another, and the view follows every event.

Headless on purpose: the app drives it (``submit``, ``play_queue``, ``interrupt``) and observes it (the
``on_*`` callbacks), so everything it decides is tested without a terminal.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Literal

from maic_tui.bad_input import BadInput
from maic_tui.text_safety import one_line

if TYPE_CHECKING:
    from maic_tui.events import Event
    from maic_tui.session.classroom_session import ClassroomSession
    from maic_tui.session.classroom_view import ClassroomView

Interrupted = Literal["turn", "queue"]


class ClassroomController:
    def __init__(self, view: ClassroomView) -> None:
        self.view = view
        self.session: ClassroomSession | None = None
        self.waiting: list[str] = []
        self.running = False  # a turn is being played (or the queue is being worked through)
        self.on_event: Callable[[Event], None] | None = None  # after the view has taken the event
        self.on_queue: Callable[[tuple[str, ...]], None] | None = None  # the waiting messages changed
        self.on_problem: Callable[[str], None] | None = None  # a message that could not be played

    def attach(self, session: ClassroomSession) -> None:
        """The session is ready (the app builds it in a thread): its director decisions reach the view live."""
        self.session = session
        session.engine.on_trace = self.view.add_trace

    @property
    def ready(self) -> bool:
        """A new message would be played at once."""
        return self.session is not None and not self.running

    def refusal(self, text: str) -> str | None:
        """Why a message cannot be played (an ``@name`` not in the class), before it leaves the composer."""
        from maic_tui.orchestration.mentions import mentioned_agent

        try:
            mentioned_agent(self.view.classroom.agents, text)
        except BadInput as exc:
            return exc.lines[0]
        return None

    def submit(self, text: str) -> bool:
        """Queue a learner message; True when the caller should start ``play_queue`` now."""
        text = text.strip()
        if not text:
            return False
        self.waiting.append(text)
        self._queue_changed()
        return self.ready

    async def play_queue(self) -> None:
        """Play the waiting messages, one turn each, until none is left (nothing if a turn is already on)."""
        if not self.ready:
            return
        self.running = True
        try:
            while self.waiting and self.session is not None:
                text = self.waiting.pop(0)
                self._queue_changed()
                await self._play(self.session, text)
        finally:
            self.running = False

    async def _play(self, session: ClassroomSession, text: str) -> None:
        try:
            session.check_message(text)
        except BadInput as exc:  # an @name that is not in the class
            self._problem(exc.lines[0])
            return
        self.view.learner(text)
        try:
            async for event in session.turn(text):
                self.view.apply(event)
                if self.on_event is not None:
                    self.on_event(event)
        except Exception as exc:  # the engine ends every turn itself; this is the last line of defence
            self._problem(f"the turn failed: {one_line(str(exc), 200) or 'no details'}")

    def can_interrupt(self) -> bool:
        return self._speaking() or bool(self.waiting)

    def interrupt(self) -> Interrupted | None:
        """Stop the class speaking (the partial message stays, marked interrupted); with the class silent,
        drop the queued messages instead."""
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

    def _queue_changed(self) -> None:
        if self.on_queue is not None:
            self.on_queue(tuple(self.waiting))

    def _problem(self, text: str) -> None:
        if self.on_problem is not None:
            self.on_problem(text)
