"""The stages of ``maic-tui new`` (as OpenMAIC's outline → scenes → actions): what each asks the model, the JSON
schema its answer must fit (structured output constrains servers that take it), and how the answer becomes part
of a classroom. The model writes the content; code writes the structure (ids, positions, pointers, the quiz's
option values), so a small model's slips are few and the loader can name each one."""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from maic_tui.generation import answers
from maic_tui.generation.answers import answer_schema
from maic_tui.i18n import named_in_english

SUMMARY_CHARS = 4_000  # material is summarised in pieces of about this size
PALETTE = ("#2563eb", "#16a34a", "#dc2626", "#9333ea", "#f59e0b", "#0891b2", "#db2777", "#65a30d")
AVATARS = ("🎓", "💡", "🙋", "🧠", "📒", "🔭", "🎨", "⚡")


ID_LENGTH = 40  # an id's longest (classroom/field_types.py's Identifier)


def slug(text: str, fallback: str) -> str:
    found = re.sub(r"[^a-z0-9]+", "-", text.casefold()).strip("-")[:ID_LENGTH].strip("-")
    return found or fallback


def numbered(ident: str, number: int) -> str:
    """``ident-<number>``, ``ident`` cut so that the whole stays an id (at most 40 characters)."""
    suffix = f"-{number}"
    return ident[:ID_LENGTH - len(suffix)].rstrip("-") + suffix


def free_id(ident: str, taken: Collection[Any]) -> str:
    """``ident``, or ``ident-2``, ``ident-3``... the first not ``taken``."""
    found, number = ident, 1
    while found in taken:
        number += 1
        found = numbered(ident, number)
    return found


def summary_schema() -> dict[str, Any]:
    return answer_schema(answers.Summary)


def outline_schema(scenes: int) -> dict[str, Any]:
    schema = answer_schema(answers.Outline)
    schema["properties"]["scenes"] |= {"minItems": scenes, "maxItems": scenes}
    return schema


def roster_schema(agents: int) -> dict[str, Any]:
    schema = answer_schema(answers.Roster)
    schema["properties"]["agents"] |= {"minItems": agents, "maxItems": agents}
    return schema


def scene_schema(agent_ids: list[str], discussion: bool) -> dict[str, Any]:
    schema = answer_schema(answers.SceneAnswer)
    schema["properties"]["lines"]["items"]["properties"]["agent"]["enum"] = agent_ids
    if not discussion:
        del schema["properties"]["discussion"]
        schema["required"].remove("discussion")
    return schema


def demo_schema() -> dict[str, Any]:
    return answer_schema(answers.DemoMaterial)


@dataclass(frozen=True, slots=True)
class Brief:
    """What the learner asked for."""

    topic: str
    agents: int = 4
    scenes: int = 3
    language: str = "en"
    material: str = ""  # the text of --from (summarised when long)
    interactive: bool = False  # --interactive: the lesson gets a widget to work (an interactive scene)
    project: bool = False  # a project scene after the slides (new --project)


def outline_prompt(brief: Brief) -> str:
    material = f"\n\nTeach this material:\n{brief.material}" if brief.material else ""
    return (f"Plan a short lesson on: {brief.topic}. Language: {named_in_english(brief.language)}. Give a title, "
            f"a one-sentence description and exactly {brief.scenes} scenes, each with a title and one to four key "
            f"points, in teaching order.{material}\nAnswer with one JSON object only.")


def roster_prompt(brief: Brief, title: str) -> str:
    students = max(brief.agents - 2, 1)
    return (f"Cast the class for the lesson \"{title}\": exactly {brief.agents} people. One teacher, "
            f"{'one teaching assistant and ' if brief.agents >= 3 else ''}{students} student"
            f"{'s' if students != 1 else ''} with clearly different personalities. Each has a first name (the "
            f"teacher may have a title), a role (teacher, assistant or student) and a persona of one sentence "
            f"saying how they speak and think.\nAnswer with one JSON object only.")


def scene_prompt(brief: Brief, title: str, scene: dict[str, Any], cast: str, discussion: bool) -> str:
    points = "; ".join(scene["points"])
    ask = (" Also give \"discussion\": one open question on this scene for the class to debate." if discussion
           else "")
    material = f"\n\nMaterial:\n{brief.material}" if brief.material else ""
    return (f"Lesson \"{title}\", scene \"{scene['title']}\" (points: {points}). Class: {cast}.\n"
            "Write the slide as 1-4 elements (kind title, text or bullets; bullets use items) and the lecture as "
            "2-8 lines: the teacher explains each point, a student asks or reacts once in character. Each line "
            "has the agent's id, what they say (one or two sentences), point_at (the number of the slide element "
            "it talks about, from 0) and board (a few words to write on the whiteboard, or nothing)."
            f"{ask}{material}\nAnswer with one JSON object only.")


def demo_prompt(title: str, points: str) -> str:
    return (f"For the lesson \"{title}\" ({points}), write three to eight questions a learner would ask, each with "
            "keywords (words of the question's topic) and the teacher's answer in two sentences.\nAnswer with one "
            "JSON object only.")


def summary_prompt(topic: str, piece: str) -> str:
    return (f"Summarise this material for a lesson on {topic}, keeping every fact a teacher needs, in at most 150 "
            f"words:\n\n{piece}\n\nAnswer with one JSON object only.")
