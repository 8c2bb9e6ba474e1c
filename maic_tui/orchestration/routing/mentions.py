"""A leading ``@name`` in a learner message: which agent it picks, or a one-line refusal naming the agents
as the class list shows them; and a message that opens with an agent's name, or ends with it after a comma.
Light on purpose: the app checks a message before it leaves the composer."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from maic_tui.bad_input import BadInput
from maic_tui.classroom.models import Agent
from maic_tui.i18n import _
from maic_tui.orchestration.routing.director_answer import resolve_agent

_MENTION = re.compile(r"^\s*@(\S+)")


class UnknownAgentError(BadInput):
    """The learner named an agent that is not in the class."""

    prefix = ""  # said to the learner as it is


@dataclass(frozen=True, slots=True)
class Addressed:
    """A learner message, with the agent it picks to answer first (None: the director decides). Read once, when
    the message is sent, and carried to the turn that answers it."""

    text: str
    agent: str | None = None


def addressed(agents: Sequence[Agent], text: str) -> Addressed:
    """The message read: a leading ``@name``, or an agent's name it opens with. Raises UnknownAgentError for an
    ``@name`` not in the class."""
    return Addressed(text, mentioned_agent(agents, text) or addressed_agent(agents, text))


def mentioned_agent(agents: Sequence[Agent], message: str) -> str | None:
    """The agent named by a leading ``@<id or name>``; names with spaces match as a prefix.

    Raises UnknownAgentError, naming the agents as the class list shows them, for a name not here."""
    match = _MENTION.match(message)
    if match is None:
        return None
    rest = message.lstrip()[1:].casefold()
    for agent in sorted(agents, key=lambda a: -len(a.name)):
        if rest.startswith(agent.name.casefold()) and rest[len(agent.name):][:1] in ("", " ", ",", ":"):
            return agent.id
    found = resolve_agent(match.group(1).rstrip(",:"), agents)
    if found is None:
        names = ", ".join(f"@{a.name}" for a in agents)
        raise UnknownAgentError(_("no agent called '@{name}' in this class (try {names})")
                                .format(name=match.group(1), names=names))
    return found


# A name opens the message when it is followed by punctuation, the end, or words that address someone.
_LEADING_WORD = re.compile(r"^\s*([^\W\d_]+)(?:\s*[,?:!.]|\s*$|\s+(?:what|why|how|do|does|can|could|would|is|are|"
                           r"you|your|tell|please|any|which|where|when|who|have|did)\b)", re.IGNORECASE)


# A name at the end, after a comma, addresses someone too: "what do you think, Juno?".
_TRAILING_NAME = re.compile(r",\s*([^\W\d_]+)\s*[?!.]*\s*$")


def addressed_agent(agents: Sequence[Agent], message: str) -> str | None:
    """The agent a message addresses by name, without ``@``: opening it ("Mei, what does the data say?",
    "felix?") or closing it after a comma ("what do you think, Juno?")."""
    for match in (_LEADING_WORD.match(message), _TRAILING_NAME.search(message)):
        if match is None:
            continue
        word = match.group(1).casefold()
        found = next((agent.id for agent in agents if word in agent.name_words), None)
        if found is not None:
            return found
    return None
