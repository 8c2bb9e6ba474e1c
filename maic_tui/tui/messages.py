"""Messages that widgets, the room's parts (and the terminal driver) send up to the room's screen and the app."""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message


@dataclass
class SendRequested(Message):
    """The learner sent a message (typed, or a cue option picked)."""

    text: str
    typed: bool = False  # from the composer, which keeps it until the app accepts it


@dataclass
class PersonaRequested(Message):
    """The learner asked to see an agent's persona card."""

    agent_id: str


@dataclass
class ScrollRequested(Message):
    """PageUp/PageDown in the composer: scroll the conversation by a page (-1 up, 1 down)."""

    pages: int


class TerminalClosed(Message):
    """The terminal (or the browser tab) the app draws on is gone (see ``terminal``)."""


class ReplayFinished(Message):
    """A replayed log has been played to its end."""


class ClassReady(Message):
    """The session behind the class is built: the class plays."""


@dataclass
class ForkRequested(Message):
    """Fork the session before the learner's ``turn``-th message, and go on with the fork (the trace inspector)."""

    turn: int


class DecisionCardReleased(Message):
    """Step mode's decision was taken: the card gives the keys back."""


@dataclass
class DecisionKey(Message):
    """A key pressed at step mode's decision card."""

    key: str
