"""The classroom app (ARCHITECTURE.md, *The app*): roster, transcript and composer, whiteboard pane, trace panel.

The engine runs in a worker on the app's event loop. Events only update the headless ``ClassroomView``;
widgets catch up from it on a frame timer, so a fast stream never costs a widget update per token.
Start-up is staged so that the first frame comes fast: ``maic-tui`` opens with a light shell (header,
"opening…" line, footer) and checks the classroom file and settings in a thread; then the room is mounted,
and the session (LangGraph and the model libraries) is built in another thread. This module and the
widget modules therefore import the classroom, event and whiteboard models only inside functions.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar, TypeVar

from textual import events, work
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.css.query import NoMatches
from textual.reactive import var
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer, Header, Static
from textual.worker import Worker

from maic_tui.live.assembly import SessionRecipe
from maic_tui.llm.spec import shown_model
from maic_tui.redaction import redact, usable_secrets
from maic_tui.text_safety import one_line
from maic_tui.tui.lesson_controls import LessonControls
from maic_tui.tui.live_class import LiveClass
from maic_tui.tui.messages import TerminalClosed
from maic_tui.tui.plain import plain, plain_block
from maic_tui.tui.replay_player import ReplayControls
from maic_tui.tui.room_views import RoomViews
from maic_tui.tui.screens.room import RoomScreen
from maic_tui.tui.theme_choice import ThemeChoice
from maic_tui.tui.theming import register_themes
from maic_tui.tui.widgets.board_pane import BoardPane
from maic_tui.tui.widgets.composer import DEFAULT_PLACEHOLDER, Composer, ComposerBox, CueBar
from maic_tui.tui.widgets.roster import Roster
from maic_tui.tui.widgets.transcript import Transcript

if TYPE_CHECKING:
    from textual.command import Provider
    from textual.driver import Driver
    from textual.notifications import SeverityLevel
    from textual.timer import Timer

    from maic_tui.classroom.models import Classroom
    from maic_tui.live.driver import TurnDriver
    from maic_tui.live.session import ClassroomSession
    from maic_tui.log.playback import LogPlayer
    from maic_tui.room.view import ClassroomView
    from maic_tui.tui.widgets.trace_panel import TracePanel

W = TypeVar("W", bound=Widget)
Opener = Callable[[], "tuple[Classroom, SessionRecipe]"]  # loads and checks the classroom and settings


def classroom_commands() -> type[Provider]:
    """The palette's provider, imported when the palette first opens (textual.command loads slowly)."""
    from maic_tui.tui.palette import PaletteCommands

    return PaletteCommands
NARROW_COLUMNS = 110  # below this the class list shows avatars only and the footer is compact
SCENES = Binding.Group("Scene")  # the footer shows "f5 f6 Scene"
FRAME_SECONDS = 1 / 30  # how often widgets catch up with the stream
# Said once, first: the offline demo is not a model, and people should know what to expect and how to get one.
DEMO_NOTE = ("Offline demo: the class answers from this lesson's prepared material. For a real model: "
             "--model openai:NAME (see README).")
POINTER_SECONDS = 5.0  # a spotlight or laser fades after this long


class ClassroomApp(LiveClass, LessonControls, RoomViews, ThemeChoice, ReplayControls, App[None]):
    CSS_PATH = Path(__file__).with_name("app.tcss")  # absolute: subclasses elsewhere still find it
    TITLE = "maic-tui"
    COMMANDS = App.COMMANDS | {classroom_commands}
    # Textual declares this "ClassVar[...] | None", which mypy reads as an instance variable.
    HORIZONTAL_BREAKPOINTS: list[tuple[int, str]] | None = [(0, "-narrow"), (NARROW_COLUMNS, "-wide")]  # noqa: RUF012
    # Only keys every terminal sends apart: tmux, xterm, GNOME Terminal and the Linux console send Alt+Enter
    # as ESC CR (read as Enter) and Alt+1 as ESC 1 (read as "¡"), so neither is advertised; Tab reaches the
    # options and Ctrl+J makes a new line everywhere. Ctrl+C copies a selection, else interrupts a speaking
    # class, else quits; priority, so the composer's own Ctrl+C (copy) does not swallow it.
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "interrupt", "Stop", key_display="esc/^c"),
        Binding("ctrl+c", "copy_selection", show=False, priority=True),
        Binding("ctrl+c", "stop", show=False, priority=True),
        Binding("ctrl+c", "quit", show=False, priority=True),
        Binding("ctrl+q", "quit", "Quit", priority=True),
        Binding("space", "pause_replay", "Pause/resume", priority=True),  # only while a replay plays
        Binding("f1", "help", "Help"),
        Binding("f2", "toggle_trace", "Trace"),
        Binding("f3", "toggle_board", "Board"),
        Binding("f4", "maximize_board", "Max"),
        # Priority: the composer (a TextArea) binds F5 and F6 to "select word / line".
        Binding("f5", "previous_scene", "Scene", priority=True, group=SCENES),
        Binding("f6", "next_scene", "Scene", priority=True, group=SCENES),
        # Pause, resume, or back to the lesson after Q&A: the lesson line above the composer says which, so the
        # footer (full at 80 columns) does not repeat it.
        Binding("f7", "lesson", "Lesson", priority=True, show=False),
        *(Binding(f"alt+{n}", f"cue({n})", f"Option {n}", show=False) for n in range(1, 5)),  # kitty, foot
    ]

    classroom: Classroom
    view: ClassroomView
    turns: TurnDriver

    def __init__(self, classroom: Classroom | None = None, recipe: SessionRecipe | None = None,
                 theme: str | None = None, *, opener: Opener | None = None, opening: str = "") -> None:
        """Either a checked ``classroom``, or an ``opener`` run in a thread after the first frame.

        If the opener fails, the app exits with code 2 and ``startup_error`` holds the exception.
        """
        super().__init__()
        if (classroom is None) == (opener is None):
            raise TypeError("give either a classroom or an opener")
        self.recipe = recipe or SessionRecipe()
        self._opener = opener
        self._opening = opening
        self.startup_error: Exception | None = None
        self.stop_code: int | None = None  # 128 + the signal that ended the app, if one did
        self.structured_output: str | None = None  # the mode a server's output is constrained in, once known
        self.replaying = False  # a recorded log is being played into the room
        self.log_player: LogPlayer | None = None  # the replay's player, once it plays
        self._turn_worker: Worker[None] | None = None
        if classroom is not None:
            self._set_classroom(classroom)
        self._requested_theme = theme
        # Themes are registered and chosen before the first compose: choosing one later restyles everything.
        self._theme_specs, self._theme_errors = register_themes(self)
        self._config_error: str | None = None
        self.theme = self._pick_theme()
        self._parts: dict[type, Widget] = {}
        self._trace: TracePanel | None = None
        self._statuses: object = None
        self._cue: object = None
        self._pointer: object = None
        self._frame_timer: Timer | None = None

    # --- layout ------------------------------------------------------------------------------------

    @property
    def is_open(self) -> bool:
        """Whether the classroom is loaded (with an opener, not until shortly after the first frame)."""
        return hasattr(self, "view")

    def _set_classroom(self, classroom: Classroom) -> None:
        from maic_tui.live.driver import TurnDriver
        from maic_tui.room.view import ClassroomView

        self.classroom = classroom
        resumed = self.recipe.resume
        self.view = resumed.rebuilt.view if resumed is not None else ClassroomView(classroom)
        self.view.dirty = set(range(len(self.view.entries)))  # a resumed transcript is drawn in full
        self.turns = TurnDriver(classroom)
        self.turns.on_record = self._on_record
        self.turns.on_queue = self._on_queue
        self.turns.on_problem = self._report
        self.turns.on_lesson = self._on_lesson

    # --- state the widgets follow --------------------------------------------------------------------

    queued: var[tuple[str, ...]] = var(())  # learner messages waiting for the class to finish

    @property
    def session(self) -> ClassroomSession | None:
        turns = getattr(self, "turns", None)
        return turns.session if turns is not None else None

    @property
    def queue(self) -> list[str]:
        """The learner's messages waiting for the class to finish, as typed."""
        return [message.text for message in self.turns.waiting]

    @property
    def turn_running(self) -> bool:
        return self.replaying or (hasattr(self, "turns") and self.turns.running)

    def watch_queued(self, queued: tuple[str, ...]) -> None:
        with contextlib.suppress(NoMatches):
            self.part(ComposerBox).show_queue(queued)
        self.refresh_bindings()

    def _on_queue(self, waiting: tuple[str, ...]) -> None:
        self.queued = waiting

    def on_resize(self, event: events.Resize) -> None:
        with contextlib.suppress(NoMatches):  # a narrow footer drops its padding so every key still shows
            self.query_one(Footer).compact = event.size.width < NARROW_COLUMNS

    def get_default_screen(self) -> Screen[None]:
        return RoomScreen(id="_default")

    def compose(self) -> ComposeResult:
        yield Header()
        if self.is_open:
            yield self._room()
        else:
            yield Static(plain(f"Opening {self._opening or 'the classroom'}…"), id="opening")
        yield Footer()

    def _room(self) -> Widget:
        agents = self.classroom.agents
        return Horizontal(
            Roster(agents),
            Vertical(Transcript(), ComposerBox(agents), id="center"),
            Vertical(BoardPane(self.view, self._theme_specs), id="side"),
            id="main",
        )

    def part(self, kind: type[W]) -> W:
        """A widget of the main screen, also while a modal screen is on top."""
        # Cached: the frame timer asks for these 30 times a second, and a query walks the whole DOM.
        found = self._parts.get(kind)
        if found is None or not found.is_attached:
            found = self._parts[kind] = self.screen_stack[0].query_one(kind)
        return found  # type: ignore[return-value]

    def on_mount(self) -> None:
        for error in [*self._theme_errors, self._config_error]:
            if error:
                self.notify(error, severity="warning", markup=False)
        self.theme_changed_signal.subscribe(self, self._theme_changed)
        self._catch_stop_signals()
        if self.is_open:
            self._enter_room()
        else:
            self.call_after_refresh(self._open)

    def _catch_stop_signals(self) -> None:
        """SIGTERM and SIGHUP quit as Ctrl+Q does: the turn is interrupted and its log closed, the terminal
        restored, and the exit status says which signal it was (143, 129)."""
        if self.is_headless:
            return
        loop = asyncio.get_running_loop()
        for number in (signal.SIGTERM, signal.SIGHUP):
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.add_signal_handler(number, self._stop_signal, number)

    def _stop_signal(self, number: int) -> None:
        self.stop_code = 128 + number
        self.call_next(self.action_quit)

    def get_driver_class(self) -> type[Driver]:
        """Textual's driver for this terminal, or ours that notices when the terminal (or browser tab) goes."""
        chosen = super().get_driver_class()
        if sys.platform == "win32":
            return chosen
        from maic_tui.tui.terminal import guarded_driver

        return guarded_driver(chosen)

    async def on_terminal_closed(self, _: TerminalClosed) -> None:
        """Nobody can see or type any more: leave as Ctrl+Q does (the turn closed, its records written), with
        the exit status of a hang-up."""
        self.stop_code = self.stop_code or 128 + signal.SIGHUP
        await self.action_quit()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # The shell has no room yet: only app-wide actions (quit, palette, help, theme) work there.
        if not self.is_open:
            return action in {"quit", "command_palette", "help", "change_theme"}
        if action == "pause_replay":
            return self.replaying and self.log_player is not None
        if action == "lesson":
            return self.turns.lesson is not None
        if action == "interrupt":  # shown, but disabled (Esc goes on to others) while there is nothing to stop
            return False if self.recipe.replay is not None else True if self._stoppable() else None
        if action == "stop":  # Ctrl+C: when there is nothing to stop, the next binding (quit) takes it
            return self._stoppable()
        if action == "copy_selection":
            return self._selection() is not None
        return True

    @work(thread=True, group="open", exit_on_error=False)
    def _open(self) -> None:
        assert self._opener is not None
        try:
            opened = self._opener()
        except Exception as exc:  # a broken classroom file or config: exit 2 with its lines
            self.call_from_thread(self._open_failed, exc)
            return
        self.call_from_thread(self._opened, *opened)  # type: ignore[arg-type]  # it awaits a coroutine too

    def _open_failed(self, error: Exception) -> None:
        self.startup_error = error
        self.exit(return_code=2)

    async def _opened(self, classroom: Classroom, recipe: SessionRecipe) -> None:
        self.recipe = recipe
        self._set_classroom(classroom)
        screen = self.screen
        with self.batch_update():
            await screen.query_one("#opening").remove()
            await screen.mount(self._room(), before=screen.query_one(Footer))
        self._enter_room()

    def _enter_room(self) -> None:
        self._show_title()
        self.part(Composer).focus()
        self.refresh_bindings()  # the footer shows the room's keys (a browser gives no focus event to redraw it)
        if self.recipe.resume is not None:
            turns = sum(1 for item in self.recipe.resume.records if item.record.type == "learner")
            self.view.note(f"Resumed session {self.recipe.resume.info.id} "
                           f"({turns} turn{'' if turns == 1 else 's'} so far).")
            for line in self.recipe.resume.skipped:
                self.view.note(line, "error")
        elif self.recipe.replay is None:
            self._welcome()
        if self._frame_timer is None:
            self._frame_timer = self.set_interval(FRAME_SECONDS, self.flush)
        self.call_after_refresh(self._load_session)

    def _welcome(self) -> None:
        """The class's description, and its example questions as one-key suggestions."""
        from maic_tui.events import CueUserData

        classroom = self.classroom
        if self.recipe.model == "demo":
            self.view.note(DEMO_NOTE)
        self.view.note(classroom.description or classroom.title)
        questions = [answer.question for answer in classroom.demo.answers][:4]
        if len(questions) >= 2 and not (self.recipe.lesson and classroom.scenes):  # a lesson starts instead
            self.view.cue = CueUserData(prompt="Ask anything, or pick a question (Tab, then Enter)", options=questions)
        self.flush()

    def _show_title(self) -> None:
        self.title = one_line(self.classroom.title, 120)
        model = shown_model(self.recipe.model)
        mode = f" · {self.structured_output}" if self.structured_output else ""
        self.sub_title = one_line(f"{model}{mode} · {self.classroom.learner.nickname}", 120)

    def notify(self, message: str, *, title: str = "", severity: SeverityLevel = "information",
               timeout: float | None = None, markup: bool = True) -> None:
        """Every notification is plain text (messages quote model output, file names and classroom text), and never
        shows a configured secret (a server's error may echo the key)."""
        options = self.recipe.options
        secrets = usable_secrets(options.secrets()) if options is not None else ()
        super().notify(one_line(redact(message, secrets), 500), title=one_line(redact(title, secrets), 120),
                       severity=severity, timeout=timeout, markup=False)

    # --- catching up with the view, once per frame ---------------------------------------------------

    def flush(self) -> None:
        with contextlib.suppress(NoMatches, IndexError):  # the app is closing: its widgets are gone
            self._catch_up()

    def _catch_up(self) -> None:
        view = self.view
        dirty = view.take_dirty()
        if dirty:
            self.part(Transcript).sync(view, dirty)
        statuses = (tuple(view.status.items()), view.director_deciding)
        if statuses != self._statuses:
            self._statuses = statuses
            self.part(Roster).update_status(view.status, view.director_deciding)
        self.part(BoardPane).sync(view)
        if view.cue is not self._cue:
            self._cue = view.cue
            self._show_cue()
        if view.pointer is not self._pointer:
            self._pointer = pointer = view.pointer
            if pointer is not None:
                def fade() -> None:
                    if view.pointer is pointer:
                        view.clear_pointer()

                self.set_timer(POINTER_SECONDS, fade)
        trace = self._trace_panel()
        if trace is not None and trace.display:
            trace.show(view.trace)

    def _show_cue(self) -> None:
        cue = self.view.cue
        composer = self.part(Composer)
        prompt = (cue.prompt if cue is not None and cue.prompt else None) or DEFAULT_PLACEHOLDER
        if self.recipe.replay is not None:
            prompt = self._replay_prompt()
        composer.placeholder = plain_block(prompt[:300])  # a str placeholder would be read as markup
        self.part(CueBar).show(cue.options or [] if cue is not None else [])

    # --- actions -----------------------------------------------------------------------------------

    def action_interrupt(self) -> None:
        self.turns.interrupt()

    def _stoppable(self) -> bool:
        return self.turns.can_interrupt() and not self.replaying

    def action_stop(self) -> None:
        self.action_interrupt()

    def _selection(self) -> str | None:
        composer = self.screen.focused
        if isinstance(composer, Composer) and composer.selected_text:
            return composer.selected_text
        return self.screen.get_selected_text() or None

    def action_copy_selection(self) -> None:
        selected = self._selection()
        if selected:
            self.copy_to_clipboard(selected)
            self.screen.clear_selection()
            self.notify("Copied the selection.")

    def action_cue(self, number: int) -> None:
        self.part(CueBar).choose(number)

    def _reset_room_state(self) -> None:
        """A new classroom or session: nothing of the old one's state stays on screen."""
        self.queued = ()
        self._statuses = self._cue = self._pointer = None

    def _repaint_room(self) -> None:
        """Colours follow the theme's background."""
        self.part(Roster).repaint()
        self.part(Transcript).repaint()
        self.part(BoardPane).refresh()
