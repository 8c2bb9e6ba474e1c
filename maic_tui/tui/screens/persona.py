"""An agent's persona card, for demoing personas."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from maic_tui.actions import abilities, effective_actions
from maic_tui.classroom.models import Agent
from maic_tui.text_safety import one_line, terminal_safe
from maic_tui.tui.plain import LABEL_CHARS
from maic_tui.tui.theming import agent_color

ROLE_WORDS = {"teacher": "Teacher · leads the lesson",
              "assistant": "Teaching assistant · explains again, adds examples",
              "student": "Student · a classmate who asks and answers"}


class PersonaScreen(ModalScreen[None]):
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
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,enter,q", "dismiss", "Close")]

    def __init__(self, agent: Agent, scene_type: str | None) -> None:
        super().__init__()
        self.agent = agent
        self.scene_type = scene_type

    def compose(self) -> ComposeResult:
        agent = self.agent
        color = agent_color(self.app, agent.color)
        title = Text()
        title.append(f"{one_line(agent.avatar, 4)}  ")
        title.append(one_line(agent.name, LABEL_CHARS), style=f"bold {color}")
        title.append(f"\n{ROLE_WORDS[agent.role]}", style="dim")
        can_do = abilities(effective_actions(agent.actions, self.scene_type))
        with Vertical(id="persona-card"):
            yield Static(title, id="persona-title")
            yield Static(Text(terminal_safe(agent.persona), style="italic"), id="persona-text")
            yield Static(Text(f"In this scene: {can_do}" if can_do else "In this scene: speaks only",
                              style="dim"), id="persona-actions")

    def on_mount(self) -> None:
        self.query_one("#persona-card").border_title = "Persona"
        self.query_one("#persona-card").border_subtitle = "Esc closes"
