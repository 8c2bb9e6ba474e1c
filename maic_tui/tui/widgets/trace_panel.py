"""The trace inspector: every director decision of the session, grouped by turn, newest last. One line a decision
(it fits the pane: the line is cut, never wrapped); Enter opens the decision in full."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from textual.binding import Binding, BindingType
from textual.content import Content
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from maic_tui.i18n import N_, _
from maic_tui.room.decision_detail import row
from maic_tui.tui.messages import ForkRequested
from maic_tui.tui.plain import plain

if TYPE_CHECKING:
    from maic_tui.room.decisions import SessionDecisions
    from maic_tui.tui.screens.decision import Outcome


class TracePanel(OptionList):
    DEFAULT_CSS = """
    TracePanel {
        text-wrap: nowrap;
        text-overflow: ellipsis;
    }
    TracePanel > .option-list--option-disabled {
        color: $text-muted;
        text-style: bold;
    }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "leave", N_("Back"), show=False)]

    def __init__(self) -> None:
        super().__init__(id="trace")
        self._version = -1
        self._decisions: SessionDecisions | None = None

    def on_mount(self) -> None:
        self.border_title = _("Director trace · Enter: details")

    def show(self, decisions: SessionDecisions, again: bool = False) -> None:
        if decisions.version == self._version and self.option_count and not again:
            return
        self._version, self._decisions = decisions.version, decisions
        at_end = self.highlighted is None or self.highlighted >= self.option_count - 1
        self.clear_options()
        options: list[Option] = []
        for index, turn in enumerate(decisions.turns):
            if not turn.records:
                continue
            options.append(Option(plain(turn.heading), disabled=True))
            # Content as it is (the line is made safe by ``row``): plain() would fold the columns' spacing.
            options += [Option(Content(row(turn, record)), id=f"{index}:{record.step}") for record in turn.records]
        if not options:
            options.append(Option(plain(_("No decisions yet: the director decides once the learner speaks.")),
                                  disabled=True))
        self.add_options(options)
        if at_end:
            self.action_last()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Enter on a decision opens it in full; closed with ``m``, its message is shown in the transcript."""
        from maic_tui.tui.screens.decision import DecisionScreen

        event.stop()
        if not event.option.id or self._decisions is None:
            return
        index, step = (int(part) for part in event.option.id.split(":"))
        turn = self._decisions.turns[index]
        record = next(r for r in turn.records if r.step == step)
        self.app.push_screen(DecisionScreen(turn, record), self._decision_closed)

    def _decision_closed(self, outcome: Outcome) -> None:
        from maic_tui.tui.widgets.transcript import Transcript

        if outcome is None:
            return
        if outcome[0] == "fork":
            # Handled on the screen's queue: the fork rebuilds the room, this panel included, which must not wait
            # for itself.
            self.post_message(ForkRequested(outcome[1]))
        elif outcome[0] == "message" and not self.screen.query_one(Transcript).show_message(outcome[1]):
            self.notify(_("That message is no longer on screen: Ctrl+P “Full transcript” has it."))

    def action_leave(self) -> None:
        """Esc gives the keys back to the composer (the panel stays open)."""
        self.post_message(self.Left())

    class Left(Message):
        """Esc in the panel."""
