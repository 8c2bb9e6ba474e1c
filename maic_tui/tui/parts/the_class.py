"""The class open in the room (ARCHITECTURE.md, *The app*): one classroom with its recipe, the view model
(``view``, everything the room shows) and the turn driver (``turns``: the queue, the lesson, interrupting); the
session behind them, built in a thread; learner messages sent through the driver; the lesson's and step mode's
keys and the scenes; a replayed log; and closing the turn before the app leaves. The room's screen makes one for
each classroom or session it shows. It reaches the widgets only through the view model, which the screen copies
into them once a frame (``catch_up`` does it at once)."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import time
from functools import partial
from typing import TYPE_CHECKING, Literal, Protocol

from textual.worker import Worker, WorkerCancelled, WorkerFailed

from maic_tui.bad_input import BadInput
from maic_tui.i18n import N_, _, ngettext
from maic_tui.live.assembly import SessionRecipe, build_session
from maic_tui.llm.pace import Pace
from maic_tui.llm.spec import shown_model
from maic_tui.text_safety import one_line
from maic_tui.tui.messages import ClassReady, ReplayFinished

if TYPE_CHECKING:

    from textual.screen import Screen

    from maic_tui.classroom.models import Classroom
    from maic_tui.live.lesson_talk import Pacing
    from maic_tui.live.session import ClassroomSession
    from maic_tui.log.playback import LogPlayer
    from maic_tui.log.records import Record
    from maic_tui.scenes.live_state import SceneChange

QUIT_WAIT_SECONDS = 1.0  # how long leaving waits for an interrupted turn to close
# Said once, first: the offline demo is not a model, and people should know what to expect and how to get one.
DEMO_NOTE = N_("Offline demo: the class answers from this lesson's prepared material. For a real model: "
               "--model openai:NAME (see README).")


class CatchUp(Protocol):
    """The room's widgets catching up with the view model (``RoomScreen.flush``)."""

    def __call__(self, after_work: bool = False) -> None: ...


class TheClass:
    def __init__(self, classroom: Classroom, recipe: SessionRecipe, screen: Screen[None],
                 catch_up: CatchUp) -> None:
        from maic_tui.live.driver import TurnDriver
        from maic_tui.room.view import ClassroomView

        self.classroom, self.recipe = classroom, recipe
        self._screen, self.catch_up = screen, catch_up
        resumed = recipe.resume
        self.view = resumed.rebuilt.view if resumed is not None else ClassroomView(classroom)
        self.view.dirty = set(range(len(self.view.entries)))  # a resumed transcript is drawn in full
        self.turns = TurnDriver(classroom)
        self.turns.on_record = self._on_record
        self.turns.on_queue = self._on_queue
        self.turns.on_problem = self.report
        self.turns.on_lesson = self._on_lesson
        self.turns.step_mode.on_change = self._on_step
        self.replaying = False  # a recorded log is being played into the room
        self.log_player: LogPlayer | None = None  # a replay's player, once it plays
        self._turn_worker: Worker[None] | None = None
        self._closed = False  # the room moved on: a session built for this class after that is closed at once
        self.worked_at = -1.0  # when the learner last changed a scene widget (``time.monotonic``)

    def welcome(self) -> None:
        """What the room says first: a resumed session's place, or the class's description and example questions."""
        self.show_title()
        resumed = self.recipe.resume
        if resumed is not None:
            from maic_tui.log.progress import progress_of

            turns = sum(1 for item in resumed.records if item.record.type == "learner")
            rebuilt, where = resumed.rebuilt, ""
            if rebuilt.lesson_at is not None or rebuilt.lesson_ended:
                earned = {result.question_id: result.earned for result in rebuilt.quiz_results}
                scene = rebuilt.lesson_at[0] if rebuilt.lesson_at is not None else 0
                where = f" · {progress_of(resumed.classroom, scene, earned, rebuilt.lesson_ended).words()}"
            self.view.note(ngettext("Resumed session {id} ({count} turn so far{where}).",
                                    "Resumed session {id} ({count} turns so far{where}).", turns).format(
                id=resumed.info.id, count=turns, where=where))
            for line in resumed.skipped:
                self.view.note(line, "error")
            return
        if self.recipe.replay is not None:
            return
        from maic_tui.events import CueUserData

        classroom = self.classroom
        if self.recipe.model == "demo":
            self.view.note(_(DEMO_NOTE))
        self.view.note(classroom.description or classroom.title)
        questions = [answer.question for answer in classroom.demo.answers][:4]
        if len(questions) >= 2 and not (self.recipe.lesson and classroom.scenes):  # a lesson starts instead
            self.view.cue = CueUserData(prompt=_("Ask anything, or pick a question (Tab, then Enter)"),
                                        options=questions)

    def show_title(self) -> None:
        app = self._screen.app
        app.title = one_line(self.classroom.title, 120)
        model = shown_model(self.recipe.model)
        mode = f" · {self.view.structured_output}" if self.view.structured_output else ""
        app.sub_title = one_line(f"{model}{mode} · {self.classroom.learner.nickname}", 120)

    # --- the session -------------------------------------------------------------------------------------

    @property
    def session(self) -> ClassroomSession | None:
        return self.turns.session

    @property
    def turn_running(self) -> bool:
        return self.replaying or self.turns.running

    def stoppable(self) -> bool:
        return self.turns.can_interrupt() and not self.replaying

    def load_session(self) -> None:
        if self.recipe.replay is not None:
            self._screen.run_worker(self._replay(), group="turn", exit_on_error=False)
            return
        self.view.notice = _("Getting the class ready…  (you can type already)")
        self._screen.run_worker(partial(self._build_session, self.classroom, self.recipe), group="session",
                                thread=True, exit_on_error=False)

    def _build_session(self, classroom: Classroom, recipe: SessionRecipe) -> None:
        app = self._screen.app
        try:
            session = build_session(classroom, recipe)
        except Exception as exc:
            app.call_from_thread(self._session_failed, exc)
            return
        app.call_from_thread(self._session_ready, session)

    def _session_ready(self, session: ClassroomSession) -> None:
        if self.session is not None or self._closed:
            session.close()
            return
        session.engine.on_trace = self.view.add_trace  # the director's decisions reach the trace panel live
        self.turns.attach(session, self._lesson_pacing(), with_lesson=True)
        self.view.notice = None
        self._warn_if_not_recorded()
        self._screen.post_message(ClassReady())  # what an LRS that was away missed goes now
        if not gc.get_freeze_count():
            # What the app has built so far (modules, the classroom, the session) lives as long as the app: left
            # to the collector, each full collection walks it all, a pause of 100-150 ms that stalls a frame.
            gc.freeze()
        self.play_queue()
        if self.recipe.lesson and self.recipe.resume is None and self.turns.start_lesson(self.view.scene_index):
            self.play_queue()  # a new session plays its lesson at once; a resumed one waits (F7)
        self._on_lesson()

    def _session_failed(self, error: Exception) -> None:
        self.report(_("cannot start the class: {error}").format(error=error))
        self.view.notice = _("The class could not start (see the message above).")

    def _lesson_pacing(self) -> Pacing:
        from maic_tui.live.lesson_talk import Pacing

        return Pacing.of(Pace(self.recipe.options.pace if self.recipe.options is not None else 0.0))

    def close_session(self) -> str | None:
        """Write what the log writer still holds; called before the class is dropped or the app ends. Returns the
        session's id when it has records in the store."""
        session = self.session
        self._closed = True
        if session is None:
            return None
        self.turns.session = None
        session.close()
        return session.log.session_id if session.log is not None and session.log.stored else None

    # --- sending and playing ---------------------------------------------------------------------------

    def send(self, text: str, typed: bool) -> None:
        if not text.strip():
            return
        if self.recipe.replay is not None:
            self._screen.notify(_("This is a replay: nothing is sent to the class."), severity="warning")
            return
        try:
            said = self.turns.read(text)
        except BadInput as refused:  # the message stays in the composer, to be corrected
            self._screen.notify(refused.lines[0], severity="warning", timeout=8)
            return
        if typed:
            from maic_tui.tui.widgets.composer import Composer

            self._screen.query_one(Composer).sent(text)
        if self.turns.submit(said):
            self.play_queue()

    def work(self, scene: int, change: SceneChange) -> None:
        """A change the learner made with a scene widget's keys: recorded and shown, no turn opened (Enter in the
        widget sends it as a message, which opens one)."""
        if self.recipe.replay is not None:
            self._screen.notify(_("This is a replay: nothing is sent to the class."), severity="warning")
            return
        refused = self.turns.work(scene, change)
        if refused is not None:
            self._screen.notify(refused, severity="warning", timeout=6)
        else:  # the pane redraws now, not at the next frame: the learner's own keys
            from maic_tui.tui.widgets.board_pane import BoardPane

            self.worked_at = time.monotonic()
            self._screen.query_one(BoardPane).sync(self.view)
            self._screen.call_after_refresh(self.catch_up, True)  # the transcript's turn, once the widget is drawn

    def play_queue(self) -> None:
        if self.turns.ready and self.turns.has_work():
            self._turn_worker = self._screen.run_worker(self._play_turns(), group="turn", exit_on_error=False)

    async def _play_turns(self) -> None:
        self._screen.refresh_bindings()
        try:
            await self.turns.play()
        finally:
            self.catch_up()
            self._screen.refresh_bindings()

    def _on_record(self, record: Record) -> None:
        """Each record the class plays: into the view model, and what needs more than a frame's catching up."""
        from maic_tui.events import AgentEndEvent, DoneEvent, ErrorEvent

        self.view.record(record)
        if isinstance(record, AgentEndEvent):  # a finished message shows in full at once
            self.catch_up()
        elif isinstance(record, ErrorEvent):
            from maic_tui.llm.errors import shown_failure

            self._screen.notify(shown_failure(record.data.message), severity="error")
        elif isinstance(record, DoneEvent):
            self._warn_if_not_recorded()
            self.catch_up()
            self._screen.refresh_bindings()

    def _on_queue(self, waiting: tuple[str, ...]) -> None:
        self.view.queue = waiting

    def _on_lesson(self) -> None:
        lesson, state = self.turns.lesson, self.view.lesson
        if lesson is not None and state is not None:
            state.phase, state.running, state.pace = lesson.phase, self.turns.running, lesson.pacing.pace
        self._screen.refresh_bindings()

    def lesson_shown(self) -> bool:
        """The lesson line shows once the lesson is there (a live class) or a replay plays one."""
        return self.turns.lesson is not None or self.recipe.replay is not None

    def _warn_if_not_recorded(self) -> None:
        problem = self.session.recording_problem() if self.session is not None else None
        if problem is not None:
            self._screen.notify(problem, severity="warning", markup=False, timeout=10)

    def report(self, text: str) -> None:
        self.view.note(text, "error")
        self._screen.notify(text, severity="error", markup=False)
        self.catch_up()

    def interrupt(self) -> None:
        self.turns.interrupt()

    # --- step mode (ARCHITECTURE.md, *The routing workbench*) ------------------------------------------

    def toggle_step_mode(self) -> None:
        on = self.turns.step_mode.toggle()
        self._screen.notify(_("Step mode on: the class waits before each decision.") if on else _("Step mode off."),
                            timeout=3)

    def _on_step(self) -> None:
        self.view.stepping, self.view.decision_card = self.turns.step_mode.on, self.turns.step_mode.card
        self.catch_up()

    def decision_key(self, key: str) -> None:
        self.turns.step_mode.key(key)

    # --- the lesson's keys and the scenes --------------------------------------------------------------

    def lesson_key(self) -> None:
        if self.turns.lesson_key():
            self.play_queue()
        self._on_lesson()

    def control(self, muted: frozenset[str] | None = None, max_agents: int | Literal["keep"] | None = "keep") -> None:
        """Mute, solo, everyone, agents per turn (the palette, a persona card): from the next turn on."""
        refusal = self.turns.control(muted, max_agents)
        if refusal is not None:
            self._screen.notify(refusal, severity="warning", markup=False)
        self.catch_up()

    def set_pace(self, slower: bool) -> None:
        lesson = self.turns.lesson
        if lesson is None:
            return
        pace = lesson.pacing.pace.slower() if slower else lesson.pacing.pace.faster()
        self.turns.set_pace(pace)
        self._screen.notify(_("Pace: {pace}").format(pace=pace.words()), timeout=2, markup=False)

    def go_to_scene(self, index: int) -> bool:
        """A started lesson plays that scene from its first step; otherwise the slide is shown and agents see it
        from their next turn. False: there is no such scene."""
        if not 0 <= index < len(self.classroom.scenes):
            return False
        if self.turns.lesson_started():
            if self.turns.jump(index):
                self.play_queue()
            self._on_lesson()
        elif self.view.change_scene(index) and self.session is not None:
            self.session.change_scene(index)
        return True

    # --- a replayed log ------------------------------------------------------------------------------------

    async def _replay(self) -> None:
        from maic_tui.log.playback import LogPlayer
        from maic_tui.tui.replay_player import play

        replay = self.recipe.replay
        assert replay is not None
        self.log_player = LogPlayer(replay.records, replay.speed)
        self.replaying = True
        self._screen.refresh_bindings()
        try:
            await play(self.view, self.log_player, replay.source, self.catch_up)
        finally:
            self.replaying = False
            self.catch_up()
            self._screen.refresh_bindings()
            self._replay_finished()

    def _replay_finished(self) -> None:
        """A replayed log has been played to its end: said, and told to the app (the SVG export takes its picture)."""
        self.view.note(_("End of the replay."))
        self.catch_up()
        self._screen.post_message(ReplayFinished())

    def can_pause_replay(self) -> bool:
        return self.replaying and self.log_player is not None

    def pause_replay(self) -> None:
        from maic_tui.tui.replay_player import progress_line

        replay, player = self.recipe.replay, self.log_player
        if replay is not None and player is not None:
            player.toggle_pause()
            self.view.replay = progress_line(replay.source, player, self.replaying)
            self.catch_up()

    # --- leaving -------------------------------------------------------------------------------------------

    async def close_turn(self) -> None:
        """Before the app leaves: the turn that plays ends as an interruption, so its log closes like any other."""
        worker = self._turn_worker
        if self.turns.running and worker is not None:
            self.turns.stop()
            with contextlib.suppress(TimeoutError, WorkerCancelled, WorkerFailed):
                await asyncio.wait_for(worker.wait(), QUIT_WAIT_SECONDS)
