"""The whole conversation as plain text: every entry (also those no longer mounted), selectable; or another text
about the session (its talk statistics)."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import ModalScreen
from textual.widgets import TextArea

from maic_tui.i18n import N_, _
from maic_tui.room.view import AgentMessage, ClassroomView, LearnerMessage


def transcript_text(view: ClassroomView) -> str:
    lines: list[str] = []
    for entry in view.entries:
        if isinstance(entry, LearnerMessage):
            lines.append(f"{entry.nickname}: {entry.text}")
        elif isinstance(entry, AgentMessage):
            body = " ".join(p.text.strip() if p.kind == "text" else f"[{p.text}]" for p in entry.parts)
            marker = " [interrupted]" if entry.interrupted else ""
            lines.append(f"{entry.name}: {body.strip()}{marker}")
        else:
            lines.append(f"! {entry.text}")
        lines.append("")
    return "\n".join(lines)


class FullTranscriptScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    FullTranscriptScreen {
        align: center middle;
    }
    #full-transcript {
        width: 95%;
        height: 90%;
    }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "dismiss", N_("Close"))]

    def __init__(self, text: str, title: str | None = None) -> None:
        super().__init__()
        self.text, self.title_text = text, title or _("Full transcript")

    def compose(self) -> ComposeResult:
        area = TextArea(self.text, read_only=True, soft_wrap=True, id="full-transcript")
        area.border_title = _("{title} (select to copy · Esc closes)").format(title=self.title_text)
        yield area
