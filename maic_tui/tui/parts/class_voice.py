"""The class's voice on screen (ARCHITECTURE.md, *Speech*): the speaker a classroom's turns speak through, the
roster's mark for who is heard, and the key that mutes it (Ctrl+O)."""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING

from textual._context import NoActiveAppError

from maic_tui.i18n import _

if TYPE_CHECKING:
    from textual.screen import Screen

    from maic_tui.live.driver import TurnDriver
    from maic_tui.tui.parts.the_class import TheClass


class ClassVoice:
    def __init__(self, screen: Screen[None]) -> None:
        self._screen = screen

    def give(self, the_class: TheClass, previous: TurnDriver | None) -> None:
        """The classroom's speaker on its turns; the class before it (another classroom) falls silent."""
        if previous is not None:
            previous.speak_with(None)
        recipe = the_class.recipe
        if recipe.voice is None or recipe.replay is not None:
            return
        from maic_tui.live.voice import VoiceError, make_speaker
        from maic_tui.llm import ModelOptions

        def notice(line: str) -> None:  # in the transcript, and as a toast once the screen is up
            the_class.view.note(line, "error")
            with contextlib.suppress(NoActiveAppError):
                self._screen.notify(line, severity="warning", markup=False, timeout=8)

        try:
            speaker = make_speaker(the_class.classroom, recipe.voice, recipe.options or ModelOptions(), notice)
        except VoiceError as exc:
            notice(exc.lines[0])
            return
        if speaker is not None:
            speaker.on_speaking = self._aloud
        the_class.turns.speak_with(speaker)

    def _aloud(self, agent_id: str | None) -> None:
        from maic_tui.tui.widgets.roster import Roster

        for roster in self._screen.query(Roster):
            roster.update_aloud(agent_id)

    @staticmethod
    def available(turns: TurnDriver) -> bool:
        return turns.voice is not None

    def toggle(self, turns: TurnDriver) -> None:
        if turns.voice is not None:
            muted = turns.voice.toggle_mute()
            self._screen.notify(_("Voice muted (Ctrl+O speaks again).") if muted else _("Voice on."), timeout=3)
