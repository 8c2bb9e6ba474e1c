"""What an agent's message changes in the turn's state once it is over (ARCHITECTURE.md, *One learner turn*): the
agent node's update, also worked out ahead for a message still being shown (*Deciding ahead*)."""

from __future__ import annotations

from typing import Any

from maic_tui.llm import ModelError
from maic_tui.orchestration.answers.agent_run import AgentRun
from maic_tui.orchestration.graph.state import TurnState

PLACEHOLDER = "speech was only a placeholder or the prompt's example: counted as empty"


def agent_update(state: TurnState, run: AgentRun, interrupted: bool = False,
                 error: ModelError | None = None) -> dict[str, Any]:
    """The state update of an agent's turn that showed ``run`` (cut short by the learner, or failed with ``error``)."""
    if run.speech and not run.real_speech:
        run.warn(PLACEHOLDER)
    summary = run.summary()
    trace = list(state["trace"])
    if trace and summary.action_warnings:
        trace[-1] = trace[-1].model_copy(update={"action_warnings": summary.action_warnings})
    update: dict[str, Any] = {
        "turn_count": state["turn_count"] + 1,
        "responses": [*state["responses"], summary],
        "ledger": [*state["ledger"], *run.ledger],
        "trace": trace,
        "total_actions": state["total_actions"] + len(run.actions),
        "had_content": state["had_content"] or run.had_content,
        "consecutive_empty": 0 if run.had_content else state["consecutive_empty"] + 1,
        "next_agent": None,
        "instruction": "",
    }
    if interrupted:
        update["end_reason"] = "interrupted"
    elif error is not None and (error.fatal or not run.had_content):
        # Every agent shares the model server: one that failed before saying anything would fail again for
        # the next agent (or be sent again by the fallback). A stream that broke off after speech keeps the
        # turn going, so others can build on what was said.
        update["end_reason"] = "error"
        update["fatal"] = True
    return update
