"""The room's views and their actions: help, trace panel, board or slide, scenes, the full transcript,
copying, persona cards. Mixed into ``ClassroomApp``; screens and the trace panel load on first use, so the
first frame never waits for modules most sessions never open."""

from __future__ import annotations

from typing import TYPE_CHECKING

from maic_tui.tui.messages import PersonaRequested, ScrollRequested
from maic_tui.tui.widgets.board_pane import BoardPane
from maic_tui.tui.widgets.transcript import Transcript

if TYPE_CHECKING:
    from textual.app import App

    from maic_tui.classroom.models import Classroom
    from maic_tui.live.session import ClassroomSession
    from maic_tui.room.view import ClassroomView
    from maic_tui.tui.widgets.trace_panel import TracePanel

    _Base = App[None]
else:
    _Base = object


class RoomViews(_Base):
    classroom: Classroom
    view: ClassroomView
    _trace: TracePanel | None

    if TYPE_CHECKING:
        @property
        def session(self) -> ClassroomSession | None: ...
        def part(self, kind: type[BoardPane]) -> BoardPane: ...
        def flush(self) -> None: ...
        def jump_to_scene(self, index: int) -> bool: ...

    def action_help(self) -> None:
        from maic_tui.tui.screens.help import HelpScreen

        self.push_screen(HelpScreen())

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
            trace.show(self.view.trace)

    def action_toggle_board(self) -> None:
        self.part(BoardPane).toggle()

    def action_maximize_board(self) -> None:
        """The board takes the keys while it fills the screen (Esc gives them back to the composer)."""
        board = self.part(BoardPane)
        board.can_focus = True
        board.focus()
        self.screen.maximize(board)

    def on_scroll_requested(self, message: ScrollRequested) -> None:
        transcript = self.screen_stack[0].query_one(Transcript)
        if message.pages < 0:
            transcript.scroll_page_up()
        else:
            transcript.scroll_page_down()

    def action_next_scene(self) -> None:
        self.go_to_scene(self.view.scene_index + 1)

    def action_previous_scene(self) -> None:
        self.go_to_scene(self.view.scene_index - 1)

    def go_to_scene(self, index: int) -> None:
        if self.jump_to_scene(index):  # the lesson plays that scene
            self.part(BoardPane).mode = "slide"
            return
        if not self.view.change_scene(index):
            return
        if self.session is not None:
            self.session.change_scene(index)
        board = self.part(BoardPane)
        board.mode = "slide"
        self.flush()

    def action_full_transcript(self) -> None:
        from maic_tui.tui.screens.full_transcript import FullTranscriptScreen, transcript_text

        self.push_screen(FullTranscriptScreen(transcript_text(self.view)))

    def action_copy_last(self) -> None:
        from maic_tui.room.view import AgentMessage

        last = next((e for e in reversed(self.view.entries) if isinstance(e, AgentMessage)), None)
        if last is not None:
            self.copy_to_clipboard(last.text)
            self.notify(f"Copied {last.name}'s message.", markup=False)

    def on_persona_requested(self, message: PersonaRequested) -> None:
        self.show_persona(message.agent_id)

    def show_persona(self, agent_id: str) -> None:
        from maic_tui.tui.screens.persona import PersonaScreen

        agent = self.classroom.agent(agent_id)
        if agent is not None:
            scene = self.view.scene
            self.push_screen(PersonaScreen(agent, scene.type if scene else None))
