"""The live class behind the room: building the session, sending learner messages through the turn driver,
playing turns, switching classroom or session, and quitting so that the log closes. Mixed into
``ClassroomApp``; the decisions themselves live in ``live.driver``."""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from textual import work
from textual.worker import Worker, WorkerCancelled, WorkerFailed

from maic_tui.live.assembly import SessionRecipe, build_session
from maic_tui.tui.messages import SendRequested
from maic_tui.tui.widgets.composer import Composer

if TYPE_CHECKING:
    from textual.app import App

    from maic_tui.classroom.models import Classroom
    from maic_tui.live.driver import TurnDriver
    from maic_tui.live.lesson_player import Pacing
    from maic_tui.live.session import ClassroomSession
    from maic_tui.log.records import Record
    from maic_tui.room.view import ClassroomView

    _Base = App[None]
else:
    _Base = object

QUIT_WAIT_SECONDS = 1.0  # how long quitting waits for an interrupted turn to close


class LiveClass(_Base):
    classroom: Classroom
    view: ClassroomView
    turns: TurnDriver
    recipe: SessionRecipe
    stop_code: int | None
    structured_output: str | None
    _turn_worker: Worker[None] | None

    if TYPE_CHECKING:
        @property
        def session(self) -> ClassroomSession | None: ...
        def part(self, kind: type[Composer]) -> Composer: ...
        def flush(self) -> None: ...
        def _show_cue(self) -> None: ...
        def _set_classroom(self, classroom: Classroom) -> None: ...
        def _enter_room(self) -> None: ...
        def _reset_room_state(self) -> None: ...
        def _show_title(self) -> None: ...
        def _lesson_pacing(self) -> Pacing: ...
        def _begin_lesson(self) -> None: ...
        @property
        def turn_running(self) -> bool: ...

    def _load_session(self) -> None:
        if self.recipe.replay is not None:
            # Nothing is sent in a replay, and a focused composer would take Space (pause) as typing.
            self.part(Composer).disabled = True
            self._replay()
            return
        self.part(Composer).placeholder = "Getting the class ready…  (you can type already)"
        self._build_session(self.classroom, self.recipe)

    @work(group="turn", exit_on_error=False)
    async def _replay(self) -> None:
        from maic_tui.tui.replay_player import play

        assert self.recipe.replay is not None
        await play(self, self.recipe.replay)  # type: ignore[arg-type]  # the mixin is always a ClassroomApp

    @work(thread=True, group="session", exit_on_error=False)
    def _build_session(self, classroom: Classroom, recipe: SessionRecipe) -> None:
        try:
            session = build_session(classroom, recipe)
        except Exception as exc:
            self.call_from_thread(self._session_failed, exc)
            return
        self.call_from_thread(self._session_ready, session)

    def _session_ready(self, session: ClassroomSession) -> None:
        if self.session is not None or session.classroom is not self.classroom:  # switched meanwhile
            session.close()
            return
        session.engine.on_trace = self.view.add_trace  # the director's decisions reach the trace panel live
        self.turns.attach(session, self._lesson_pacing(), with_lesson=True, open_floor_after_discussion=True)
        self._warn_if_not_recorded()
        self._show_cue()
        self._play_queue()
        self._begin_lesson()

    def _session_failed(self, error: Exception) -> None:
        self._report(f"cannot start the class: {error}")
        self.part(Composer).placeholder = "The class could not start (see the message above)."

    def on_send_requested(self, message: SendRequested) -> None:
        if not message.text.strip():
            return
        if self.recipe.replay is not None:
            self.notify("This is a replay: nothing is sent to the class.", severity="warning")
            return
        refusal = self.turns.refusal(message.text)
        if refusal is not None:  # the message stays in the composer, to be corrected
            self.notify(refusal, severity="warning", timeout=8)
            return
        if message.typed:
            self.part(Composer).sent(message.text)
        if self.turns.submit(message.text):
            self._play_queue()

    def _play_queue(self) -> None:
        if self.turns.ready and self.turns.has_work():
            self._turn_worker = self._play_turns()

    @work(group="turn", exit_on_error=False)
    async def _play_turns(self) -> None:
        self.refresh_bindings()
        try:
            await self.turns.play()
        finally:
            self.flush()
            self.refresh_bindings()

    def _on_record(self, event: Record) -> None:
        """Each record the class plays: into the view, and what needs more than a frame's catching up."""
        from maic_tui.events import AgentEndEvent, DoneEvent, ErrorEvent

        self.view.record(event)
        if isinstance(event, AgentEndEvent):  # a finished message shows in full at once
            self.flush()
        elif isinstance(event, ErrorEvent):
            self.notify(event.data.message, severity="error")
        elif isinstance(event, DoneEvent):
            if event.data.structured_output != self.structured_output:
                self.structured_output = event.data.structured_output
                self._show_title()
            self._warn_if_not_recorded()
            self.flush()
            self.refresh_bindings()

    def _warn_if_not_recorded(self) -> None:
        problem = self.session.recording_problem() if self.session is not None else None
        if problem is not None:
            self.notify(problem, severity="warning", markup=False, timeout=10)

    def _report(self, text: str) -> None:
        self.view.note(text, "error")
        self.notify(text, severity="error", markup=False)
        self.flush()

    def _can_switch(self) -> bool:
        if self.turn_running:
            self.notify("Interrupt or finish the turn before switching.", severity="warning")
        return not self.turn_running

    async def switch_classroom(self, name: str) -> None:
        if not self._can_switch():
            return
        from maic_tui.classroom import ClassroomError, load_classroom

        try:
            classroom = await asyncio.to_thread(load_classroom, name)
        except ClassroomError as exc:
            self._report(str(exc.problems[0]) if exc.problems else str(exc))
            return
        await self._reopen(classroom, replace(self.recipe, classroom_name=name, resume=None, replay=None))

    async def resume_session(self, session_id: str) -> None:
        """Reopen a recorded session as it was; it goes on being recorded under its own id. Not in a browser tab:
        the sessions on the server are other learners'."""
        if not self._can_switch() or self.recipe.data_dir is None or self.is_web:
            return
        from maic_tui.log.opening import open_recorded

        try:
            recorded = await asyncio.to_thread(open_recorded, self.recipe.data_dir, session_id)
        except ValueError as exc:  # StoreError, ClassroomError, LogError: all one line
            self._report(str(exc).splitlines()[0])
            return
        await self._reopen(recorded.classroom, replace(self.recipe, resume=recorded, replay=None))

    async def _reopen(self, classroom: Classroom, recipe: SessionRecipe) -> None:
        self.close_session()
        self.recipe = recipe
        self._set_classroom(classroom)
        self._reset_room_state()
        await self.recompose()
        self._enter_room()

    def action_new_classroom(self) -> None:
        """Generate a classroom (palette), written to ``classrooms/`` in the data directory, and open it. Not in a
        browser tab: a tab does not write files on the server."""
        if self.is_web:
            return
        from maic_tui import paths
        from maic_tui.llm import ModelOptions
        from maic_tui.tui.screens.new_classroom import NewClassroomScreen

        folder = (self.recipe.data_dir or paths.data_dir(None)) / "classrooms"

        async def opened(path: Path | None) -> None:
            if path is not None:
                await self.switch_classroom(str(path))

        screen = NewClassroomScreen(self.recipe.model, self.recipe.options or ModelOptions(), folder)
        self.push_screen(screen, opened)

    def replay_finished(self) -> None:
        """Called when a replayed log has been played to its end (the SVG export takes its picture instead)."""
        self.view.note("End of the replay.")
        self.flush()

    async def action_quit(self) -> None:
        """Quitting mid-turn first ends the turn as an interruption, so its log closes like any other."""
        worker = self._turn_worker
        if self.turns_running() and worker is not None:
            self.turns.stop()
            with contextlib.suppress(TimeoutError, WorkerCancelled, WorkerFailed):
                await asyncio.wait_for(worker.wait(), QUIT_WAIT_SECONDS)
        self.exit(return_code=self.stop_code or 0)

    def turns_running(self) -> bool:
        return hasattr(self, "turns") and self.turns.running

    def close_session(self) -> None:
        """Write what the log writer still holds; the app calls this before it drops or ends a session."""
        session = self.session
        if session is not None:
            self.turns.session = None
            session.close()
