"""The graph's typed state for one learner turn, and the settings that shape a turn."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypedDict

from maic_tui.classroom.models import Limits
from maic_tui.events import AgentTurnSummary, EndReason, TraceRecord, WhiteboardActionRecord
from maic_tui.llm.context import LessonCall
from maic_tui.orchestration.graph.conversation import WrittenBy

# Some servers ignore max_completion_tokens (llama.cpp's does) and would run on to the context limit.
OUTPUT_CHAR_CAP = 16_000
# Output caps per call, in tokens: a decision is one small object; an agent's speech follows its role's length
# target (a few sentences), and board actions (a chart's or table's data) need room beside it.
DIRECTOR_TOKENS = 300
AGENT_TOKENS = {"teacher": 800, "assistant": 600, "student": 400}


class TurnState(TypedDict):
    learner_message: str  # "" for a turn the lesson opened
    lesson: LessonCall | None  # what the lesson asked for, in a turn it opened
    first_agent: str | None  # named with @ or the discussion's trigger agent
    turn_count: int  # agent turns so far
    director_calls: int  # director model calls so far, re-asks included
    consecutive_empty: int
    responses: list[AgentTurnSummary]
    ledger: list[WhiteboardActionRecord]
    trace: list[TraceRecord]
    next_agent: str | None
    instruction: str
    decided_by: WrittenBy | None  # the director's call that sent next_agent, when a server's model decided
    end_reason: EndReason | None
    cue_received: bool
    total_actions: int
    had_content: bool
    fatal: bool  # the model server is unreachable or refuses us: stop the turn


def initial_state(learner_message: str, first_agent: str | None, lesson: LessonCall | None = None) -> TurnState:
    return TurnState(
        learner_message=learner_message, lesson=lesson, first_agent=first_agent, turn_count=0, director_calls=0,
        consecutive_empty=0, responses=[], ledger=[], trace=[], next_agent=None, instruction="", decided_by=None,
        end_reason=None, cue_received=False, total_actions=0, had_content=False, fatal=False,
    )


def director_budget(limits: Limits) -> int:
    turns = limits.max_agent_turns
    return max(3 * turns, turns + 3)


@dataclass(frozen=True, slots=True)
class TurnSettings:
    output_char_cap: int = OUTPUT_CHAR_CAP
    max_director_calls: int | None = None  # lower than the budget formula, for routing QA
    muted: frozenset[str] = frozenset()  # agents the learner muted: the director may not pick them
    max_agents: int | None = None  # the learner's limit on agent turns per learner turn (below the classroom's)
    decide_ahead: bool = True  # decide who speaks next while the last message is still read (ARCHITECTURE.md)

    def agent_turns(self, limits: Limits) -> int:
        """Agent turns allowed in one learner turn."""
        return limits.max_agent_turns if self.max_agents is None else max(1, min(limits.max_agent_turns,
                                                                                  self.max_agents))

    def budget(self, limits: Limits) -> int:
        formula = director_budget(limits)
        return formula if self.max_director_calls is None else max(1, min(formula, self.max_director_calls))


def recursion_limit(limits: Limits) -> int:
    # director + agent per agent turn, the closing director step, and some slack.
    return 2 * limits.max_agent_turns + 4


REACTION_TURNS = 1  # the teacher reacts to a quiz answer alone, and the lesson goes on
