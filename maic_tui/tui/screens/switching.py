"""Switching what the room shows (ARCHITECTURE.md, *The app*): another classroom, a recorded session resumed, a fork
of this session, a generated classroom. Each closes the session (its log with it) and rebuilds the room."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from maic_tui.tui.screens.class_screen import ClassScreen

if TYPE_CHECKING:
    from maic_tui.classroom.models import Classroom
    from maic_tui.live.assembly import SessionRecipe


class SwitchingScreen(ClassScreen):
    def _can_switch(self) -> bool:
        if self.turn_running:
            self.notify("Let the replay finish before switching." if self.replaying else
                        "Interrupt or finish the turn before switching.", severity="warning")
        return not self.turn_running

    async def switch_classroom(self, name: str) -> None:
        if not self._can_switch():
            return
        from maic_tui.classroom import ClassroomError, load_classroom

        try:
            classroom = await asyncio.to_thread(load_classroom, name)
        except ClassroomError as exc:
            self.report(str(exc.problems[0]) if exc.problems else str(exc))
            return
        await self._reopen(classroom, replace(self.recipe, classroom_name=name, resume=None, replay=None))

    async def resume_session(self, session_id: str) -> None:
        """Reopen a recorded session as it was; it goes on being recorded under its own id. Not in a browser tab:
        the sessions on the server are other learners'."""
        if not self._can_switch() or self.recipe.data_dir is None or self.app.is_web:
            return
        from maic_tui.room.replay import open_recorded

        try:
            recorded = await asyncio.to_thread(open_recorded, self.recipe.data_dir, session_id)
        except ValueError as exc:  # StoreError, ClassroomError, LogError: all one line
            self.report(str(exc).splitlines()[0])
            return
        await self._reopen(recorded.classroom, replace(self.recipe, resume=recorded, replay=None))

    async def fork_from(self, turn: int) -> None:
        """Fork this session (or the log being replayed) before the learner's ``turn``-th message, and go on with
        the fork (ARCHITECTURE.md, *The routing workbench*). Not in a browser tab, which writes nothing."""
        if self.app.is_web or not self._can_switch():
            return
        from maic_tui import paths
        from maic_tui.log.fork import fork_from

        log = self.session.log if self.session is not None else None
        if log is not None:
            log.flush()
        replay = self.recipe.replay
        folder = self.recipe.data_dir or paths.data_dir(None)
        try:
            forked = await asyncio.to_thread(fork_from, folder, turn, log.session_id if log else None,
                                             replay.source if replay is not None else None)
        except ValueError as exc:  # BadInput, StoreError, LogError: all one line
            self.report(str(exc).splitlines()[0])
            return
        await self.resume_session(forked.id)
        self.notify(f"Forked before turn {turn}: this is session {forked.id}.", markup=False, timeout=6)

    async def _reopen(self, classroom: Classroom, recipe: SessionRecipe) -> None:
        left = self.recorded_session()
        self.close_session()
        if left is not None:
            self.records_at_end(left)  # with [records] auto = true
        self.set_classroom(classroom, recipe)
        await self.rebuild_room()

    def action_new_classroom(self) -> None:
        """Generate a classroom (palette), written to ``classrooms/`` in the data directory, and open it. Not in a
        browser tab: a tab does not write files on the server."""
        if self.app.is_web:
            return
        from maic_tui import paths
        from maic_tui.llm import ModelOptions
        from maic_tui.tui.screens.new_classroom import NewClassroomScreen

        folder = (self.recipe.data_dir or paths.data_dir(None)) / "classrooms"

        async def opened(path: Path | None) -> None:
            if path is not None:
                await self.switch_classroom(str(path))

        self.app.push_screen(NewClassroomScreen(self.recipe.model, self.recipe.options or ModelOptions(), folder),
                             opened)

