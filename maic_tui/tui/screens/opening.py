"""The first frame, while the classroom file is checked: the header, the opening line and the footer. The room's
own code (its screen, its widgets) loads after it, so a terminal shows something as soon as a bare Textual app
would (ARCHITECTURE.md, *Why it is done this way*)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import ActiveBinding
from textual.screen import Screen
from textual.widgets import Footer, Header, Static

from maic_tui.i18n import _
from maic_tui.tui.keys import translated
from maic_tui.tui.plain import plain

NARROW_COLUMNS = 110  # below this the class list shows avatars only and the footer is compact


def opening_line(opening: str) -> Static:
    return Static(plain(_("Opening {name}…").format(name=opening) if opening else _("Opening the classroom…")),
                  id="opening")


class OpeningScreen(Screen[None]):
    def __init__(self, opening: str) -> None:
        super().__init__(id="opening-screen")
        self._opening = opening

    @property
    def active_bindings(self) -> dict[str, ActiveBinding]:
        return {key: translated(active) for key, active in super().active_bindings.items()}

    def compose(self) -> ComposeResult:
        yield Header()
        yield opening_line(self._opening)
        yield Footer()
