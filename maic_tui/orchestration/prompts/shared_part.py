"""What every prompt of a class opens with, word for word the same for the director and each agent: the class and
who is in it, how an agent's answer is written, every action an agent of the class may take, how the director
decides and answers, and then the conversation so far (``conversation.transcript``). The caller's own part comes after.

A server that keeps its last prompt cached (llama.cpp with one slot) then reuses all of it from an agent's call to
the director's, to the next agent's and back, so each call reads anew only what was said since the call before and
its own part: on a small server reading a whole prompt again before every speaker cost seconds (ARCHITECTURE.md,
*Deciding ahead*)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, cast

from maic_tui.actions import ACTION_SCHEMAS
from maic_tui.actions.docs import describe_actions
from maic_tui.classroom.models import Classroom, Scene
from maic_tui.i18n import named_in_english
from maic_tui.orchestration.graph.conversation import HistoryEntry, compact_json, shown_entries, transcript
from maic_tui.orchestration.prompts.roles import roster
from maic_tui.scenes.registry import KIND_ACTIONS, scene_part

ANSWERS = """\
How an agent answers: one JSON array and nothing else (no code fences, no prose around it). Each item is an
object: a text item has "type": "text" and "content" with the words the agent says; an action item has "type":
"action", "name" (one of the agent's own actions) and "params". Text and actions may alternate in any order; an
action takes effect where it appears. Always start with [, even after an interruption. Speech is spoken aloud: no
markdown, and never announce or describe an action ("let me draw..."). Only speech counts toward the length;
actions are free."""


# Short on purpose, and the guards enforce in code what matters most (ARCHITECTURE.md, *One learner turn*).
RULES = """\
Rules:
1. The teacher opens; in a discussion whoever raised the topic may open, then the teacher guides.
2. Call an agent twice in a turn only if truly needed.
3. Mix roles rather than two of one role in a row.
4. Never ask for an explanation again: ask for a question, an example or a summary.
5. A clear question from the learner goes to the teacher first.
6. Students only react after the teacher (or assistant) explained.
7. Each agent speaks only for itself.
8. Once the message is dealt with (one or two agents): USER if the learner was asked something, else END.
9. The instruction: one short sentence on what the agent adds."""


def direction(classroom: Classroom) -> str:
    """How the class is directed: who decides, the mode, the rules, and the director's answer with concrete
    examples from this class (no placeholder a small model could copy)."""
    lead = classroom.lead() or classroom.agents[0]
    pick = compact_json({"next_agent": lead.id, "instruction": "Give one everyday example."})
    parts = ["A director decides who speaks next: an agent, the learner (USER) or nobody (END)."]
    if classroom.session.type == "discussion":
        session = classroom.session
        trigger = f" It was raised by {session.trigger_agent}." if session.trigger_agent else ""
        parts.append(f"This is a discussion, not Q&A. Topic: {session.topic}. {session.prompt}{trigger}".strip())
    parts += [RULES, f'The director answers one JSON object, such as {pick} or {{"next_agent":"END"}}; with USER it '
                     'may add "prompt" (a short question) and 2-4 "options".']
    return "\n\n".join(parts)


def class_actions(classroom: Classroom) -> list[str]:
    """Every action some agent of the class may take in some scene, in the catalogue's order."""
    allowed = {name for agent in classroom.agents for name in agent.actions}
    allowed -= KIND_ACTIONS.difference(*(scene.enables for scene in classroom.scenes))
    return [name for name in ACTION_SCHEMAS if name in allowed]


def class_opening(classroom: Classroom) -> str:
    """The class, who is in it, who the learner is, how its agents answer and how it is directed: nothing that
    changes during a session."""
    learner = classroom.learner
    about = f": {learner.bio.rstrip('. ')}" if learner.bio else ""
    actions = class_actions(classroom)
    parts = [f'The class "{classroom.title}". The human learner is {learner.nickname}{about}.',
             roster(classroom, actions), ANSWERS]
    if classroom.language != "en":  # every agent speaks it, and the director instructs in it
        parts.append(f"The class speaks {named_in_english(classroom.language)}: every agent says everything in it, "
                     "and the director writes its instructions and prompts to the learner in it.")
    if actions:
        parts.append("The actions an agent may take (each agent only its own; the whiteboard's canvas is 1000 x 563, "
                     f"origin top-left):\n{describe_actions(actions)}")
    parts.append(direction(classroom))
    return "\n\n".join(parts)


class ScenePrompt(Protocol):
    """What a kind's ``prompt`` part (``scenes/<kind>/prompt.py``) holds: what every call is told of the scene shown
    now, given the actions of the class (``class_actions``); empty for nothing."""

    def shown(self, scene: Any, actions: Sequence[str]) -> str: ...


class LivePrompt(Protocol):
    """A ``prompt`` part's ``live``, for a kind whose scenes have a live state (``SceneBase.initial``)."""

    def live(self, scene: Any, state: Any) -> str: ...


def scene_live(scene: Scene | None, state: Any) -> str:
    """What the caller's own request says of the scene's live state now (a widget as the learner and the agents
    left it, and the last change): in the request, not the shared part, since it changes with every change."""
    part = scene_part(scene.type, "prompt") if scene is not None and state is not None else None
    return cast(LivePrompt, part).live(scene, state) if part is not None and hasattr(part, "live") else ""


def scene_shown(scene: Scene | None, actions: Sequence[str]) -> str:
    """What the calls are told of the scene shown now, by its kind (shared: it changes only with the scene)."""
    part = scene_part(scene.type, "prompt") if scene is not None else None
    return cast(ScenePrompt, part).shown(scene, actions) if part is not None else ""


CONVERSATION = "The conversation so far, oldest first:\n"


def shared_opening(classroom: Classroom, scene: Scene | None = None) -> str:
    """What the system message of every call opens with, up to the conversation: the class's opening and the slide
    shown now. It changes only with the scene (a mute does not change it: the director's request names the muted),
    so it is what a session sends ahead for the server to cache (``live/warming.py``)."""
    parts = [class_opening(classroom)]
    if shown := scene_shown(scene, class_actions(classroom)):
        parts.append(shown)
    parts.append(CONVERSATION)
    return "\n\n".join(parts)


def shared_so_far(classroom: Classroom, history: Sequence[HistoryEntry], scene: Scene | None = None) -> str:
    """What the next call of the class opens with, as far as it is known before anyone speaks again: the opening, and
    the conversation so far when there is one (the next entry only adds a line after it)."""
    return shared_part(classroom, history, scene) if shown_entries(history) else shared_opening(classroom, scene)


def shared_part(classroom: Classroom, history: Sequence[HistoryEntry], scene: Scene | None = None) -> str:
    """The system message of every call of the class: the opening, the slide shown now, then the conversation, oldest
    first."""
    return shared_opening(classroom, scene) + transcript(history, classroom.learner.nickname)
