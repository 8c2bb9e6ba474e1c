"""An agent's system prompt (ARCHITECTURE.md, *One learner turn*)."""

from __future__ import annotations

from collections.abc import Sequence

from maic_tui.classroom.models import Agent, Classroom, Scene
from maic_tui.events import AgentTurnSummary
from maic_tui.orchestration.prompts.example import example_output
from maic_tui.orchestration.prompts.opening import class_opening
from maic_tui.whiteboard import Whiteboard

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
# The format itself is the class's opening (shared by every prompt, see opening.py); this is the agent's own part.
OUTPUT_RULES = ("Answer as the class's agents do (above), as yourself. Say something of your own: do not copy the "
                "example.")


def _scene_block(scene: Scene | None) -> str:
    if scene is None:
        return ""
    lines = [f'Current slide "{scene.title}" (id {scene.id}), elements you may point at:']
    for element in scene.elements:
        label = getattr(element, "text", None) or getattr(element, "latex", None) or getattr(element, "alt", None)
        if label is None and hasattr(element, "items"):
            label = "; ".join(element.items)
        lines.append(f"  [id:{element.id}] {element.type}" + (f': "{str(label)[:60]}"' if label else ""))
    return "\n".join(lines)


def _peers(agent: Agent, responses: Sequence[AgentTurnSummary]) -> str:
    others = [r for r in responses if r.agent_id != agent.id]
    if not others:
        return ""
    said = "\n".join(f'- {r.agent_name}: "{r.content_preview or "(board only)"}"' for r in others)
    return (f"Already said in this turn:\n{said}\nDo not greet again or repeat them; add a new angle as "
            f"{agent.name}. Lines in the history starting with [Name]: are other AI agents, not the learner.")


def agent_system_prompt(
    agent: Agent,
    classroom: Classroom,
    board: Whiteboard,
    scene: Scene | None,
    actions: Sequence[str],
    responses: Sequence[AgentTurnSummary],
    instruction: str,
) -> str:
    role_guide, length = ROLE_GUIDES[agent.role]
    parts = [
        class_opening(classroom),  # first and word for word the director's and every agent's (see opening.py)
        f"You are {agent.name} ({agent.id}), the {agent.role}. Personality: {agent.persona}",
        f"{role_guide} Length: {length}. Address {classroom.learner.nickname} by name when it feels natural.",
        OUTPUT_RULES + "\nFor example:\n" + example_output(agent, classroom, scene, list(actions)),
    ]
    if classroom.language != "en":
        parts.append(f"Important: speak in the language with code '{classroom.language}'.")
    if actions:
        parts.append(f"Your actions: {', '.join(actions)}; no others. {BOARD_GUIDES[agent.role]}")
    else:
        parts.append("You have no actions: answer with text items only.")
    state = "open" if board.is_open else "closed, so the slide is visible"
    board_text = f"Whiteboard, {state} (canvas 1000 x 563, origin top-left):\n{board.summary()}"
    conflicts = board.conflict_report()
    if conflicts and actions:
        board_text += f"\n{conflicts}"
    parts.append(board_text)
    scene_text = _scene_block(scene) if any(a in ("spotlight", "laser") for a in actions) else ""
    if scene_text:
        parts.append(scene_text)
    peers = _peers(agent, responses)
    if peers:
        parts.append(peers)
    if classroom.session.type == "discussion":
        session = classroom.session
        if responses:
            parts.append(f"You are joining a discussion on: {session.topic}. Don't re-introduce it.")
        else:
            parts.append(f"You are opening a discussion on: {session.topic}. {session.prompt} Introduce it and "
                         "invite thoughts.")
    if instruction:
        parts.append(f"The director asks you to: {instruction}")
    return "\n\n".join(parts)
