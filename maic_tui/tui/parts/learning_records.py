"""The learner's records on screen (README, *Learning records*): Ctrl+R writes the session's xAPI statements beside
it and sends them to the configured LRS, with progress; a session left for another is sent when ``[records] auto``
says so; what waited for an LRS that was away goes once a class is ready. All of it in threads of the room's
screen (one group, ``records``): the class never waits for an LRS."""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from maic_tui.i18n import _

if TYPE_CHECKING:
    from textual.screen import Screen

    from maic_tui.live.assembly import SessionRecipe
    from maic_tui.tui.parts.the_class import TheClass


def data_dir(recipe: SessionRecipe) -> Path:
    from maic_tui import paths

    return recipe.data_dir or paths.data_dir(None)


class LearningRecords:
    def __init__(self, screen: Screen[None]) -> None:
        self._screen = screen

    @staticmethod
    def recorded_session(the_class: TheClass) -> str | None:
        """The live session's id, once it is in the store (None: nothing recorded yet, or a replay)."""
        session = the_class.session
        if session is None or session.log is None or the_class.recipe.replay is not None:
            return None
        return session.log.session_id if session.log.stored else None

    def export(self, the_class: TheClass) -> None:
        """Ctrl+R."""
        session = the_class.session
        if self.recorded_session(the_class) is None or session is None or session.log is None:
            self._screen.notify(_("Nothing of this session is recorded yet."), severity="warning", timeout=4)
            return
        session.log.flush()  # the statements are read from the store: everything said so far goes in first
        self._screen.notify(_("Writing your learning records…"), timeout=3)
        self._in_thread(partial(self._export, data_dir(the_class.recipe), session.log.session_id), exclusive=True)

    def at_end(self, recipe: SessionRecipe, session_id: str) -> None:
        """A session the learner left for another: sent now when ``[records] auto`` asks for it."""
        self._in_thread(partial(self._at_end, data_dir(recipe), session_id))

    def waiting(self, recipe: SessionRecipe) -> None:
        """Records an LRS that was away missed, sent once a class is ready (nothing when none wait)."""
        self._in_thread(partial(self._waiting, data_dir(recipe)))

    def _in_thread(self, work: partial[None], exclusive: bool = False) -> None:
        self._screen.run_worker(work, group="records", thread=True, exclusive=exclusive, exit_on_error=False)

    def _export(self, folder: Path, session_id: str) -> None:
        from maic_tui.learning.delivery import export_records

        app = self._screen.app

        def progress(done: int, total: int) -> None:
            line = _("Sending learning records: {done} of {total}").format(done=done, total=total)
            app.call_from_thread(self._screen.notify, line, timeout=2)

        exported = export_records(folder, session_id, progress)
        app.call_from_thread(self._screen.notify, exported.line, markup=False, timeout=8,
                             severity="information" if exported.path is not None else "error")

    # In the thread, imports included: the records' modules load while the class plays.
    def _at_end(self, folder: Path, session_id: str) -> None:
        from maic_tui.learning.delivery import at_session_end

        self._say(at_session_end(folder, session_id))

    def _waiting(self, folder: Path) -> None:
        from maic_tui.learning.delivery import at_start

        self._say(at_start(folder))

    def _say(self, line: str | None) -> None:
        if line is not None:
            self._screen.app.call_from_thread(self._screen.notify, line, markup=False, timeout=8)
