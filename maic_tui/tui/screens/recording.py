"""The learner's records on screen (README, *Learning records*): Ctrl+R writes the session's xAPI statements beside
it and sends them to the configured LRS, with progress; a session left for another is sent when ``[records] auto``
says so; what waited for an LRS that was away goes once a class is ready. All of it in threads: the class never
waits for an LRS. The class screen is one of these."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from textual import work

from maic_tui.tui.screens.voiced import VoicedScreen

if TYPE_CHECKING:
    from maic_tui.live.assembly import SessionRecipe


class RecordingScreen(VoicedScreen):
    recipe: SessionRecipe

    def _data_dir(self) -> Path:
        from maic_tui import paths

        return self.recipe.data_dir or paths.data_dir(None)

    def recorded_session(self) -> str | None:
        """The live session's id, once it is in the store (None: nothing recorded yet, or a replay)."""
        session = self.turns.session
        if session is None or session.log is None or self.recipe.replay is not None:
            return None
        return session.log.session_id if session.log.stored else None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "export_records":
            return self.recorded_session() is not None
        return super().check_action(action, parameters)

    def action_export_records(self) -> None:
        session = self.turns.session
        if self.recorded_session() is None or session is None or session.log is None:
            self.notify("Nothing of this session is recorded yet.", severity="warning", timeout=4)
            return
        session.log.flush()  # the statements are read from the store: everything said so far goes in first
        self.notify("Writing your learning records…", timeout=3)
        self._export(session.log.session_id)

    @work(thread=True, group="records", exclusive=True, exit_on_error=False)
    def _export(self, session_id: str) -> None:
        from maic_tui.learning.delivery import export_records

        def progress(done: int, total: int) -> None:
            self.app.call_from_thread(self.notify, f"Sending learning records: {done} of {total}", timeout=2)

        exported = export_records(self._data_dir(), session_id, progress)
        self.app.call_from_thread(self.notify, exported.line, markup=False, timeout=8,
                                  severity="information" if exported.path is not None else "error")

    @work(thread=True, group="records", exit_on_error=False)
    def records_at_end(self, session_id: str) -> None:
        """A session the learner left for another: sent now when ``[records] auto`` asks for it."""
        from maic_tui.learning.delivery import at_session_end

        line = at_session_end(self._data_dir(), session_id)
        if line is not None:
            self.app.call_from_thread(self.notify, line, markup=False, timeout=8)

    @work(thread=True, group="records", exit_on_error=False)
    def records_waiting(self) -> None:
        """Records an LRS that was away missed, sent once a class is ready (nothing when none wait)."""
        from maic_tui.learning.delivery import at_start

        line = at_start(self._data_dir())
        if line is not None:
            self.app.call_from_thread(self.notify, line, markup=False, timeout=8)
