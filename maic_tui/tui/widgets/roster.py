"""The class list: each agent's avatar, name, role and live status, plus the director's state.

One OptionList for all agents (not a widget per agent): it starts faster and redraws as one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from maic_tui.i18n import N_, _
from maic_tui.text_safety import one_line
from maic_tui.tui.messages import PersonaRequested
from maic_tui.tui.plain import LABEL_CHARS
from maic_tui.tui.role_names import role_name
from maic_tui.tui.theming import agent_color

if TYPE_CHECKING:
    from maic_tui.classroom.models import Agent
    from maic_tui.room.view import Status

STATUS_MARK: dict[Status, str] = {"idle": N_("○ idle"), "thinking": N_("◌ thinking…"), "speaking": N_("● speaking")}
MUTED_MARK = N_("⊘ muted")  # the learner muted this agent: the director does not pick it
COMPACT_BELOW = 20  # columns: a narrower class list shows avatars and status marks only


class AgentList(OptionList, can_focus=False):
    """A click on an agent opens its persona card (from the keyboard: the palette's persona commands);
    it never takes the keys from the composer."""


class Roster(Vertical):
    def __init__(self, agents: list[Agent]) -> None:
        super().__init__(id="roster")
        self.agents = agents
        self.statuses: dict[str, Status] = {agent.id: "idle" for agent in agents}
        self.muted: frozenset[str] = frozenset()
        self.aloud: str | None = None  # the agent the voice is speaking for now
        self.compact = False
        self._deciding = False
        self._director = Static(self._director_line(False), id="director-status")
        self._list = AgentList(id="agent-list")

    def compose(self) -> ComposeResult:
        yield self._director
        yield self._list

    def on_mount(self) -> None:
        self.border_title = _("Class")
        self._list.add_options(Option(self.line(agent), id=agent.id) for agent in self.agents)

    def on_resize(self) -> None:
        compact = self.size.width < COMPACT_BELOW
        if compact != self.compact:
            self.compact = compact
            self.border_title = "" if compact else _("Class")
            self.repaint()
            self._director.update(self._director_line(self._deciding))

    def line(self, agent: Agent) -> Text:
        color = agent_color(self.app, agent.color)
        status = self.statuses[agent.id]
        mark = _(MUTED_MARK if agent.id in self.muted else STATUS_MARK[status])
        line = Text(no_wrap=True, overflow="ellipsis")
        if self.compact:  # avatar, and the status mark in the agent's colour; a click still opens the card
            line.append(f"{one_line(agent.avatar, 4)} ")
            if agent.id == self.aloud:  # heard now: the speaker stands for the status mark
                line.append("🔊", style=color)
            else:
                line.append(mark[0], style=f"bold {color}" if status != "idle" else "dim")
            line.append("\n")
            return line
        line.append(f"{one_line(agent.avatar, 4)} ")
        line.append(one_line(agent.name, LABEL_CHARS), style=f"bold {color}" if agent.id not in self.muted else "dim")
        line.append(f"\n   {role_name(agent.role)}", style="dim")
        line.append(f"  {mark}", style=color if status != "idle" else "dim")
        if agent.id == self.aloud:
            line.append("  🔊 " + _("aloud"), style=color)
        return line

    def update_aloud(self, agent_id: str | None) -> None:
        if agent_id != self.aloud:
            self.aloud = agent_id
            self.repaint()

    def update_muted(self, muted: frozenset[str]) -> None:
        if muted != self.muted:
            self.muted = muted
            self.repaint()

    def update_status(self, statuses: dict[str, Status], deciding: bool) -> None:
        for index, agent in enumerate(self.agents):
            status = statuses.get(agent.id, "idle")
            if status != self.statuses[agent.id]:
                self.statuses[agent.id] = status
                self._list.replace_option_prompt_at_index(index, self.line(agent))
        self._deciding = deciding
        self._director.update(self._director_line(deciding))
        self._director.set_class(deciding, "-deciding")

    def repaint(self) -> None:
        """Colours follow the theme's background (called after a theme change)."""
        for index, agent in enumerate(self.agents):
            self._list.replace_option_prompt_at_index(index, self.line(agent))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id is not None:
            self.post_message(PersonaRequested(event.option.id))

    def _director_line(self, deciding: bool) -> Text:
        if self.compact:
            return Text("🎬 ◌" if deciding else "🎬", no_wrap=True)
        return Text("🎬 " + (_("Director · deciding…") if deciding else _("Director · waiting")), no_wrap=True)
