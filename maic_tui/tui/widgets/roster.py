"""The class list: each agent's avatar, name, role and live status, plus the director's state."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Label, ListItem, ListView, Static

from maic_tui.classroom.models import Agent
from maic_tui.session.classroom_view import Status
from maic_tui.tui.messages import PersonaRequested
from maic_tui.tui.theming import agent_color

STATUS_MARK: dict[Status, str] = {"idle": "○ idle", "thinking": "◌ thinking…", "speaking": "● speaking"}


class AgentRow(ListItem):
    def __init__(self, agent: Agent) -> None:
        super().__init__(id=f"agent-{agent.id}")
        self.agent = agent
        self.status: Status = "idle"

    def compose(self) -> ComposeResult:
        yield Label(self._line())

    def set_status(self, status: Status) -> None:
        if status != self.status:
            self.status = status
            self.set_class(status != "idle", "-active")
            self.query_one(Label).update(self._line())

    def repaint(self) -> None:
        self.query_one(Label).update(self._line())

    def _line(self) -> Text:
        color = agent_color(self.app, self.agent.color) if self.is_attached else self.agent.color
        line = Text(no_wrap=True, overflow="ellipsis")
        line.append(f"{self.agent.avatar} ")
        line.append(self.agent.name, style=f"bold {color}")
        line.append(f"\n   {self.agent.role}", style="dim")
        mark = STATUS_MARK[self.status]
        line.append(f"  {mark}", style=color if self.status != "idle" else "dim")
        return line


class Roster(Vertical):
    """Agents in the classroom file's order; Enter or a click opens the persona card."""

    def __init__(self, agents: list[Agent]) -> None:
        super().__init__(id="roster")
        self.agents = agents

    def compose(self) -> ComposeResult:
        yield Static(self._director_line(False), id="director-status")
        yield ListView(*(AgentRow(agent) for agent in self.agents), id="agent-list")

    def on_mount(self) -> None:
        self.border_title = "Class"

    def update_status(self, statuses: dict[str, Status], deciding: bool) -> None:
        for row in self.query(AgentRow):
            row.set_status(statuses.get(row.agent.id, "idle"))
        self.query_one("#director-status", Static).update(self._director_line(deciding))
        self.query_one("#director-status").set_class(deciding, "-deciding")

    def repaint(self) -> None:
        """Colours follow the theme's background (called after a theme change)."""
        for row in self.query(AgentRow):
            row.repaint()

    def on_list_view_selected(self, event: ListView.Selected) -> None:
        event.stop()
        if isinstance(event.item, AgentRow):
            self.post_message(PersonaRequested(event.item.agent.id))

    @staticmethod
    def _director_line(deciding: bool) -> Text:
        return Text("🎬 Director · deciding…" if deciding else "🎬 Director · waiting", no_wrap=True)
