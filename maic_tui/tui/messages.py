"""Messages that widgets send up to the app."""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message


@dataclass
class SendRequested(Message):
    """The learner sent a message (typed, or a cue option picked)."""

    text: str


@dataclass
class PersonaRequested(Message):
    """The learner asked to see an agent's persona card."""

    agent_id: str
