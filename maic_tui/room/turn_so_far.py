"""The turn the records are in: whether one is being answered and whether the learner interrupted it. Kept once, by
the view model's record handler (``ClassroomView.record``), for the room and for a replay alike: the room marks
the messages an interruption closed, a replay closes a turn the log left open with it (``room/replay.py``)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class TurnSoFar:
    active: bool = False  # a turn is being answered: the learner's, or one the lesson opened (it thinks, ends in done)
    interrupted: bool = False  # the learner interrupted it: each message that closes now is marked
    marked: bool = False  # a message of it closed marked interrupted (its done then adds no note)
    agents: int = 0  # the turn's agent messages and actions so far: a replay closes an open turn's done with them
    actions: int = 0

    def start(self) -> None:
        """A learner message, or a turn the lesson opens: a fresh turn."""
        self.active, self.interrupted, self.marked, self.agents, self.actions = True, False, False, 0, 0

    def lesson_speaks(self) -> None:
        """A lesson's scripted message outside any turn: interrupted only if an interrupt record follows."""
        self.interrupted = self.marked = False

    def end(self) -> None:
        self.active = False
