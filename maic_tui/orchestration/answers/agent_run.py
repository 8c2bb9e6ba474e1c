"""One agent's turn in progress: speech and actions as they arrive, each action checked before it is emitted.

An action is emitted only after it passed every check (role and scene, the per-agent cap, the slide's
elements, the shadow whiteboard), with its ids already assigned, so a client replaying the events in order
reaches the same board. A rejected action is recorded as a warning and never emitted.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from maic_tui.actions import SLIDE_ACTIONS, WIDGET_ACTIONS, InvalidAction, parse_params
from maic_tui.classroom.models import Agent, Scene
from maic_tui.events import (
    ActionData,
    ActionEvent,
    AgentTurnSummary,
    Event,
    TextDeltaData,
    TextDeltaEvent,
    WhiteboardActionRecord,
)
from maic_tui.orchestration.answers.items import Item, ParsedAction, TextDelta
from maic_tui.orchestration.graph.conversation import HistoryEntry, WrittenBy
from maic_tui.orchestration.prompts.example import is_filler
from maic_tui.scenes.base import SceneChangeError
from maic_tui.scenes.live_state import SceneStates
from maic_tui.whiteboard import Whiteboard
from maic_tui.whiteboard.placement import placed

PREVIEW_CHARS = 100


@dataclass
class AgentRun:
    agent: Agent
    message_id: str
    board: Whiteboard
    scene: Scene | None
    allowed: list[str]  # the agent's actions for this scene
    max_actions: int
    emit: Callable[[Event], None]
    redact: Callable[[str], str] = str  # the preview is cut to a length: a key must go before it is cut in two
    example: str = ""  # the prompt's example speech: saying just that is saying nothing
    speech: list[str] = field(default_factory=list)
    actions: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    ledger: list[WhiteboardActionRecord] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    received: int = 0  # characters of model output so far
    states: SceneStates = field(default_factory=SceneStates)  # the scenes' widgets, checked and changed like the board

    @property
    def had_content(self) -> bool:
        return self.real_speech or bool(self.actions)

    @property
    def real_speech(self) -> bool:
        """Speech of its own: not empty, not a placeholder such as ``<speech>``, not the prompt's example."""
        return not is_filler("".join(self.speech), self.example)

    def take(self, items: list[Item]) -> None:
        for item in items:
            if isinstance(item, TextDelta):
                self.speech.append(item.text)
                self.emit(TextDeltaEvent(data=TextDeltaData(content=item.text, message_id=self.message_id)))
            else:
                self._action(item)

    def fork(self, board: Whiteboard) -> AgentRun:
        """A twin on ``board`` (a copy of this run's) that goes on from here emitting nothing: the message as it will
        be once shown whole (ARCHITECTURE.md, *Deciding ahead*)."""
        return replace(self, board=board, emit=_unheard, speech=list(self.speech), actions=list(self.actions),
                       ledger=list(self.ledger), warnings=list(self.warnings), states=self.states.copy())

    def warn(self, text: str) -> None:
        self.warnings.append(text)

    def _action(self, item: ParsedAction) -> None:
        params, reason = self._check(item)
        if reason is not None:
            self.warn(f"{item.name}: {reason}")
            return
        self.actions.append((item.name, params))
        self.emit(ActionEvent(data=ActionData(
            action_id=f"{self.message_id}-a{len(self.actions)}", action_name=item.name, params=params,
            agent_id=self.agent.id, message_id=self.message_id,
        )))
        if item.name.startswith("wb_"):
            self.ledger.append(WhiteboardActionRecord(
                action_name=item.name, agent_id=self.agent.id, agent_name=self.agent.name, params=params,
            ))

    def _check(self, item: ParsedAction) -> tuple[dict[str, Any], str | None]:
        if item.name not in self.allowed:
            known = item.name in SLIDE_ACTIONS or item.name.startswith("wb_")
            return {}, "not_allowed" if known else f"unknown_action: {item.name}"
        if len(self.actions) >= self.max_actions:
            return {}, f"action_budget: at most {self.max_actions} actions per turn"
        if item.name in SLIDE_ACTIONS:
            return self._pointer(item)
        if item.name in WIDGET_ACTIONS:
            return self._widget(item)
        wanted = placed(item.params, self.board.elements) if item.name.startswith("wb_draw_") else item.params
        result = self.board.apply(item.name, wanted)  # a taken spot: the nearest free one (whiteboard/placement.py)
        return result.params, result.reason

    def _pointer(self, item: ParsedAction) -> tuple[dict[str, Any], str | None]:
        try:
            params = parse_params(item.name, item.params)
        except InvalidAction as exc:
            return {}, exc.reason
        target = getattr(params, "element_id", None)
        if self.scene is None or all(element.id != target for element in self.scene.elements):
            return {}, f"slide_element_not_found: {target}"
        return params.wire(), None

    def _widget(self, item: ParsedAction) -> tuple[dict[str, Any], str | None]:
        """A widget action checked against the scene's widget as it is now (an unknown variable or node, a value
        out of range: the reason), and applied to it."""
        try:
            params = parse_params(item.name, item.params)
            self.states.action(self.scene, item.name, params.wire(), self.agent.name)
        except InvalidAction as exc:
            return {}, exc.reason
        except SceneChangeError as exc:
            return {}, f"widget: {exc}"
        return params.wire(), None

    def summary(self) -> AgentTurnSummary:
        return AgentTurnSummary(
            agent_id=self.agent.id,
            agent_name=self.agent.name,
            content_preview=self.redact("".join(self.speech).strip())[:PREVIEW_CHARS],
            action_count=len(self.actions),
            whiteboard_actions=list(self.ledger),  # OpenMAIC's AgentTurnSummary: the records, not just names
            action_warnings=list(self.warnings),
        )

    def entry(self, interrupted: bool, written_by: WrittenBy | None = None) -> HistoryEntry:
        return HistoryEntry(role="agent", text="".join(self.speech).strip(), agent_id=self.agent.id,
                            name=self.agent.name, actions=tuple(self.actions), interrupted=interrupted,
                            written_by=None if interrupted else written_by)


def _unheard(event: Event) -> None:
    pass
