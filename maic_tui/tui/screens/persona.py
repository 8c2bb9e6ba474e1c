"""An agent's persona card, for demoing personas."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from maic_tui.actions import abilities
from maic_tui.classroom.models import Agent
from maic_tui.i18n import N_, _
from maic_tui.scenes.registry import actions_in
from maic_tui.text_safety import one_line, terminal_safe
from maic_tui.tui.plain import LABEL_CHARS
from maic_tui.tui.theming import agent_color

ROLE_WORDS = {"teacher": N_("Teacher · leads the lesson"),
              "assistant": N_("Teaching assistant · explains again, adds examples"),
              "student": N_("Student · a classmate who asks and answers")}


class PersonaScreen(ModalScreen[bool]):
    """An agent's card; M mutes or unmutes the agent (dismissed with True), except the lead's."""

    DEFAULT_CSS = """
    PersonaScreen {
        align: center middle;
    }
    #persona-card {
        width: 70;
        max-width: 95%;
        height: auto;
        border: round $primary;
        padding: 1 2;
        background: $surface;
    }
    #persona-card > Static {
        margin-bottom: 1;
    }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,enter,q", "dismiss(False)", N_("Close")),
                                              Binding("m", "dismiss(True)", N_("Mute / unmute"))]

    def __init__(self, agent: Agent, scene_type: str | None, muted: bool | None = None) -> None:
        """``muted``: whether the learner muted this agent (None: it leads the class and cannot be muted)."""
        super().__init__()
        self.agent = agent
        self.scene_type = scene_type
        self.muted = muted

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return not (action == "dismiss" and parameters == (True,) and self.muted is None)

    def compose(self) -> ComposeResult:
        agent = self.agent
        color = agent_color(self.app, agent.color)
        title = Text()
        title.append(f"{one_line(agent.avatar, 4)}  ")
        title.append(one_line(agent.name, LABEL_CHARS), style=f"bold {color}")
        title.append(f"\n{_(ROLE_WORDS[agent.role])}", style="dim")
        can_do = abilities(actions_in(agent.actions, self.scene_type))
        with Vertical(id="persona-card"):
            yield Static(title, id="persona-title")
            yield Static(Text(terminal_safe(agent.persona), style="italic"), id="persona-text")
            yield Static(Text(_("In this scene: {actions}").format(actions=can_do) if can_do
                              else _("In this scene: speaks only"),
                              style="dim"), id="persona-actions")

    def on_mount(self) -> None:
        self.query_one("#persona-card").border_title = _("Persona")
        mute = "" if self.muted is None else (_("M unmutes") if self.muted else _("M mutes")) + " · "
        self.query_one("#persona-card").border_subtitle = mute + _("Esc closes")
