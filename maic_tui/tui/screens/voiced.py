"""The class's voice on screen (ARCHITECTURE.md, *Speech*): the speaker a classroom's turns speak through, the
roster's mark for who is heard, and the key that mutes it. The class screen is one of these."""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING

from textual._context import NoActiveAppError
from textual.screen import Screen

if TYPE_CHECKING:
    from maic_tui.classroom.models import Classroom
    from maic_tui.live.assembly import SessionRecipe
    from maic_tui.live.driver import TurnDriver
    from maic_tui.room.view import ClassroomView


class VoicedScreen(Screen[None]):
    turns: TurnDriver
    view: ClassroomView

    def _give_voice(self, classroom: Classroom, recipe: SessionRecipe, previous: TurnDriver | None) -> None:
        """The classroom's speaker on its turns; the class before it (another classroom) falls silent."""
        if previous is not None:
            previous.speak_with(None)
        if recipe.voice is None or recipe.replay is not None:
            return
        from maic_tui.live.voice import VoiceError, make_speaker
        from maic_tui.llm import ModelOptions

        def notice(line: str) -> None:  # in the transcript, and as a toast once the screen is up
            self.view.note(line, "error")
            with contextlib.suppress(NoActiveAppError):
                self.notify(line, severity="warning", markup=False, timeout=8)

        try:
            speaker = make_speaker(classroom, recipe.voice, recipe.options or ModelOptions(), notice)
        except VoiceError as exc:
            notice(exc.lines[0])
            return
        if speaker is not None:
            speaker.on_speaking = self._aloud
        self.turns.speak_with(speaker)

    def _aloud(self, agent_id: str | None) -> None:
        from maic_tui.tui.widgets.roster import Roster

        for roster in self.query(Roster):
            roster.update_aloud(agent_id)

    def action_toggle_voice(self) -> None:
        if self.turns.voice is not None:
            muted = self.turns.voice.toggle_mute()
            self.notify("Voice muted (Ctrl+O speaks again)." if muted else "Voice on.", timeout=3)
