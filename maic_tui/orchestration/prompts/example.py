"""The worked example of each role in the class's opening (roles.py): a concrete answer about the class's own topic,
in the exact output format, with no placeholder a small model could copy as its speech (``<speech>`` was spoken as is).

Speech that is only a placeholder, or a copy of this example, is not a real answer: ``is_filler`` tells the
agent node to count such a turn as empty.
"""

from __future__ import annotations

import re

from maic_tui.classroom.models import Agent, Classroom
from maic_tui.i18n import translator
from maic_tui.orchestration.graph.conversation import compact_json

_PLACEHOLDER = re.compile(r"^\s*(<[^<>]{1,40}>|\.\.\.|…|\[?speech\]?|text|content)\s*$", re.IGNORECASE)


def example_items(agent: Agent, classroom: Classroom, actions: list[str] | tuple[str, ...]) -> list[dict[str, object]]:
    topic = classroom.title  # the opening is the same in every scene (opening.py)
    t = translator(classroom.language)  # the example speaks the class's language, as its agents must
    opening = {"teacher": t.gettext("Here is the key idea of {topic}."),
               "assistant": t.gettext("One more way to see {topic}."),
               "student": t.gettext("I think I get {topic} now!")}[agent.role].format(topic=topic)
    question = {"teacher": t.gettext("What would you try first?"), "assistant": t.gettext("Does that example help?"),
                "student": t.gettext("Can I try one myself?")}[agent.role]
    items: list[dict[str, object]] = [{"type": "text", "content": opening}]
    if "wb_draw_text" in actions and agent.role != "student":
        items.append({"type": "action", "name": "wb_draw_text",
                      "params": {"content": topic[:40], "x": 60, "y": 60}})
    items.append({"type": "text", "content": question})
    return items


def example_output(agent: Agent, classroom: Classroom, actions: list[str] | tuple[str, ...]) -> str:
    return compact_json(example_items(agent, classroom, actions))


def example_speech(agent: Agent, classroom: Classroom, actions: list[str] | tuple[str, ...]) -> str:
    parts = [str(item["content"]) for item in example_items(agent, classroom, actions)
             if item["type"] == "text"]
    return " ".join(parts)


def _normal(text: str) -> str:
    return " ".join(re.sub(r"[^\w\s]", " ", text.casefold()).split())


def is_filler(speech: str, example: str) -> bool:
    """Speech that says nothing of its own: a placeholder (``<speech>``, ``...``) or the prompt's example."""
    if not speech.strip():
        return True
    if _PLACEHOLDER.match(speech):
        return True
    return bool(example) and _normal(speech) == _normal(example)
