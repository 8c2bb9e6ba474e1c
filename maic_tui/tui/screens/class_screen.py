"""What the room's screen does with the class, apart from drawing it: the classroom and the session behind it (built
in a thread), learner messages sent through the turn driver, the lesson's keys and scenes, switching classroom or
session, replaying a log, and leaving so that the log closes. ``RoomScreen`` adds the layout and the widgets, and
implements the two hooks declared here (``show_room``, ``rebuild_room``); everything else reaches the widgets
through the view model."""

from __future__ import annotations

import asyncio
import contextlib
from typing import TYPE_CHECKING, Literal

from textual import work
from textual.worker import Worker, WorkerCancelled, WorkerFailed

from maic_tui.bad_input import BadInput
from maic_tui.live.assembly import SessionRecipe, build_session
from maic_tui.llm.pace import Pace
from maic_tui.llm.spec import shown_model
from maic_tui.text_safety import one_line
from maic_tui.tui.messages import DecisionKey, PersonaRequested, ReplayFinished, ScrollRequested, SendRequested
from maic_tui.tui.screens.recording import RecordingScreen

if TYPE_CHECKING:
    from collections.abc import Callable

    from maic_tui.classroom.models import Classroom
    from maic_tui.live.driver import TurnDriver
    from maic_tui.live.lesson_talk import Pacing
    from maic_tui.live.session import ClassroomSession
    from maic_tui.log.playback import LogPlayer
    from maic_tui.log.records import Record
    from maic_tui.room.view import ClassroomView

    Opener = Callable[[], "tuple[Classroom, SessionRecipe]"]

QUIT_WAIT_SECONDS = 1.0  # how long leaving waits for an interrupted turn to close
# Said once, first: the offline demo is not a model, and people should know what to expect and how to get one.
DEMO_NOTE = ("Offline demo: the class answers from this lesson's prepared material. For a real model: "
             "--model openai:NAME (see README).")


class ClassScreen(RecordingScreen):
    classroom: Classroom
    view: ClassroomView  # everything the room shows
    turns: TurnDriver  # the queue, the lesson, interrupting

    def __init__(self, *, id: str) -> None:
        super().__init__(id=id)
        self.recipe = SessionRecipe()
        self.replaying = False  # a recorded log is being played into the room
        self.startup_error: Exception | None = None  # why the classroom could not be opened
        self._turn_worker: Worker[None] | None = None
        self.log_player: LogPlayer | None = None  # a replay's player, once it plays
        self.last_recorded: str | None = None  # the id of the last session closed with records in the store

    # --- the hooks the room implements ---------------------------------------------------------------

    async def show_room(self) -> None:
        raise NotImplementedError

    async def rebuild_room(self) -> None:
        raise NotImplementedError

    def flush(self) -> None:
        raise NotImplementedError

    # --- the classroom ---------------------------------------------------------------------------------

    @property
    def is_open(self) -> bool:
        """Whether the classroom is loaded (with an opener, not until shortly after the first frame)."""
        return hasattr(self, "view")

    def set_classroom(self, classroom: Classroom, recipe: SessionRecipe) -> None:
        from maic_tui.live.driver import TurnDriver
        from maic_tui.room.view import ClassroomView

        self.classroom, self.recipe = classroom, recipe
        resumed = recipe.resume
        self.view = resumed.rebuilt.view if resumed is not None else ClassroomView(classroom)
        self.view.dirty = set(range(len(self.view.entries)))  # a resumed transcript is drawn in full
        previous = getattr(self, "turns", None)
        self.turns = TurnDriver(classroom)
        self._give_voice(classroom, recipe, previous)
        self.turns.on_record = self._on_record
        self.turns.on_queue = self._on_queue
        self.turns.on_problem = self.report
        self.turns.on_lesson = self._on_lesson
        self.turns.step_mode.on_change = self._on_step

    def open_with(self, opener: Opener) -> None:
        """Check the classroom file and settings in a thread; the room shows once they are."""
        self._open(opener)

    @work(thread=True, group="open", exit_on_error=False)
    def _open(self, opener: Opener) -> None:
        try:
            classroom, recipe = opener()
        except Exception as exc:  # a broken classroom file or config: exit 2 with its lines
            self.app.call_from_thread(self._open_failed, exc)
            return
        self.app.call_from_thread(self._opened, classroom, recipe)  # type: ignore[arg-type]  # awaits a coroutine

    def _open_failed(self, error: Exception) -> None:
        self.startup_error = error
        self.app.exit(return_code=2)

    async def _opened(self, classroom: Classroom, recipe: SessionRecipe) -> None:
        self.set_classroom(classroom, recipe)
        await self.show_room()

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
            self.view.note(f"Resumed session {resumed.info.id} ({turns} turn{'' if turns == 1 else 's'} so far"
                           f"{where}).")
            for line in resumed.skipped:
                self.view.note(line, "error")
            return
        if self.recipe.replay is not None:
            return
        from maic_tui.events import CueUserData

        classroom = self.classroom
        if self.recipe.model == "demo":
            self.view.note(DEMO_NOTE)
        self.view.note(classroom.description or classroom.title)
        questions = [answer.question for answer in classroom.demo.answers][:4]
        if len(questions) >= 2 and not (self.recipe.lesson and classroom.scenes):  # a lesson starts instead
            self.view.cue = CueUserData(prompt="Ask anything, or pick a question (Tab, then Enter)", options=questions)

    def show_title(self) -> None:
        self.app.title = one_line(self.classroom.title, 120)
        model = shown_model(self.recipe.model)
        mode = f" · {self.view.structured_output}" if self.view.structured_output else ""
        self.app.sub_title = one_line(f"{model}{mode} · {self.classroom.learner.nickname}", 120)

    # --- the session -------------------------------------------------------------------------------------

    @property
    def session(self) -> ClassroomSession | None:
        return self.turns.session if self.is_open else None

    @property
    def turn_running(self) -> bool:
        return self.replaying or (self.is_open and self.turns.running)

    def stoppable(self) -> bool:
        return self.turns.can_interrupt() and not self.replaying

    def load_session(self) -> None:
        if self.recipe.replay is not None:
            self._replay()
            return
        self.view.notice = "Getting the class ready…  (you can type already)"
        self._build_session(self.classroom, self.recipe)

    @work(thread=True, group="session", exit_on_error=False)
    def _build_session(self, classroom: Classroom, recipe: SessionRecipe) -> None:
        try:
            session = build_session(classroom, recipe)
        except Exception as exc:
            self.app.call_from_thread(self._session_failed, exc)
            return
        self.app.call_from_thread(self._session_ready, session)

    def _session_ready(self, session: ClassroomSession) -> None:
        if self.session is not None or session.classroom is not self.classroom:  # switched meanwhile
            session.close()
            return
        session.engine.on_trace = self.view.add_trace  # the director's decisions reach the trace panel live
        self.turns.attach(session, self._lesson_pacing(), with_lesson=True)
        self.view.notice = None
        self._warn_if_not_recorded()
        self.records_waiting()  # what an LRS that was away missed goes now
        self._play_queue()
        if self.recipe.lesson and self.recipe.resume is None and self.turns.start_lesson(self.view.scene_index):
            self._play_queue()  # a new session plays its lesson at once; a resumed one waits (F7)
        self._on_lesson()

    def _session_failed(self, error: Exception) -> None:
        self.report(f"cannot start the class: {error}")
        self.view.notice = "The class could not start (see the message above)."

    def _lesson_pacing(self) -> Pacing:
        from maic_tui.live.lesson_talk import Pacing

        return Pacing.of(Pace(self.recipe.options.pace if self.recipe.options is not None else 0.0))

    def close_session(self) -> None:
        """Write what the log writer still holds; called before a session is dropped or the app ends."""
        session = self.session
        if session is not None:
            self.turns.session = None
            session.close()
            if session.log is not None and session.log.stored:
                self.last_recorded = session.log.session_id

    # --- sending and playing ---------------------------------------------------------------------------

    def on_send_requested(self, message: SendRequested) -> None:
        if not message.text.strip() or not self.is_open:
            return
        if self.recipe.replay is not None:
            self.notify("This is a replay: nothing is sent to the class.", severity="warning")
            return
        try:
            said = self.turns.read(message.text)
        except BadInput as refused:  # the message stays in the composer, to be corrected
            self.notify(refused.lines[0], severity="warning", timeout=8)
            return
        if message.typed:
            from maic_tui.tui.widgets.composer import Composer

            self.query_one(Composer).sent(message.text)
        if self.turns.submit(said):
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

    def _on_record(self, record: Record) -> None:
        """Each record the class plays: into the view model, and what needs more than a frame's catching up."""
        from maic_tui.events import AgentEndEvent, DoneEvent, ErrorEvent

        self.view.record(record)
        if isinstance(record, AgentEndEvent):  # a finished message shows in full at once
            self.flush()
        elif isinstance(record, ErrorEvent):
            self.notify(record.data.message, severity="error")
        elif isinstance(record, DoneEvent):
            self._warn_if_not_recorded()
            self.flush()
            self.refresh_bindings()

    def _on_queue(self, waiting: tuple[str, ...]) -> None:
        self.view.queue = waiting

    def _on_lesson(self) -> None:
        lesson, state = self.turns.lesson, self.view.lesson
        if lesson is not None and state is not None:
            state.phase, state.running, state.pace = lesson.phase, self.turns.running, lesson.pacing.pace
        self.refresh_bindings()

    def lesson_shown(self) -> bool:
        """The lesson line shows once the lesson is there (a live class) or a replay plays one."""
        return self.turns.lesson is not None or self.recipe.replay is not None

    def _warn_if_not_recorded(self) -> None:
        problem = self.session.recording_problem() if self.session is not None else None
        if problem is not None:
            self.notify(problem, severity="warning", markup=False, timeout=10)

    def report(self, text: str) -> None:
        self.view.note(text, "error")
        self.notify(text, severity="error", markup=False)
        self.flush()

    def action_interrupt(self) -> None:
        self.turns.interrupt()

    # --- step mode (ARCHITECTURE.md, *The routing workbench*) ------------------------------------------

    def action_step_mode(self) -> None:
        on = self.turns.step_mode.toggle()
        self.notify("Step mode on: the class waits before each decision." if on else "Step mode off.", timeout=3)

    def _on_step(self) -> None:
        self.view.stepping, self.view.decision_card = self.turns.step_mode.on, self.turns.step_mode.card
        self.flush()

    def on_decision_key(self, message: DecisionKey) -> None:
        self.turns.step_mode.key(message.key)

    # --- the lesson's keys and the scenes --------------------------------------------------------------

    def action_lesson(self) -> None:
        if self.turns.lesson_key():
            self._play_queue()
        self._on_lesson()

    def control_class(self, muted: frozenset[str] | None = None, max_agents: int | Literal["keep"] | None = "keep",
                      ) -> None:
        """Mute, solo, everyone, agents per turn (the palette, a persona card): from the next turn on."""
        refusal = self.turns.control(muted, max_agents)
        if refusal is not None:
            self.notify(refusal, severity="warning", markup=False)
        self.flush()

    def action_slower(self) -> None:
        self._set_pace(slower=True)

    def action_faster(self) -> None:
        self._set_pace(slower=False)

    def _set_pace(self, slower: bool) -> None:
        lesson = self.turns.lesson
        if lesson is None:
            return
        pace = lesson.pacing.pace.slower() if slower else lesson.pacing.pace.faster()
        self.turns.set_pace(pace)
        self.notify(f"Pace: {pace.words()}", timeout=2, markup=False)

    def action_next_scene(self) -> None:
        self.go_to_scene(self.view.scene_index + 1)

    def action_previous_scene(self) -> None:
        self.go_to_scene(self.view.scene_index - 1)

    def go_to_scene(self, index: int) -> None:
        """A started lesson plays that scene from its first step; otherwise the slide is shown and agents see it
        from their next turn."""
        if not 0 <= index < len(self.classroom.scenes):
            return
        if self.turns.lesson_started():
            if self.turns.jump(index):
                self._play_queue()
            self._on_lesson()
        elif self.view.change_scene(index) and self.session is not None:
            self.session.change_scene(index)
        self.show_slide()
        self.flush()

    def show_slide(self) -> None:
        raise NotImplementedError

    def scroll_transcript(self, pages: int) -> None:
        raise NotImplementedError

    def show_persona(self, agent_id: str) -> None:
        raise NotImplementedError

    def on_scroll_requested(self, message: ScrollRequested) -> None:
        self.scroll_transcript(message.pages)

    def on_persona_requested(self, message: PersonaRequested) -> None:
        self.show_persona(message.agent_id)

    # --- a replayed log ------------------------------------------------------------------------------------

    @work(group="turn", exit_on_error=False)
    async def _replay(self) -> None:
        from maic_tui.log.playback import LogPlayer
        from maic_tui.tui.replay_player import play

        replay = self.recipe.replay
        assert replay is not None
        self.log_player = LogPlayer(replay.records, replay.speed)
        self.replaying = True
        self.refresh_bindings()
        try:
            await play(self.view, self.log_player, replay.source, self.flush)
        finally:
            self.replaying = False
            self.flush()
            self.refresh_bindings()
            self.replay_finished()

    def replay_finished(self) -> None:
        """A replayed log has been played to its end: said, and told to the app (the SVG export takes its picture)."""
        self.view.note("End of the replay.")
        self.flush()
        self.post_message(ReplayFinished())

    def action_pause_replay(self) -> None:
        from maic_tui.tui.replay_player import progress_line

        replay, player = self.recipe.replay, self.log_player
        if replay is not None and player is not None:
            player.toggle_pause()
            self.view.replay = progress_line(replay.source, player, self.replaying)
            self.flush()

    # --- leaving -------------------------------------------------------------------------------------------

    async def close_turn(self) -> None:
        """Before the app leaves: the turn that plays ends as an interruption, so its log closes like any other."""
        worker = self._turn_worker
        if self.is_open and self.turns.running and worker is not None:
            self.turns.stop()
            with contextlib.suppress(TimeoutError, WorkerCancelled, WorkerFailed):
                await asyncio.wait_for(worker.wait(), QUIT_WAIT_SECONDS)
