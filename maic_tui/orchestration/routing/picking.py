"""What step mode's picker is asked and answers (ARCHITECTURE.md, *The routing workbench*): types only, so that the
engine's context can hold a picker without importing the director."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from maic_tui.events import GuardVerdict


@dataclass(frozen=True, slots=True)
class Proposal:
    """What the director would decide, and the guards' verdicts on the model's last answer (none for a rule)."""

    final: str
    path: str
    reason: str
    verdicts: tuple[GuardVerdict, ...] = ()


@dataclass(frozen=True, slots=True)
class DecisionRequest:
    """A decision waiting for the picker: its step, the choices in class-list order (then USER and END), and a way
    to ask the director for a proposal (each call asks again)."""

    step: int
    choices: tuple[str, ...]
    propose: Callable[[], Awaitable[Proposal]]


@dataclass(frozen=True, slots=True)
class DecisionCard:
    """What the room shows while a decision waits."""

    step: int
    choices: tuple[tuple[str, str], ...]  # (key, choice): "1".."9" for the agents in class-list order, "u", "e"
    names: tuple[tuple[str, str], ...]  # (choice, what to call it)
    proposal: Proposal | None = None
    asking: bool = False

    def choice_for(self, key: str) -> str | None:
        return next((choice for k, choice in self.choices if k == key), None)


# The picker's answer: one of the request's choices, or None to let the director decide as it would without step mode.
Picker = Callable[[DecisionRequest], Awaitable[str | None]]


def waits(picker: Picker | None) -> bool:
    """Whether ``picker`` may take the next decision itself (step mode on, picks left): nothing is then decided
    ahead of it (ARCHITECTURE.md, *Deciding ahead*). A picker says so with a ``waits`` attribute; one that does not
    say is taken to."""
    return picker is not None and bool(getattr(picker, "waits", True))


