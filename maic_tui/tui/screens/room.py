"""The room's screen (ARCHITECTURE.md, *The app*): the header, the room's body (``widgets/room_body.py``) and the
footer, the room's keys (``keys.py``), and the parts it owns: the class open in it (``parts/the_class.py``), the
class's voice, the learning records' key and switching classroom or session (``parts/``). Each key's action is a
line here that hands it to the part that does it; each part keeps its own state.

Start-up is staged so that the first frame comes fast: with an opener, the screen shows a light "opening…" line
while the classroom file and settings are checked in a thread; then the room's body is mounted, and the session
(LangGraph and the model libraries) is built in another thread. So this module imports the classroom, event and
whiteboard models only inside functions.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar, Literal, TypeVar

from textual import events, work
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.css.query import NoMatches
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer, Header

from maic_tui.i18n import _
from maic_tui.live.assembly import SessionRecipe
from maic_tui.tui.keys import ROOM_BINDINGS, in_declared_order
from maic_tui.tui.messages import DecisionKey, ForkRequested, PersonaRequested, ScrollRequested, SendRequested
from maic_tui.tui.parts import overlays
from maic_tui.tui.parts.class_voice import ClassVoice
from maic_tui.tui.parts.learning_records import LearningRecords
from maic_tui.tui.parts.switching import Switching
from maic_tui.tui.parts.the_class import TheClass
from maic_tui.tui.screens.opening import NARROW_COLUMNS, opening_line
from maic_tui.tui.widgets.board_pane import BoardPane
from maic_tui.tui.widgets.composer import Composer, CueBar
from maic_tui.tui.widgets.decision_card import DecisionCardView
from maic_tui.tui.widgets.room_body import RoomBody

if TYPE_CHECKING:
    from collections.abc import Callable

    from textual.binding import ActiveBinding
    from textual.timer import Timer

    from maic_tui.classroom.models import Classroom
    from maic_tui.live.driver import TurnDriver
    from maic_tui.live.session import ClassroomSession
    from maic_tui.log.playback import LogPlayer
    from maic_tui.room.view import ClassroomView
    from maic_tui.tui.themes import ThemeSpec

    Opener = Callable[[], "tuple[Classroom, SessionRecipe]"]

W = TypeVar("W", bound=Widget)
FRAME_SECONDS = 1 / 30  # how often widgets catch up with the stream


class RoomScreen(Screen[None]):
    # Read with the room, after the first frame (the opening screen needs none of it); absolute, as Textual wants.
    CSS_PATH = Path(__file__).with_name("room.tcss")
    BINDINGS: ClassVar[list[BindingType]] = ROOM_BINDINGS

    def __init__(self, theme_specs: dict[str, ThemeSpec], opening: str) -> None:
        super().__init__(id="_default")
        self.theme_specs = theme_specs
        self._opening = opening
        self.voice = ClassVoice(self)
        self.records = LearningRecords(self)
        self.switching = Switching(self, self.reopen)
        self._class: TheClass | None = None  # none until the classroom is open (with an opener, after the first frame)
        self._body: RoomBody | None = None
        self.startup_error: Exception | None = None  # why the classroom could not be opened
        self.last_recorded: str | None = None  # the id of the last session closed with records in the store
        self._frame_timer: Timer | None = None

    # --- the class -------------------------------------------------------------------------------------

    @property
    def is_open(self) -> bool:
        return self._class is not None

    @property
    def the_class(self) -> TheClass:
        if self._class is None:
            raise RuntimeError("no classroom is open yet")
        return self._class

    # What the app and the palette read of the class.
    @property
    def classroom(self) -> Classroom:
        return self.the_class.classroom

    @property
    def view(self) -> ClassroomView:
        return self.the_class.view

    @property
    def turns(self) -> TurnDriver:
        return self.the_class.turns

    @property
    def log_player(self) -> LogPlayer | None:
        return self.the_class.log_player

    @property
    def recipe(self) -> SessionRecipe:
        return self._class.recipe if self._class is not None else SessionRecipe()

    @property
    def session(self) -> ClassroomSession | None:
        return self._class.session if self._class is not None else None

    @property
    def turn_running(self) -> bool:
        return self._class is not None and self._class.turn_running

    def set_classroom(self, classroom: Classroom, recipe: SessionRecipe) -> None:
        previous = self._class
        self._class = TheClass(classroom, recipe, self, self.flush)
        self.voice.give(self._class, previous.turns if previous is not None else None)

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
        with self.app.batch_update():  # the room's body replaces the "opening…" line
            await self.query_one("#opening").remove()
            await self.mount(self._new_body(), before=self.query_one(Footer))
        self.enter_room()

    async def reopen(self, classroom: Classroom, recipe: SessionRecipe) -> None:
        """Another classroom or session: the class closes (its records sent with ``[records] auto``), and a new
        body is composed, so nothing of the old one's state stays on screen."""
        left = self.records.recorded_session(self.the_class)
        old = self.recipe
        self.close_session()
        if left is not None:
            self.records.at_end(old, left)
        self.set_classroom(classroom, recipe)
        await self.recompose()
        self.enter_room()

    def close_session(self) -> None:
        """Write what the log writer still holds; called before a class is dropped or the app ends."""
        if self._class is not None:
            self.last_recorded = self._class.close_session() or self.last_recorded

    async def close_turn(self) -> None:
        """Before the app leaves: the turn that plays ends as an interruption, so its log closes like any other."""
        if self._class is not None:
            await self._class.close_turn()

    def recorded_session(self) -> str | None:
        return self.records.recorded_session(self._class) if self._class is not None else None

    # --- layout --------------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Header()
        yield self._new_body() if self._class is not None else opening_line(self._opening)
        yield Footer()

    def _new_body(self) -> RoomBody:
        self._body = RoomBody(self.the_class, self.theme_specs)
        return self._body

    @property
    def body(self) -> RoomBody:
        if self._body is None:
            raise NoMatches("the room's body is not there yet")
        return self._body

    def part(self, kind: type[W]) -> W:
        """A widget of the room, also while a modal screen is on top."""
        return self.body.part(kind)

    def enter_room(self) -> None:
        the_class = self.the_class
        composer = self.part(Composer)
        # Nothing is sent in a replay, and a focused composer would take Space (pause) as typing.
        composer.disabled = the_class.recipe.replay is not None
        composer.focus()
        self.refresh_bindings()  # the footer shows the room's keys (a browser gives no focus event to redraw it)
        the_class.welcome()
        if self._frame_timer is None:
            self._frame_timer = self.set_interval(FRAME_SECONDS, self.flush)
        self.flush()
        self.call_after_refresh(the_class.load_session)

    def flush(self, after_work: bool = False) -> None:
        """The body catches up with the view model: once a frame, at once when a record needs it, ``after_work``."""
        body = self._body
        if body is not None and body.is_attached:
            with contextlib.suppress(NoMatches, IndexError):  # the app is closing
                body.catch_up(after_work)

    def on_mount(self) -> None:
        if self._class is not None:  # a classroom given at once (tests, a replay's export): no opening line
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

    def repaint(self, relabel: bool = False) -> None:
        """Colours follow the theme's background; with ``relabel``, the words the interface's language."""
        if self._body is not None and self._body.is_attached:
            self._body.relabel() if relabel else self._body.repaint()

    # --- what the widgets ask for ------------------------------------------------------------------

    def on_send_requested(self, message: SendRequested) -> None:
        if self._class is not None:
            self._class.send(message.text, message.typed)

    def on_decision_key(self, message: DecisionKey) -> None:
        self.the_class.decision_key(message.key)

    def on_decision_card_released(self) -> None:
        if self.part(DecisionCardView).card is None:  # not when the next decision's card came before it
            self.focus_composer()

    def on_trace_panel_left(self) -> None:
        self.focus_composer()

    def on_scroll_requested(self, message: ScrollRequested) -> None:
        self.body.scroll_transcript(message.pages)

    def on_persona_requested(self, message: PersonaRequested) -> None:
        self.show_persona(message.agent_id)

    def on_class_ready(self) -> None:
        self.records.waiting(self.recipe)  # what an LRS that was away missed goes now

    async def on_fork_requested(self, message: ForkRequested) -> None:
        await self.switching.fork(self.the_class, message.turn)

    # --- what the palette runs (``palette.Room``) --------------------------------------------------------

    def go_to_scene(self, index: int) -> None:
        if self.the_class.go_to_scene(index):
            self.part(BoardPane).mode = "slide"
            self.flush()

    def control_class(self, muted: frozenset[str] | None = None, max_agents: int | Literal["keep"] | None = "keep",
                      ) -> None:
        self.the_class.control(muted, max_agents)

    async def switch_classroom(self, name: str) -> None:
        await self.switching.to_classroom(self.the_class, name)

    async def resume_session(self, session_id: str) -> None:
        await self.switching.to_session(self.the_class, session_id)

    def show_persona(self, agent_id: str) -> None:
        overlays.show_persona(self, self.the_class, agent_id)

    # --- the room's keys (``keys.py``), each handed to the part that does it --------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        the_class = self._class
        if the_class is None:  # before the room is open only quitting and help work (and the app's palette, themes)
            return action in ("help", "quit")
        if action == "pause_replay":
            return the_class.can_pause_replay()
        if action in ("lesson", "slower", "faster"):
            return the_class.turns.lesson is not None
        if action == "toggle_voice":
            return self.voice.available(the_class.turns)
        if action == "export_records":
            return self.records.recorded_session(the_class) is not None
        if action == "interrupt":  # shown, but disabled (Esc goes on to others) while there is nothing to stop
            return False if the_class.recipe.replay is not None else True if the_class.stoppable() else None
        if action == "stop":  # Ctrl+C: when there is nothing to stop, the app's binding (quit) takes it
            return the_class.stoppable()
        if action == "copy_selection":
            return self._selection() is not None
        return True

    def action_interrupt(self) -> None:
        self.the_class.interrupt()

    def action_stop(self) -> None:
        self.the_class.interrupt()

    async def action_quit(self) -> None:
        await self.app.action_quit()

    def action_pause_replay(self) -> None:
        self.the_class.pause_replay()

    def action_lesson(self) -> None:
        self.the_class.lesson_key()

    def action_slower(self) -> None:
        self.the_class.set_pace(slower=True)

    def action_faster(self) -> None:
        self.the_class.set_pace(slower=False)

    def action_next_scene(self) -> None:
        self.go_to_scene(self.the_class.view.scene_index + 1)

    def action_previous_scene(self) -> None:
        self.go_to_scene(self.the_class.view.scene_index - 1)

    def action_step_mode(self) -> None:
        self.the_class.toggle_step_mode()

    def action_toggle_voice(self) -> None:
        self.voice.toggle(self.the_class.turns)

    def action_export_records(self) -> None:
        self.records.export(self.the_class)

    def action_new_classroom(self) -> None:
        self.switching.new_classroom(self.the_class)

    def action_help(self) -> None:
        overlays.show_help(self)

    def action_toggle_trace(self) -> None:
        if not self.body.toggle_trace():
            self.focus_composer()

    def action_toggle_board(self) -> None:
        self.part(BoardPane).toggle()

    def action_maximize_board(self) -> None:
        """The board takes the keys while it fills the screen (Esc gives them back to the composer)."""
        board = self.part(BoardPane)
        board.can_focus = True
        board.focus()
        self.maximize(board)

    def action_full_transcript(self) -> None:
        overlays.full_transcript(self, self.the_class)

    def action_talk_stats(self) -> None:
        overlays.talk_stats(self, self.the_class)

    def action_copy_last(self) -> None:
        overlays.copy_last(self, self.the_class)

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
            self.notify(_("Copied the selection."))

    def action_cue(self, number: int) -> None:
        self.part(CueBar).choose(number)
