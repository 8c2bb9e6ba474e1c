"""What every prompt of a class opens with, word for word the same for the director and each agent.

A server that keeps its last prompt cached (llama.cpp with one slot) then reuses this part from an agent's call to
the director's and back, instead of reading it again after every speaker (ARCHITECTURE.md, *One learner turn*)."""

from __future__ import annotations

from maic_tui.classroom.models import Classroom


def class_opening(classroom: Classroom) -> str:
    """The class, who is in it and who the learner is: nothing that changes during a session."""
    learner = classroom.learner
    roster = ", ".join(f"{a.id} ({a.name}, {a.role})" for a in classroom.agents)
    about = f": {learner.bio.rstrip('. ')}" if learner.bio else ""
    return (f'The class "{classroom.title}". Agents: {roster}. The human learner is {learner.nickname}{about}.')
