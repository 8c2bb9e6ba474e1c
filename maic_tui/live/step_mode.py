"""The app's step mode (ARCHITECTURE.md, *The routing workbench*): while it is on, the class waits before each
director decision the rules or the model would take, and the tester decides at a card: a number picks an agent, ``u``
the learner, ``e`` the end; ``a`` asks the director for its proposal (``r`` asks again) and Enter accepts it.

Headless: the room shows ``card`` and sends the tester's keys here; the proposal is asked inside the waiting
decision (the director's own task), so it streams and is recorded like any director call."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import replace
from typing import Literal

from maic_tui.classroom.models import Classroom
from maic_tui.orchestration.routing.director_answer import END, USER
from maic_tui.orchestration.routing.picking import DecisionCard, DecisionRequest

Command = tuple[Literal["pick", "ask", "accept", "release"], str]


class StepMode:
    def __init__(self, classroom: Classroom) -> None:
        self.classroom = classroom
        self.on = False
        self.card: DecisionCard | None = None
        self.on_change: Callable[[], None] | None = None  # the card or the mode changed
        self._commands: asyncio.Queue[Command] | None = None

    @property
    def waits(self) -> bool:
        """The next decision waits for the tester (the engine decides nothing ahead of it)."""
        return self.on

    def toggle(self) -> bool:
        """On or off; off lets a waiting decision go to the director. The new state."""
        self.on = not self.on
        if not self.on:
            self.release()
        self._changed()
        return self.on

    # --- the tester's keys -----------------------------------------------------------------------------

    def key(self, key: str) -> bool:
        """A key at the card: True when it meant something there."""
        card = self.card
        if card is None or self._commands is None:
            return False
        if key in ("a", "r"):  # a: the proposal (once); r: ask again
            if not card.asking and (key == "r" or card.proposal is None):
                self._commands.put_nowait(("ask", ""))
        elif key == "enter":
            self._commands.put_nowait(("accept", ""))
        elif (choice := card.choice_for(key)) is not None:
            self._commands.put_nowait(("pick", choice))
        else:
            return False
        return True

    def release(self) -> None:
        """The waiting decision goes to the director (step mode turned off, the learner interrupted, the app left)."""
        if self._commands is not None:
            self._commands.put_nowait(("release", ""))

    # --- the director's side ---------------------------------------------------------------------------

    async def __call__(self, request: DecisionRequest) -> str | None:
        return await self.pick(request)

    async def pick(self, request: DecisionRequest) -> str | None:
        """The engine's picker: None at once while step mode is off."""
        if not self.on:
            return None
        agents = [agent for agent in self.classroom.agents if agent.id in request.choices]
        keyed = [(str(n), agent.id) for n, agent in enumerate(agents[:9], 1)]
        names = [(agent.id, agent.name) for agent in agents] + [(USER, "the learner"), (END, "end the turn")]
        self.card = DecisionCard(request.step, (*keyed, ("u", USER), ("e", END)), tuple(names))
        self._commands = asyncio.Queue()
        self._changed()
        try:
            while True:
                command, value = await self._commands.get()
                if command == "pick":
                    return value
                if command in ("accept", "release"):
                    return None  # the director decides: as it proposed, when it was asked
                self.card = replace(self.card, asking=True)
                self._changed()
                self.card = replace(self.card, proposal=await request.propose(), asking=False)
                self._changed()
        finally:
            self.card, self._commands = None, None
            self._changed()

    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change()
