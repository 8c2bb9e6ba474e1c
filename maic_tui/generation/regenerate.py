"""``maic-tui regen``'s model side: one scene of a valid classroom made again (or a new one made where the author
wants it), with the course's outline, its agents and the scenes around it as context and the author's note as
the instruction; checked and repaired as ``new`` checks each stage (the whole classroom, with the new scene in
it, must load). What comes back is the scene's data; where it goes in the file is ``scene_splice``'s."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from maic_tui.classroom.models import Classroom
from maic_tui.generation import answers, build, stages
from maic_tui.generation.kind_stages import kind_stage
from maic_tui.generation.pipeline import Generator
from maic_tui.generation.stages import Brief, free_id, slug
from maic_tui.scenes.registry import DEFAULT_KIND

Data = dict[str, Any]
CURRENT_CHARS = 1_500  # of the scene as it is now, quoted to the model


@dataclass(frozen=True, slots=True)
class SceneWork:
    """What to make: scene ``index`` again, or (``title`` set) a new scene at ``index`` (the others move down)."""

    index: int
    title: str | None = None
    note: str = ""


def points_of(scene: Data) -> list[str]:
    """What a scene teaches, read off its slide (a file's scenes have no outline): bullets, texts, its title."""
    found: list[str] = []
    for element in scene.get("elements", []):
        found += [str(item) for item in element.get("items", [])]
        if element.get("type") in ("text", "formula") and element.get("text"):
            found.append(str(element["text"]))
    return found[:4] or [str(scene.get("title", ""))]


def draft_of(classroom: Classroom) -> Data:
    """The classroom as generation data, with the outline the generator's builders read."""
    draft: Data = classroom.model_dump(mode="json", exclude_defaults=True, by_alias=True)
    draft["_outline"] = [{"title": s["title"], "points": points_of(s)} for s in draft.get("scenes", [])]
    return draft


async def regenerate(generator: Generator, work: SceneWork) -> Data:
    """The new scene, already placed in ``generator.draft`` and checked with the whole classroom."""
    draft = generator.draft
    scenes: list[Data] = draft["scenes"]  # as the file has them: read, never changed here
    adding = work.title is not None
    stage = None if adding else kind_stage(scenes[work.index].get("type", DEFAULT_KIND))
    if stage is not None:
        await stage.again(generator, work.index, _context(draft, work, scenes[work.index]))
        return dict(generator.draft["scenes"][work.index])
    planned = {"title": work.title, "points": [work.title]} if adding else draft["_outline"][work.index]
    old = None if adding else scenes[work.index]
    discussion = old is not None and any("discussion" in step for step in old.get("script", []))
    ident = old["id"] if old else _free_id(scenes, str(work.title))
    cast = "; ".join(f"{a['id']} ({a['role']}: {a['persona']})" for a in draft["agents"])
    brief = Brief(draft["title"], language=draft.get("language", "en"))
    prompt = stages.scene_prompt(brief, draft["title"], planned, cast, discussion) + _context(draft, work, old)
    schema = stages.scene_schema([a["id"] for a in draft["agents"]], discussion)

    def apply(answer: Data) -> list[str]:  # on the generator's draft of the round (a failed one is undone)
        now = generator.draft
        outline = list(now["_outline"])
        if adding:
            outline.insert(work.index, planned)
        scratch: Data = {"agents": now["agents"], "_outline": outline, "scenes": []}
        problems = build.scene(scratch, work.index, answer)
        made = scratch["scenes"][0] | {"id": ident, "title": planned["title"]}
        if adding:
            now["scenes"].insert(work.index, made)
        else:
            now["scenes"][work.index] = made
        now["_outline"] = outline
        return problems

    await generator.ask("scene", answers.SceneAnswer, schema, prompt, apply)
    return dict(generator.draft["scenes"][work.index])


def _context(draft: Data, work: SceneWork, old: Data | None) -> str:
    """The course around the scene, the scene as it is, and the author's note, after the stage's own prompt."""
    titles = [s["title"] for s in draft["scenes"]]
    if work.title is not None and work.title not in titles:
        titles.insert(work.index, work.title)
    outline = "; ".join(f"{n}. {t}" for n, t in enumerate(titles, 1))
    lines = [f"\n\nThe course \"{draft['title']}\": {draft.get('description', '')} Scenes: {outline}."]
    scenes = draft["scenes"]
    before = scenes[work.index - 1] if work.index > 0 else None
    after_index = work.index + (0 if work.title is not None else 1)
    after = scenes[after_index] if after_index < len(scenes) else None
    if before is not None:
        lines.append(f"The scene before, \"{before['title']}\": {_gist(before)}")
    if after is not None:
        lines.append(f"The scene after, \"{after['title']}\": {_gist(after)}")
    if old is not None:
        lines.append(f"The scene as it is now, to be replaced: {_gist(old, CURRENT_CHARS)}")
    if work.note:
        lines.append(f"The author's instruction for this scene: {work.note}")
    return "\n".join(lines) + "\nAnswer with one JSON object only."


def _gist(scene: Data, limit: int = 400) -> str:
    said = [f"{step.get('agent', '')}: {step['say']}" for step in scene.get("script", []) if "say" in step]
    asked = [str(q.get("question", "")) for q in scene.get("questions", [])]
    text = " | ".join(said + asked) or "; ".join(points_of(scene))
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _free_id(scenes: list[Data], title: str) -> str:
    return free_id(slug(title, "scene"), {s["id"] for s in scenes})
