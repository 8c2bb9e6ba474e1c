"""F1: what the app does and its keys."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown

from maic_tui.i18n import N_, _
from maic_tui.tui.keys import key_table

HELP_TEMPLATE = N_("""\
# maic-tui

A classroom of AI agents. You are the learner: type a question and press **Enter**. The *director*
decides who answers; agents speak and draw on the whiteboard.

{keys}
Click an agent in the class list (or use the palette's persona commands) to see its persona card.
Select text with the mouse and press Ctrl+C to copy it; *Full transcript* in the palette shows everything as text.
""")


def help_text() -> str:
    """In the interface's language, the key table too."""
    return _(HELP_TEMPLATE).format(keys=key_table(_))


class HelpScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    HelpScreen {
        align: center middle;
    }
    /* A key column wide enough for a key such as "@ + name, Tab" on one line: the descriptions wrap. */
    HelpScreen MarkdownTableContent {
        grid-columns: 21 1fr;
    }
    #help-body {
        width: 90;
        max-width: 95%;
        height: 90%;
        border: round $primary;
        background: $surface;
        padding: 0 1;
    }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,f1,q", "dismiss", N_("Close"))]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-body"):
            yield Markdown(help_text())
