"""The room's own screen: the footer lists keys in the app's order, and keys go to the composer whenever
no other view is open (after help, a persona card, the palette or the maximised board closes)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.binding import Binding
from textual.screen import Screen

if TYPE_CHECKING:
    from textual.binding import ActiveBinding
    from textual.widget import Widget


class RoomScreen(Screen[None]):
    @property
    def active_bindings(self) -> dict[str, ActiveBinding]:
        """In the order the app declares them, whichever widget has focus.

        Textual orders them by where a key was first bound along the focus chain, so a key the composer
        also binds (F5, F6, Ctrl+C) would jump to the front, and the footer would move as focus moves."""
        found = super().active_bindings
        declared = [binding for binding in self.app.BINDINGS if isinstance(binding, Binding)]
        ranks = {(binding.key, binding.action): rank for rank, binding in reversed(list(enumerate(declared)))}
        order = sorted(found, key=lambda key: ranks.get((key, found[key].binding.action), len(ranks)))
        return {key: found[key] for key in order}

    def on_screen_resume(self) -> None:
        self.call_after_refresh(self.focus_composer)

    def watch_maximized(self, previous: Widget | None, maximized: Widget | None) -> None:
        if maximized is None:
            if previous is not None:  # it took the keys only while it filled the screen
                previous.can_focus = False
            self.call_after_refresh(self.focus_composer)

    def focus_composer(self) -> None:
        from maic_tui.tui.widgets.composer import Composer

        if self.app.screen is self and self.maximized is None:
            for composer in self.query(Composer):
                composer.focus()
