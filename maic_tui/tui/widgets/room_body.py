"""The room's body (ARCHITECTURE.md, *The app*): the class list | the conversation, step mode's card and the composer
| the board or slide (and the trace panel, built on first use). It follows the class's view model through its
reactives, set once a frame by ``catch_up``: a fast stream never costs a widget update per token, and a watcher runs
only when its value changed. A new class gets a new body, so nothing of the old one's state stays on screen."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, TypeVar, cast

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.reactive import var
from textual.widget import Widget

from maic_tui import text_cells
from maic_tui.i18n import N_, _
from maic_tui.tui.plain import plain_block
from maic_tui.tui.scene_widgets import CLASS, SceneWidget
from maic_tui.tui.widgets.board_pane import BoardPane
from maic_tui.tui.widgets.composer import DEFAULT_PLACEHOLDER, Composer, ComposerBox, CueBar
from maic_tui.tui.widgets.decision_card import DecisionCardView
from maic_tui.tui.widgets.lesson_panel import LessonLine
from maic_tui.tui.widgets.roster import Roster
from maic_tui.tui.widgets.transcript import Transcript

if TYPE_CHECKING:
    from maic_tui.events import CueUserData
    from maic_tui.orchestration.routing.picking import DecisionCard
    from maic_tui.room.lesson_state import LessonStatus
    from maic_tui.tui.parts.the_class import TheClass
    from maic_tui.tui.themes import ThemeSpec
    from maic_tui.tui.widgets.trace_panel import TracePanel
    from maic_tui.whiteboard.render import Pointer

W = TypeVar("W", bound=Widget)
POINTER_SECONDS = 5.0  # a spotlight or laser fades after this long
# While the learner works a scene widget (a change less than WORKING_SECONDS ago) the transcript catches up at most
# once every WORKING_FRAME_SECONDS, and only right after the widget was drawn with a change, instead of every frame:
# a fast stream lays the transcript out anew each frame, a frame the next key would wait behind. The learner's hands
# come first; the text follows at up to 8 frames a second until they stop (ARCHITECTURE.md, *The app*).
WORKING_SECONDS = 0.3
WORKING_FRAME_SECONDS = 0.125
SHORT_ANSWER_PLACEHOLDER = N_("Type your answer, then Enter")


class RoomBody(Horizontal):
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
    stepping: var[bool] = var(False)  # step mode is on (bound to its card)
    decision_card: var[DecisionCard | None] = var(None)  # a decision waiting for the tester (bound to its card)

    def __init__(self, the_class: TheClass, theme_specs: dict[str, ThemeSpec]) -> None:
        super().__init__(id="main")
        self.the_class = the_class
        self._theme_specs = theme_specs
        self._parts: dict[type, Widget] = {}
        self._trace: TracePanel | None = None
        self._scene_widgets: list[Widget] | None = None
        self._transcript_at = 0.0  # when the transcript last caught up

    def compose(self) -> ComposeResult:
        agents = self.the_class.classroom.agents
        yield Roster(agents)
        with Vertical(id="center"):
            yield Transcript()
            yield DecisionCardView().data_bind(RoomBody.stepping, card=RoomBody.decision_card)
            yield ComposerBox(agents)
        with Vertical(id="side"):
            yield BoardPane(self.the_class.view, self._theme_specs)

    def part(self, kind: type[W]) -> W:
        """A widget of the room, also while a modal screen is on top."""
        # Cached: the frame timer asks for these 30 times a second, and a query walks the whole DOM.
        found = self._parts.get(kind)
        if found is None or not found.is_attached:
            found = self._parts[kind] = self.query_one(kind)
        return found  # type: ignore[return-value]

    def catch_up(self, after_work: bool = False) -> None:
        the_class = self.the_class
        view = the_class.view
        now = time.monotonic()
        working = now - the_class.worked_at < WORKING_SECONDS
        if not working or (after_work and now - self._transcript_at >= WORKING_FRAME_SECONDS):
            self._transcript_at = now
            dirty = view.take_dirty()
            if dirty:
                self.part(Transcript).sync(view, dirty)
        self.part(BoardPane).sync(view)
        self.statuses = (tuple(view.status.items()), view.director_deciding)
        self.cue, self.pointer, self.queued = view.cue, view.pointer, view.queue
        self.lesson_status = view.lesson.line() if view.lesson is not None and the_class.lesson_shown() else None
        self.replay_progress, self.notice, self.structured_output = view.replay, view.notice, view.structured_output
        self.muted = view.muted
        self.stepping, self.decision_card = view.stepping, view.decision_card
        if self._scene_widgets is None:
            self._scene_widgets = list(self.query(f".{CLASS}"))
        for widget in self._scene_widgets:
            cast(SceneWidget, widget).follow(the_class)
        trace = self.trace_panel()
        if trace is not None and trace.display:
            trace.show(view.decisions)
        board = self.part(BoardPane)
        self.side_empty = board.showing_board and not view.board.elements and not (trace is not None and
                                                                                   trace.display)

    def watch_muted(self, muted: frozenset[str]) -> None:
        self.part(Roster).update_muted(muted)

    def watch_side_empty(self, empty: bool) -> None:
        self.query_one("#side").set_class(empty, "-empty")

    def watch_statuses(self) -> None:
        view = self.the_class.view
        self.part(Roster).update_status(view.status, view.director_deciding)

    def watch_cue(self) -> None:
        cue = self.cue
        self._placeholder()
        self.part(CueBar).show(cue.options or [] if cue is not None else [])

    def watch_replay_progress(self) -> None:
        self._placeholder()

    def watch_notice(self) -> None:
        self._placeholder()

    def _placeholder(self) -> None:
        """What the composer says when empty: a replay's progress, the class getting ready, a short answer's hint,
        the class's question to the learner, or how to ask."""
        cue, status = self.cue, self.lesson_status
        prompt = (cue.prompt if cue is not None and cue.prompt else None) or _(DEFAULT_PLACEHOLDER)
        if status is not None and status.question is not None and not status.question.options:
            prompt = _(SHORT_ANSWER_PLACEHOLDER)
        prompt = self.replay_progress or self.notice or prompt
        self.part(Composer).placeholder = plain_block(text_cells.cut(prompt, 300))  # a str placeholder: markup

    def watch_pointer(self, pointer: Pointer | None) -> None:
        if pointer is None:
            return
        view = self.the_class.view

        def fade() -> None:
            if view.pointer is pointer:
                view.clear_pointer()

        self.set_timer(POINTER_SECONDS, fade)

    def watch_queued(self, queued: tuple[str, ...]) -> None:
        self.part(ComposerBox).show_queue(queued)
        self.screen.refresh_bindings()

    def watch_lesson_status(self, status: LessonStatus | None) -> None:
        # On the screen's queue: mounting the quiz's options from the body's own handler waits on the body's busy
        # queue (a tenth of a second, measured), and keys typed meanwhile would go to the composer.
        self.screen.call_next(self._show_lesson, status)

    async def _show_lesson(self, status: LessonStatus | None) -> None:
        if not self.is_attached:  # another class's body took its place meanwhile
            return
        line = self.part(LessonLine)
        if status is None:
            line.show("", "", False)
        else:
            line.show(status.text, status.short, status.waiting)
        widgets = list(self.query(f".{CLASS}"))
        for widget in widgets:
            await cast(SceneWidget, widget).show(status)
        self._placeholder()
        if any(widget.has_focus_within and not widget.display for widget in widgets):
            self.part(Composer).focus()
        self.screen.refresh_bindings()

    def watch_structured_output(self) -> None:
        self.the_class.show_title()

    # --- the views the room's keys open -----------------------------------------------------------------

    def trace_panel(self) -> TracePanel | None:
        return self._trace if self._trace is not None and self._trace.is_attached else None

    def toggle_trace(self) -> bool:
        """The trace panel shown or hidden; True: it shows (and has the keys)."""
        trace = self.trace_panel()
        if trace is None:  # built on first use: a DataTable costs start-up time most sessions never need
            from maic_tui.tui.widgets.trace_panel import TracePanel

            trace = self._trace = TracePanel()
            self.query_one("#side").mount(trace)
        else:
            trace.display = not trace.display
        if trace.display:
            trace.show(self.the_class.view.decisions)
            trace.focus()
            trace.action_last()
        return bool(trace.display)

    def scroll_transcript(self, pages: int) -> None:
        transcript = self.part(Transcript)
        if pages < 0:
            transcript.scroll_page_up()
        else:
            transcript.scroll_page_down()

    def relabel(self) -> None:
        """The interface's language changed: the labels set once are set again (the rest follows each frame)."""
        roster = self.part(Roster)
        roster.border_title = "" if roster.compact else _("Class")
        roster.repaint()
        trace = self.trace_panel()
        if trace is not None:
            trace.on_mount()
            trace.show(self.the_class.view.decisions, again=True)
        self.part(BoardPane).refresh_titles()
        self._placeholder()

    def repaint(self) -> None:
        """Colours follow the theme's background."""
        self.part(Roster).repaint()
        self.part(Transcript).repaint()
        self.part(BoardPane).refresh()
