"""Plays a recorded log in the app through ``session.log_player``: records reach the view exactly as live
events do, so the widgets cannot tell the difference; the composer shows the progress, Space pauses."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from textual.app import App

    from maic_tui.live.assembly import Replay, SessionRecipe
    from maic_tui.log.playback import LogPlayer
    from maic_tui.log.records import Timed
    from maic_tui.tui.app import ClassroomApp

    _Base = App[None]
else:
    _Base = object


class ReplayControls(_Base):
    """The replay's progress in the composer's place, and Space to pause it. Mixed into ``ClassroomApp``."""

    recipe: SessionRecipe
    replaying: bool
    log_player: LogPlayer | None

    def _replay_prompt(self) -> str:
        assert self.recipe.replay is not None
        source = self.recipe.replay.source or "a recorded session"
        player = self.log_player
        if player is None:
            return f"Replay of {source}: nothing is sent"
        pause = (" · Space resumes" if player.paused else " · Space pauses") if self.replaying else ""
        return f"Replay of {source}: {player.progress()}{pause} · nothing is sent"

    def show_replay_progress(self) -> None:
        from maic_tui.tui.plain import plain_block
        from maic_tui.tui.widgets.composer import Composer

        self.screen_stack[0].query_one(Composer).placeholder = plain_block(self._replay_prompt()[:300])

    def action_pause_replay(self) -> None:
        if self.log_player is not None:
            self.log_player.toggle_pause()
            self.show_replay_progress()


async def play(app: ClassroomApp, replay: Replay) -> None:
    # Imported here: this module is part of the app's first frame, the event models are not.
    from maic_tui.events import AgentEndEvent
    from maic_tui.log.playback import LogPlayer
    from maic_tui.log.replay import Rebuilt
    from maic_tui.whiteboard import Whiteboard

    player = app.log_player = LogPlayer(replay.records, replay.speed)
    rebuilt = Rebuilt(app.view, Whiteboard())

    def apply(item: Timed) -> None:
        rebuilt.apply(item.record)
        if isinstance(item.record, AgentEndEvent):
            app.flush()
        app.show_replay_progress()

    app.replaying = True
    app.refresh_bindings()
    try:
        await player.play(apply)
        rebuilt.close_open_turn()
    finally:
        app.replaying = False
        app.flush()
        app.show_replay_progress()
        app.refresh_bindings()
        app.replay_finished()
