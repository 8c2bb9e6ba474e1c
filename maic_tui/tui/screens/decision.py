"""One director decision in full (the trace inspector's Enter): what the director was sent, each answer and the
guards' verdicts on it, the fallback, the tokens and the message it produced. ``m`` closes it on that message."""

from __future__ import annotations

from typing import ClassVar, Literal

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import ModalScreen
from textual.widgets import TextArea

from maic_tui.events import TraceRecord
from maic_tui.i18n import N_, _
from maic_tui.room.decision_detail import as_text
from maic_tui.room.decisions import TurnDecisions
from maic_tui.tui.plain import plain

Outcome = tuple[Literal["message"], str] | tuple[Literal["fork"], int] | None


class DecisionScreen(ModalScreen[Outcome]):
    """Dismissed with the message to show in the transcript, the turn to fork before, or None."""

    DEFAULT_CSS = """
    DecisionScreen {
        align: center middle;
    }
    #decision {
        width: 95%;
        height: 90%;
    }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss", N_("Close")),
        Binding("m", "to_message", N_("Show its message")),
        Binding("f", "fork", N_("Fork from this turn")),
    ]

    def __init__(self, turn: TurnDecisions, record: TraceRecord) -> None:
        super().__init__()
        self.turn, self.record = turn, record

    def compose(self) -> ComposeResult:
        area = TextArea(as_text(self.turn, self.record), read_only=True, soft_wrap=True, id="decision")
        message = " · " + _("m: its message") if self.turn.message_of(self.record) else ""
        area.border_title = plain(_("{turn}, step {step}").format(turn=self.turn.heading, step=self.record.step))
        area.border_subtitle = _("Esc closes") + message + " · " + _("f: fork from this turn")
        yield area

    def action_to_message(self) -> None:
        message = self.turn.message_of(self.record)
        if message is not None:
            self.dismiss(("message", message))
        else:
            self.notify(_("This decision sent nobody to speak."), severity="warning")

    def action_fork(self) -> None:
        """A new session holding everything before this learner turn, opened in place of this one."""
        if self.turn.number < 1:
            self.notify(_("This decision came before the learner's first message: there is nothing to fork."),
                        severity="warning")
        else:
            self.dismiss(("fork", self.turn.number))
