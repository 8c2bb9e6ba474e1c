"""Step mode's card above the composer: while it is on, a line says so; while a decision waits, the choices
(numbered in class-list order, ``u`` the learner, ``e`` the end) and the director's proposal once asked. The card
takes the keys while a decision waits, and passes each one on as ``DecisionKey``."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from rich.text import Text
from textual import events
from textual.reactive import var
from textual.widgets import Static

from maic_tui.i18n import N_, _
from maic_tui.text_safety import one_line
from maic_tui.tui.messages import DecisionCardReleased, DecisionKey

if TYPE_CHECKING:
    from maic_tui.orchestration.routing.picking import DecisionCard, Proposal

ROOM_KEYS = frozenset({"escape", "ctrl+c", "ctrl+q", "ctrl+t", "ctrl+p", "tab", "shift+tab", "pageup", "pagedown"})
FUNCTION_KEY = re.compile(r"f\d+")
ON_LINE = N_("step mode · the class waits before each decision · Ctrl+T turns it off")


def _proposal(proposal: Proposal | None, asking: bool) -> Text:
    if asking:
        return Text(_("asking the director…"), style="italic")
    if proposal is None:
        return Text(_("a: ask the director · Enter: let it decide"), style="dim")
    text = Text(_("director proposes") + " ")
    text.append(one_line(proposal.final, 40), style="bold")
    text.append(f" ({proposal.path})")
    rejected = [v for v in proposal.verdicts if not v.passed]
    if rejected:  # the answer the guards turned down before the one proposed
        text.append(f"  ✗ {one_line(rejected[0].rule, 30)}", style="bold red")
    elif proposal.verdicts:
        text.append("  ✓ " + _("guards"), style="green")
    text.append(" · " + _("Enter accepts · r asks again"), style="dim")
    return text


def card_text(card: DecisionCard) -> Text:
    names = dict(card.names)
    text = Text(_("step mode · decision {step}: who speaks next?").format(step=card.step) + "\n", style="bold")
    for key, choice in card.choices:
        text.append(f" {key} ", style="reverse")
        text.append(f" {one_line(names.get(choice, choice), 24)}  ")
    text.append("\n")
    text.append_text(_proposal(card.proposal, card.asking))
    return text


class DecisionCardView(Static, can_focus=True):
    DEFAULT_CSS = """
    DecisionCardView {
        height: auto;
        display: none;
        border-left: outer $warning;
        padding: 0 0 0 1;
    }
    DecisionCardView:focus {
        border-left: outer $accent;
    }
    """

    # Bound to the room's body (data_bind), which sets them once a frame from the view model.
    stepping: var[bool] = var(False)  # step mode is on
    card: var[DecisionCard | None] = var(None)  # a decision waiting for the tester

    def __init__(self) -> None:
        super().__init__(id="decision-card")

    def watch_stepping(self) -> None:
        self._show()

    def watch_card(self, card: DecisionCard | None) -> None:
        self._show()
        if card is not None and self.screen is self.app.screen:
            self.focus()  # the card takes the keys while the decision waits
        elif card is None and self.has_focus:
            self.post_message(DecisionCardReleased())

    def _show(self) -> None:
        card = self.card
        self.display = self.stepping or card is not None
        self.update(card_text(card) if card is not None else Text(_(ON_LINE), style="dim italic"))

    def on_key(self, event: events.Key) -> None:
        if event.key in ROOM_KEYS or FUNCTION_KEY.fullmatch(event.key):
            return  # the room's own keys
        event.stop()
        event.prevent_default()
        self.post_message(DecisionKey(event.key))
