"""Step mode, a manual director (ARCHITECTURE.md, *The routing workbench*): before a decision the rules or the
model would take, a picker (the tester at the app's decision card, or ``run --pick``) chooses who speaks next. It
may first ask the director for its proposal (the rule, the model with its guards, the fallback, as without step
mode). A pick stands even where a guard objects; the guards' verdicts on it are recorded all the same."""

from __future__ import annotations

from collections import deque
from collections.abc import Awaitable, Callable, Iterable

from maic_tui.orchestration.routing.director_answer import END, USER, Decision
from maic_tui.orchestration.routing.director_step import Choice, DirectorStep
from maic_tui.orchestration.routing.guards import RoutingView, check
from maic_tui.orchestration.routing.picking import DecisionRequest, Picker, Proposal

PICKED = "picked by the tester"


class QueuedPicks:
    """``run --pick``: one pick per decision, in order across turns; once they run out the director decides.
    ``left`` holds the picks no decision was left for."""

    def __init__(self, picks: Iterable[str]) -> None:
        self.left = deque(picks)

    @property
    def waits(self) -> bool:
        return bool(self.left)

    async def __call__(self, request: DecisionRequest) -> str | None:
        return self.left.popleft() if self.left else None


async def manual_choice(step: DirectorStep, view: RoutingView, picker: Picker,
                        decide: Callable[[], Awaitable[Choice]], instruction: str) -> Choice:
    proposals: list[Choice] = []

    async def propose() -> Proposal:
        choice = await decide()
        proposals.append(choice)
        verdicts = tuple(step.attempts[-1].guards) if choice.path in ("model", "fallback") and step.attempts else ()
        return Proposal(choice.final, choice.path, choice.reason, verdicts)

    choices = (*(agent.id for agent in view.classroom.agents), USER, END)
    picked = await picker(DecisionRequest(step.number, choices, propose))
    if picked is None:  # the director decides: its proposal if it made one
        return proposals[-1] if proposals else await decide()
    if picked not in choices:
        raise ValueError(f"'{picked}' is not one of {', '.join(choices)}")
    step.candidates = list(choices)
    step.proposal = proposals[-1].final if proposals else None
    step.guards = check(Decision(picked), view)  # recorded, not enforced: the tester's choice stands
    reason = PICKED
    if step.proposal is not None:
        reason += f"; the director proposed {step.proposal}"
    objection = next((v for v in step.guards if not v.passed), None)
    if objection is not None:
        reason += f"; {objection.rule} objected: {objection.reason}"
    return Choice("manual", picked, reason, instruction)
