"""Who the agents of a class are, what each may do, and how each role speaks and uses the board, with a worked
answer: part of the opening every prompt of the class shares (opening.py), so an agent's call reads anew only what
is its own this time (about a tenth of what it was: ARCHITECTURE.md, *Deciding ahead*)."""

from __future__ import annotations

from collections.abc import Sequence

from maic_tui.classroom.models import Agent, Classroom
from maic_tui.orchestration.prompts.example import example_output

ROLE_GUIDES = {
    "teacher": ("You lead the class: explain with a concrete example, ask a check question, use the board "
                "when a picture beats words.",
                "about 100 characters of speech, 2-3 short sentences: one crisp insight, then a question"),
    "assistant": ("You support the teacher: fill a gap, rephrase simply, give one example. Do not take over.",
                  "about 80 characters of speech, one key point the teacher did not make"),
    "student": ("You are a student: react, ask, or share a thought in character. Touch the board only when "
                "invited.",
                "about 50 characters, 1-2 short sentences"),
}
BOARD_GUIDES = {
    "teacher": "Use 1-3 board elements per answer for one key idea; reuse what is there; delete rather than "
               "stack; clear only when the board is full or the topic changes; id code blocks and change "
               "them with wb_edit_code.",
    "assistant": "At most one or two small additions (an annotation, a one-line example); never clear the "
                 "board or delete others' work; speak only if the board has conflicts or 6+ elements.",
    "student": "Leave the board alone unless you were invited; then add one small thing with clear space "
               "around it, never clear or delete.",
}


def _may_use(agent: Agent, class_actions: Sequence[str]) -> str:
    own = [name for name in class_actions if name in agent.actions]
    if not own:
        return "no actions (text items only)"
    missing = [name for name in class_actions if name not in agent.actions]
    if not missing:
        return "every action below"
    if len(missing) < len(own):
        return f"every action below but {', '.join(missing)}"
    return f"actions {', '.join(own)}"


def roster(classroom: Classroom, class_actions: Sequence[str]) -> str:
    """Each agent with its personality and actions, then each role present: its guide and a worked answer from the
    class's own topic (concrete: a placeholder such as ``<speech>`` was spoken as is)."""
    agents = "\n".join(f"- {a.id} ({a.name}, {a.role}): {a.persona} May use {_may_use(a, class_actions)}."
                       for a in classroom.agents)
    guides = []
    for role, (guide, length) in ROLE_GUIDES.items():
        speaker = next((a for a in classroom.agents if a.role == role), None)
        if speaker is None:
            continue
        example = example_output(speaker, classroom, [n for n in class_actions if n in speaker.actions])
        guides.append(f"- {role}: {guide} Length: {length}. Board: {BOARD_GUIDES[role]} For example: {example}")
    return (f"The agents:\n{agents}\n\nHow each role speaks (addressing {classroom.learner.nickname} by name when "
            f"it feels natural; saying something of its own, never copying an example or anything said before):\n"
            + "\n".join(guides))
