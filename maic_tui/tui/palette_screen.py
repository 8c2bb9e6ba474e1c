"""The command palette in the interface's language: Textual's ``CommandPalette`` writes its search field's
placeholder (a parameter) and its "No matches found" line (in a private method, no setting) in English."""

from __future__ import annotations

from rich.align import Align
from rich.text import Text
from textual.command import CommandList, CommandPalette, ProviderSource
from textual.widgets.option_list import Option

from maic_tui.i18n import _


class Palette(CommandPalette):
    """Textual's palette, its own words translated."""

    def __init__(self, providers: ProviderSource | None = None, *, placeholder: str | None = None,
                 id: str | None = None) -> None:
        super().__init__(providers, placeholder=placeholder or _("Search for commands…"), id=id)

    # Textual has no hook for this line: the override copies Textual 8's own method (the same timer, option id
    # and flag) with the words translated. tests/tui/test_palette_words.py fails when Textual's method changes.
    def _start_no_matches_countdown(self, search_value: str) -> None:
        self._stop_no_matches_countdown()

        def show_no_matches() -> None:
            if search_value:  # an empty search is discovery: nothing to say there
                self.query_one(CommandList).add_option(
                    Option(Align.center(Text(_("No matches found"), style="not bold")), disabled=True,
                           id=self._NO_MATCHES))
                self._list_visible = True
            else:
                self._list_visible = False

        self._no_matches_timer = self.set_timer(self._NO_MATCHES_COUNTDOWN, show_no_matches)
