"""Deciding ahead (ARCHITECTURE.md, *Deciding ahead*): once an agent's answer is written while the learner is still
reading it, the next director decision is made on the turn as it will be when the message has been shown whole (a
board of its own with the rest of the message applied, the message in the history, the state the agent node will
leave), and when it sends an agent, that agent's answer is written ahead too, kept as a buffer.

The director node takes such a decision only if what it was made from still holds (no interruption, the same state,
board, history, class and scene, no tester waiting in step mode); otherwise it is dropped unapplied and the decision
is made again. The events it would emit are kept until it is taken, and its trace record then says it was made
ahead and how long the learner waited for it."""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from dataclasses import dataclass, field, fields, replace
from typing import Any, cast

from langgraph.types import StreamWriter

from maic_tui.events import Event, ThinkingData, ThinkingEvent
from maic_tui.orchestration.answers.agent_model import reading_pace, start_answer
from maic_tui.orchestration.answers.agent_outcome import agent_update
from maic_tui.orchestration.answers.agent_run import AgentRun
from maic_tui.orchestration.answers.answer import Answer
from maic_tui.orchestration.answers.items import Item
from maic_tui.orchestration.graph.conversation import HistoryEntry, WrittenBy
from maic_tui.orchestration.graph.engine_context import EngineContext
from maic_tui.orchestration.graph.state import TurnSettings, TurnState
from maic_tui.orchestration.routing.director import director_node
from maic_tui.orchestration.routing.picking import waits


@dataclass(frozen=True)
class Basis:
    """What a decision depends on besides the model: the turn's state, the board, the history's end, who may
    speak and the scene."""

    state: dict[str, Any]
    board: dict[str, Any]
    history: tuple[int, HistoryEntry | None]
    settings: TurnSettings
    scene_index: int
    widgets: int  # the scenes' widgets' version: the learner changed one, or an agent did

    @classmethod
    def of(cls, ctx: EngineContext, state: TurnState) -> Basis:
        last = ctx.history[-1] if ctx.history else None
        return cls(dict(state), ctx.board.state(), (len(ctx.history), last), ctx.settings, ctx.scene_index,
                   ctx.scene_states.version)

    def changed(self, now: Basis) -> str:
        """What differs from ``now`` (the state's keys by name), for the count of decisions dropped."""
        if self.state != now.state:
            return "state: " + ", ".join(sorted(k for k in self.state.keys() | now.state.keys()
                                                if self.state.get(k) != now.state.get(k)))
        return ", ".join(f.name for f in fields(self) if getattr(self, f.name) != getattr(now, f.name))


@dataclass
class Ahead:
    basis: Basis
    events: list[Event] = field(default_factory=list)  # what taking it emits (thinking, cue_user, error)
    task: asyncio.Task[dict[str, Any]] | None = None  # the director node's update
    answer: Answer | None = None  # the answer of the agent it sends, being written
    agent_id: str | None = None

    def cancel(self) -> None:
        if self.task is not None:
            self.task.cancel()
        if self.answer is not None:
            self.answer.cancel()


WAITED_MS = 100  # a decision taken after more of a wait than this was made too late to hide behind the reading


class Foresight:
    """The session's decisions made ahead: at most one waits to be taken, and one agent's answer written ahead."""

    def __init__(self, ctx: EngineContext) -> None:
        self.ctx = ctx
        self._ahead: Ahead | None = None
        self._granted: Ahead | None = None  # taken: its agent's answer waits for the agent node
        # what became of each decision after an agent's message, by why ("taken", "dropped: ..."): make bench-real
        # reports it per class
        self.outcomes: Counter[str] = Counter()
        self._not_started: str | None = None

    def worth_it(self) -> bool:
        """There is reading time to decide in, and nobody else decides (a tester in step mode)."""
        ctx = self.ctx
        return (ctx.settings.decide_ahead and reading_pace(ctx) > 0 and not waits(ctx.picker)
                and not ctx.client.interrupted and not ctx.hand_raised)

    def start(self, state: TurnState, run: AgentRun, rest: list[Item], warnings: list[str],
              written_by: WrittenBy | None = None) -> None:
        """``run``'s answer is written (by ``written_by``'s call), ``rest`` of it still to be shown: decide what comes
        after it now."""
        if not self.worth_it():
            self._not_started = "not made ahead: no reading time, or someone else decides"
            return
        self.clear()
        ctx = self.ctx
        board = ctx.board.copy()
        twin = run.fork(board)
        twin.take(rest)
        for warning in warnings:
            twin.warn(warning)
        after = cast(TurnState, {**state, **agent_update(state, twin)})
        seen = replace(ctx, board=board, history=[*ctx.history, twin.entry(False, written_by)],
                       scene_states=twin.states)
        ahead = Ahead(Basis.of(seen, after))
        ahead.task = asyncio.ensure_future(self._decide(seen, after, ahead))
        self._ahead = ahead

    async def _decide(self, seen: EngineContext, after: TurnState, ahead: Ahead) -> dict[str, Any]:
        update = await director_node(seen, after, ahead.events.append)
        agent = seen.classroom.agent(update.get("next_agent") or "")
        if agent is not None and not seen.client.interrupted:
            sent = cast(TurnState, {**after, **update})
            ahead.answer, ahead.agent_id = start_answer(seen, sent, agent), agent.id
        return update

    async def taken(self, state: TurnState, writer: StreamWriter) -> dict[str, Any] | None:
        """The decision made ahead, when it still holds (the learner waits for it if it is not made yet); None:
        there is none, or it was dropped, and the director decides now."""
        ahead, self._ahead = self._ahead, None
        not_started, self._not_started = self._not_started, None
        if ahead is None or ahead.task is None:
            if state["turn_count"]:  # an agent spoke: a decision could have been made while it was read
                self.outcomes[not_started or "not made ahead: the answer did not finish"] += 1
            return None
        ctx = self.ctx
        client = ctx.client
        now = Basis.of(ctx, state)
        if client.interrupted or client.turn_expired() or ctx.hand_raised or waits(ctx.picker) or ahead.basis != now:
            self.outcomes["dropped: " + (ahead.basis.changed(now) if ahead.basis != now else "the learner or the "
                                         "turn's limit")] += 1
            ahead.cancel()
            return None
        started = time.perf_counter()
        if not ahead.task.done():
            writer(ThinkingEvent(data=ThinkingData(stage="director")))
            await asyncio.wait([ahead.task])
        task = ahead.task
        if client.interrupted or task.cancelled() or task.exception() is not None:
            self.outcomes["dropped: it failed or was cancelled"] += 1
            ahead.cancel()
            return None
        waited_ms = round((time.perf_counter() - started) * 1000, 2)
        self.outcomes["taken" if waited_ms < WAITED_MS else "taken, but the learner waited for it"] += 1
        for event in ahead.events:
            if not (isinstance(event, ThinkingEvent) and event.data.stage == "director"):
                writer(event)
        update = task.result()
        trace = list(update["trace"])
        trace[-1] = trace[-1].model_copy(update={"made_ahead": True, "waited_ms": waited_ms})
        self._granted = ahead
        return {**update, "trace": trace}

    def answer_for(self, agent_id: str) -> Answer | None:
        """The answer written ahead for ``agent_id`` by the decision just taken, if that decision sent them."""
        granted, self._granted = self._granted, None
        if granted is None or granted.answer is None:
            return None
        if granted.agent_id != agent_id:
            granted.answer.cancel()
            return None
        return granted.answer

    def clear(self) -> None:
        """Drop whatever was decided or written ahead (the turn ended, the learner interrupted)."""
        for ahead in (self._ahead, self._granted):
            if ahead is not None:
                ahead.cancel()
        self._ahead = self._granted = None
