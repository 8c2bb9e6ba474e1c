"""The room: the class list, the conversation and composer, the board or slide, the lesson line and quiz, the trace
panel. The screen owns the layout, the state (one view model, ``room.view``, and the turn driver) and every handler
of a live, resumed or replayed class (ARCHITECTURE.md, *The app*).

Start-up is staged so that the first frame comes fast: with an opener, the screen shows a light "opening…" line
while the classroom file and settings are checked in a thread; then the room is mounted, and the session (LangGraph
and the model libraries) is built in another thread. So this module imports the classroom, event and whiteboard
models only inside functions. Widgets follow the view model through the screen's reactives, set once a frame: a
fast stream never costs a widget update per token, and a watcher runs only when its value changed.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar, TypeVar

from textual import events
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal, Vertical
from textual.css.query import NoMatches
from textual.reactive import var
from textual.widget import Widget
from textual.widgets import Footer, Header

from maic_tui.tui.keys import ROOM_BINDINGS, in_declared_order
from maic_tui.tui.plain import plain_block
from maic_tui.tui.screens.opening import NARROW_COLUMNS, opening_line
from maic_tui.tui.screens.switching import SwitchingScreen
from maic_tui.tui.widgets.board_pane import BoardPane
from maic_tui.tui.widgets.composer import DEFAULT_PLACEHOLDER, Composer, ComposerBox, CueBar
from maic_tui.tui.widgets.decision_card import DecisionCardView
from maic_tui.tui.widgets.lesson_panel import LessonLine, QuizPanel
from maic_tui.tui.widgets.roster import Roster
from maic_tui.tui.widgets.transcript import Transcript

if TYPE_CHECKING:
    from textual.binding import ActiveBinding
    from textual.timer import Timer

    from maic_tui.classroom.themes import ThemeSpec
    from maic_tui.events import CueUserData
    from maic_tui.room.lesson_state import LessonStatus
    from maic_tui.tui.widgets.trace_panel import TracePanel
    from maic_tui.whiteboard.render import Pointer

W = TypeVar("W", bound=Widget)
FRAME_SECONDS = 1 / 30  # how often widgets catch up with the stream
POINTER_SECONDS = 5.0  # a spotlight or laser fades after this long
SHORT_ANSWER_PLACEHOLDER = "Type your answer, then Enter"


class RoomScreen(SwitchingScreen):
    # Read with the room, after the first frame (the opening screen needs none of it); absolute, as Textual wants.
    CSS_PATH = Path(__file__).with_name("room.tcss")
    BINDINGS: ClassVar[list[BindingType]] = ROOM_BINDINGS

    # What the widgets follow; each set once a frame from the view model.
    queued: var[tuple[str, ...]] = var(())  # learner messages waiting for the class to finish
    statuses: var[tuple[object, ...]] = var(())  # each agent's status, and whether the director decides
    cue: var[CueUserData | None] = var(None)
    pointer: var[Pointer | None] = var(None)
    lesson_status: var[LessonStatus | None] = var(None)
    replay_progress: var[str | None] = var(None)
    notice: var[str | None] = var(None)
    structured_output: var[str | None] = var(None)
    muted: var[frozenset[str]] = var(frozenset())  # agents the learner muted
    side_empty: var[bool] = var(False)  # the board or slide pane has nothing to show (a narrow room hides it)

    def __init__(self, theme_specs: dict[str, ThemeSpec], opening: str) -> None:
        super().__init__(id="_default")
        self.theme_specs = theme_specs
        self._opening = opening
        self._parts: dict[type, Widget] = {}
        self._trace: TracePanel | None = None
        self._frame_timer: Timer | None = None

    # --- layout ------------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Header()
        if self.is_open:
            yield self._room()
        else:
            yield opening_line(self._opening)
        yield Footer()

    def _room(self) -> Widget:
        agents = self.classroom.agents
        return Horizontal(
            Roster(agents),
            Vertical(Transcript(), DecisionCardView(), ComposerBox(agents), id="center"),
            Vertical(BoardPane(self.view, self.theme_specs), id="side"),
            id="main",
        )

    def part(self, kind: type[W]) -> W:
        """A widget of the room, also while a modal screen is on top."""
        # Cached: the frame timer asks for these 30 times a second, and a query walks the whole DOM.
        found = self._parts.get(kind)
        if found is None or not found.is_attached:
            found = self._parts[kind] = self.query_one(kind)
        return found  # type: ignore[return-value]

    async def show_room(self) -> None:
        """The classroom is open: the room replaces the "opening…" line."""
        with self.app.batch_update():
            await self.query_one("#opening").remove()
            await self.mount(self._room(), before=self.query_one(Footer))
        self.enter_room()

    async def rebuild_room(self) -> None:
        """Another classroom or session: nothing of the old one's state stays on screen."""
        # Set without their watchers: the old widgets are about to go, the new ones take the values on mount.
        for name, empty in (("queued", ()), ("statuses", ()), ("cue", None), ("pointer", None), ("lesson_status", None),
                            ("replay_progress", None), ("notice", None), ("structured_output", None)):
            self.set_reactive(getattr(RoomScreen, name), empty)
        self._trace = None
        self._parts.clear()
        await self.recompose()
        self.enter_room()

    def enter_room(self) -> None:
        composer = self.part(Composer)
        # Nothing is sent in a replay, and a focused composer would take Space (pause) as typing.
        composer.disabled = self.recipe.replay is not None
        composer.focus()
        self.refresh_bindings()  # the footer shows the room's keys (a browser gives no focus event to redraw it)
        self.welcome()
        if self._frame_timer is None:
            self._frame_timer = self.set_interval(FRAME_SECONDS, self.flush)
        self.flush()
        self.call_after_refresh(self.load_session)

    def on_mount(self) -> None:
        if self.is_open:  # a classroom given at once (tests, a replay's export): no opening line
            self.enter_room()

    def on_resize(self, event: events.Resize) -> None:
        with_footer = self.query(Footer)
        if with_footer:  # a narrow footer drops its padding so every key still shows
            with_footer.first().compact = event.size.width < NARROW_COLUMNS

    @property
    def active_bindings(self) -> dict[str, ActiveBinding]:
        return in_declared_order(super().active_bindings, self.BINDINGS)

    def on_screen_resume(self) -> None:
        self.call_after_refresh(self.focus_composer)

    def watch_maximized(self, previous: Widget | None, maximized: Widget | None) -> None:
        if maximized is None:
            if previous is not None:  # it took the keys only while it filled the screen
                previous.can_focus = False
                if isinstance(previous, BoardPane):
                    previous.looking_back = None  # back to the board of now
                    previous.call_after_refresh(previous.refresh_titles)
            self.call_after_refresh(self.focus_composer)
        elif isinstance(maximized, BoardPane):
            maximized.call_after_refresh(maximized.refresh_titles)

    def focus_composer(self) -> None:
        if self.app.screen is self and self.maximized is None:
            for composer in self.query(Composer):
                composer.focus()

    # --- catching up with the view model, once per frame ----------------------------------------------

    def flush(self) -> None:
        if not self.is_open:
            return
        with contextlib.suppress(NoMatches, IndexError):  # the room is being rebuilt, or the app is closing
            self._catch_up()

    def _catch_up(self) -> None:
        view = self.view
        dirty = view.take_dirty()
        if dirty:
            self.part(Transcript).sync(view, dirty)
        self.part(BoardPane).sync(view)
        self.statuses = (tuple(view.status.items()), view.director_deciding)
        self.cue, self.pointer, self.queued = view.cue, view.pointer, view.queue
        self.lesson_status = view.lesson.line() if view.lesson is not None and self.lesson_shown() else None
        self.replay_progress, self.notice, self.structured_output = view.replay, view.notice, view.structured_output
        self.muted = view.muted
        card = self.part(DecisionCardView)
        card.stepping, card.card = view.stepping, view.decision_card
        trace = self._trace_panel()
        if trace is not None and trace.display:
            trace.show(view.decisions)
        board = self.part(BoardPane)
        self.side_empty = board.showing_board and not view.board.elements and not (trace is not None and
                                                                                   trace.display)

    def on_decision_card_released(self) -> None:
        if self.part(DecisionCardView).card is None:  # not when the next decision's card came before it
            self.focus_composer()

    def watch_muted(self, muted: frozenset[str]) -> None:
        if self.is_open:
            self.part(Roster).update_muted(muted)

    def watch_side_empty(self, empty: bool) -> None:
        if self.is_open:
            self.query_one("#side").set_class(empty, "-empty")

    def watch_statuses(self) -> None:
        if self.is_open:
            self.part(Roster).update_status(self.view.status, self.view.director_deciding)

    def watch_cue(self) -> None:
        if not self.is_open:
            return
        cue = self.cue
        self._placeholder()
        self.part(CueBar).show(cue.options or [] if cue is not None else [])

    def watch_replay_progress(self) -> None:
        if self.is_open:
            self._placeholder()

    def watch_notice(self) -> None:
        if self.is_open:
            self._placeholder()

    def _placeholder(self) -> None:
        """What the composer says when empty: a replay's progress, the class getting ready, a short answer's hint,
        the class's question to the learner, or how to ask."""
        cue, status = self.cue, self.lesson_status
        prompt = (cue.prompt if cue is not None and cue.prompt else None) or DEFAULT_PLACEHOLDER
        if status is not None and status.question is not None and not status.question.options:
            prompt = SHORT_ANSWER_PLACEHOLDER
        prompt = self.replay_progress or self.notice or prompt
        self.part(Composer).placeholder = plain_block(prompt[:300])  # a str placeholder would be read as markup

    def watch_pointer(self, pointer: Pointer | None) -> None:
        if pointer is None or not self.is_open:
            return
        view = self.view

        def fade() -> None:
            if view.pointer is pointer:
                view.clear_pointer()

        self.set_timer(POINTER_SECONDS, fade)

    def watch_queued(self, queued: tuple[str, ...]) -> None:
        if self.is_open:
            self.part(ComposerBox).show_queue(queued)
            self.refresh_bindings()

    async def watch_lesson_status(self, status: LessonStatus | None) -> None:
        if not self.is_open:
            return
        line, quiz = self.part(LessonLine), self.part(QuizPanel)
        if status is None:
            line.show("", "", False)
        else:
            line.show(status.text, status.short, status.waiting)
        question = status.question if status is not None else None
        await quiz.show(question)
        self._placeholder()
        if question is None and quiz.has_focus_within:
            self.part(Composer).focus()
        self.refresh_bindings()

    def watch_structured_output(self) -> None:
        if self.is_open:
            self.show_title()

    # --- views ---------------------------------------------------------------------------------------

    def action_help(self) -> None:
        from maic_tui.tui.screens.help import HelpScreen

        self.app.push_screen(HelpScreen())

    def _trace_panel(self) -> TracePanel | None:
        return self._trace if self._trace is not None and self._trace.is_attached else None

    def action_toggle_trace(self) -> None:
        trace = self._trace_panel()
        if trace is None:  # built on first use: a DataTable costs start-up time most sessions never need
            from maic_tui.tui.widgets.trace_panel import TracePanel

            trace = self._trace = TracePanel()
            self.part(BoardPane).parent.mount(trace)  # type: ignore[union-attr]
        else:
            trace.display = not trace.display
        if trace.display:
            trace.show(self.view.decisions)
            trace.focus()
            trace.action_last()
        else:
            self.focus_composer()

    def on_trace_panel_left(self) -> None:
        self.focus_composer()

    def action_toggle_board(self) -> None:
        self.part(BoardPane).toggle()

    def action_maximize_board(self) -> None:
        """The board takes the keys while it fills the screen (Esc gives them back to the composer)."""
        board = self.part(BoardPane)
        board.can_focus = True
        board.focus()
        self.maximize(board)

    def scroll_transcript(self, pages: int) -> None:
        transcript = self.part(Transcript)
        if pages < 0:
            transcript.scroll_page_up()
        else:
            transcript.scroll_page_down()

    def show_slide(self) -> None:
        self.part(BoardPane).mode = "slide"

    def action_full_transcript(self) -> None:
        from maic_tui.tui.screens.full_transcript import FullTranscriptScreen, transcript_text

        self.app.push_screen(FullTranscriptScreen(transcript_text(self.view)))

    def action_talk_stats(self) -> None:
        from maic_tui.tui.screens.full_transcript import FullTranscriptScreen

        self.app.push_screen(FullTranscriptScreen("\n".join(self.view.talk.lines()), "Talk statistics"))

    def action_copy_last(self) -> None:
        from maic_tui.room.view import AgentMessage

        last = next((e for e in reversed(self.view.entries) if isinstance(e, AgentMessage)), None)
        if last is not None:
            self.app.copy_to_clipboard(last.text)
            self.notify(f"Copied {last.name}'s message.", markup=False)

    def show_persona(self, agent_id: str) -> None:
        from maic_tui.tui.screens.persona import PersonaScreen

        agent = self.classroom.agent(agent_id)
        if agent is None:
            return
        scene, lead = self.view.scene, self.classroom.lead() or self.classroom.agents[0]
        muted = self.view.muted
        can_mute = agent.id != lead.id and self.recipe.replay is None

        def toggled(mute: bool | None) -> None:
            if mute:
                self.control_class(muted ^ {agent.id})

        self.app.push_screen(PersonaScreen(agent, scene.type if scene else None,
                                           agent.id in muted if can_mute else None), toggled)

    def repaint(self) -> None:
        """Colours follow the theme's background."""
        if self.is_open:
            self.part(Roster).repaint()
            self.part(Transcript).repaint()
            self.part(BoardPane).refresh()

    # --- keys ----------------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Before the room is open only quitting and help work (and the app's palette and themes).
        if not self.is_open:
            return action in ("help", "quit")
        if action == "pause_replay":
            return self.replaying and self.log_player is not None
        if action in ("lesson", "slower", "faster"):
            return self.turns.lesson is not None
        if action == "toggle_voice":
            return self.turns.voice is not None
        if action == "interrupt":  # shown, but disabled (Esc goes on to others) while there is nothing to stop
            return False if self.recipe.replay is not None else True if self.stoppable() else None
        if action == "stop":  # Ctrl+C: when there is nothing to stop, the app's binding (quit) takes it
            return self.stoppable()
        if action == "copy_selection":
            return self._selection() is not None
        return super().check_action(action, parameters)

    def action_stop(self) -> None:
        self.action_interrupt()

    async def action_quit(self) -> None:
        await self.app.action_quit()

    def _selection(self) -> str | None:
        composer = self.focused
        if isinstance(composer, Composer) and composer.selected_text:
            return composer.selected_text
        return self.get_selected_text() or None

    def action_copy_selection(self) -> None:
        selected = self._selection()
        if selected:
            self.app.copy_to_clipboard(selected)
            self.clear_selection()
            self.notify("Copied the selection.")

    def action_cue(self, number: int) -> None:
        self.part(CueBar).choose(number)
