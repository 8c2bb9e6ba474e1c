"""The conversation the graph's nodes share for a whole session: classroom, board, history, scene, settings, and
the model client they call through (``llm.client``: modes, retries, deadline, cancellation)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from maic_tui.classroom.models import Classroom, Scene
from maic_tui.llm.client import ModelClient
from maic_tui.orchestration.graph.conversation import HistoryEntry
from maic_tui.orchestration.graph.state import TurnSettings
from maic_tui.scenes.live_state import SceneStates
from maic_tui.whiteboard import Whiteboard

if TYPE_CHECKING:
    from maic_tui.orchestration.routing.picking import Picker


@dataclass
class EngineContext:
    classroom: Classroom
    client: ModelClient
    board: Whiteboard = field(default_factory=Whiteboard)
    history: list[HistoryEntry] = field(default_factory=list)
    turn_start: int = 0  # where this turn's entries begin in ``history`` (its learner message)
    settings: TurnSettings = field(default_factory=TurnSettings)
    scene_index: int = 0
    message_count: int = 0
    picker: Picker | None = None  # step mode: who picks each decision the rules or the model would take
    hand_raised: bool = False  # the learner sent another message during this turn: it ends after the speaker
    scene_states: SceneStates = field(default_factory=SceneStates)  # each widget as the learner and agents left it

    @property
    def scene(self) -> Scene | None:
        scenes = self.classroom.scenes
        return scenes[self.scene_index] if 0 <= self.scene_index < len(scenes) else None

    def redact(self, text: str) -> str:
        return self.client.redact(text)

    def turn_budget_seconds(self) -> float:
        """The bound on a whole turn: every director decision and agent turn taking its full timeout."""
        return self.client.provider.options.timeout * (2 * self.classroom.limits.max_agent_turns + 1)

    def said(self, limit: int = 30) -> tuple[tuple[str, str], ...]:
        """The conversation before this turn as our offline models read it: (agent id or "learner", text). The
        same for every call of a turn, so the demo's plan for the turn does not change as its agents speak."""
        before = self.history[:self.turn_start][-limit:]
        return tuple((entry.agent_id or entry.role, entry.text) for entry in before
                     if entry.role != "lesson" and entry.text)

    def next_message_id(self, agent_id: str) -> str:
        self.message_count += 1
        return f"m{self.message_count}-{agent_id}"
