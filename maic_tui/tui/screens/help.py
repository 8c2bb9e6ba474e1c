"""F1: what the app does and its keys."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown

HELP = """\
# maic-tui

A classroom of AI agents. You are the learner: type a question and press **Enter**. The *director*
decides who answers; agents speak and draw on the whiteboard.

| Key | What it does |
|---|---|
| Enter | send (while the class speaks, your message waits in a queue) |
| Alt+Enter, Shift+Enter, Ctrl+J | new line |
| `@` + name | pick who answers first; Tab or Enter completes the name |
| Esc | interrupt the class (the partial message stays, marked interrupted) |
| Alt+1 … Alt+4 | answer with one of the suggested options |
| F2 | director trace: every routing decision of the turn |
| F3 | switch the right pane between whiteboard and slide |
| F5 / F6 | previous / next scene |
| F4 | maximise the whiteboard pane (Esc to restore) |
| Ctrl+P | command palette: themes, classrooms, scenes, personas, full transcript |
| Ctrl+Q | quit |

Click an agent in the class list (or select it and press Enter) to see its persona card.
Select text with the mouse to copy it; *Full transcript* in the palette shows everything as text.
"""


class HelpScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    HelpScreen {
        align: center middle;
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
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,f1,q", "dismiss", "Close")]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-body"):
            yield Markdown(HELP)
