"""Switching what the room shows (ARCHITECTURE.md, *The app*): another classroom, a recorded session resumed, a fork
of this session, a generated classroom. Each ends with ``reopen``, the room's: it closes the class (its log with
it) and rebuilds the room around the new one."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from maic_tui.i18n import _

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable

    from textual.screen import Screen

    from maic_tui.classroom.models import Classroom
    from maic_tui.live.assembly import SessionRecipe
    from maic_tui.tui.parts.the_class import TheClass

    Reopen = Callable[[Classroom, SessionRecipe], Awaitable[None]]


class Switching:
    def __init__(self, screen: Screen[None], reopen: Reopen) -> None:
        self._screen, self._reopen = screen, reopen

    def _can_switch(self, the_class: TheClass) -> bool:
        if the_class.turn_running:
            self._screen.notify(_("Let the replay finish before switching.") if the_class.replaying else
                                _("Interrupt or finish the turn before switching."), severity="warning")
        return not the_class.turn_running

    async def to_classroom(self, the_class: TheClass, name: str) -> None:
        if not self._can_switch(the_class):
            return
        from maic_tui.classroom import ClassroomError, load_classroom

        try:
            classroom = await asyncio.to_thread(load_classroom, name)
        except ClassroomError as exc:
            the_class.report(str(exc.problems[0]) if exc.problems else str(exc))
            return
        await self._reopen(classroom, replace(the_class.recipe, classroom_name=name, resume=None, replay=None))

    async def to_session(self, the_class: TheClass, session_id: str) -> None:
        """Reopen a recorded session as it was; it goes on being recorded under its own id. Not in a browser tab:
        the sessions on the server are other learners'."""
        data_dir = the_class.recipe.data_dir
        if not self._can_switch(the_class) or data_dir is None or self._screen.app.is_web:
            return
        from maic_tui.room.replay import open_recorded

        try:
            recorded = await asyncio.to_thread(open_recorded, data_dir, session_id)
        except ValueError as exc:  # StoreError, ClassroomError, LogError: all one line
            the_class.report(str(exc).splitlines()[0])
            return
        await self._reopen(recorded.classroom, replace(the_class.recipe, resume=recorded, replay=None))

    async def fork(self, the_class: TheClass, turn: int) -> None:
        """Fork this session (or the log being replayed) before the learner's ``turn``-th message, and go on with
        the fork (ARCHITECTURE.md, *The routing workbench*). Not in a browser tab, which writes nothing."""
        if self._screen.app.is_web or not self._can_switch(the_class):
            return
        from maic_tui.log.fork import fork_from
        from maic_tui.tui.parts.learning_records import data_dir

        log = the_class.session.log if the_class.session is not None else None
        if log is not None:
            log.flush()
        replay = the_class.recipe.replay
        try:
            forked = await asyncio.to_thread(fork_from, data_dir(the_class.recipe), turn,
                                             log.session_id if log else None,
                                             replay.source if replay is not None else None)
        except ValueError as exc:  # BadInput, StoreError, LogError: all one line
            the_class.report(str(exc).splitlines()[0])
            return
        await self.to_session(the_class, forked.id)
        self._screen.notify(_("Forked before turn {turn}: this is session {id}.").format(turn=turn, id=forked.id),
                            markup=False, timeout=6)

    def new_classroom(self, the_class: TheClass) -> None:
        """Generate a classroom (palette), written to ``classrooms/`` in the data directory, and open it. Not in a
        browser tab: a tab does not write files on the server."""
        app = self._screen.app
        if app.is_web:
            return
        from maic_tui.llm import ModelOptions
        from maic_tui.tui.parts.learning_records import data_dir
        from maic_tui.tui.screens.new_classroom import NewClassroomScreen

        recipe = the_class.recipe
        folder = data_dir(recipe) / "classrooms"

        async def opened(path: Path | None) -> None:
            if path is not None:
                await self.to_classroom(the_class, str(path))

        app.push_screen(NewClassroomScreen(recipe.model, recipe.options or ModelOptions(), folder), opened)
