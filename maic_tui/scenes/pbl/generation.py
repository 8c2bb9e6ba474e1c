"""The project scene's stage of ``maic-tui new --project`` and ``regen`` (ARCHITECTURE.md, *Scene kinds*): after the
slides, a project on what they teach, with roles to pick from and issues to work through. The model writes the
project's words, its issues' done criteria and the demo material's questions and hints; code settles ids, who
asks and who judges (from the class's roles), owners that name no role, and the words the demo judge reads for."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field

from maic_tui.generation.answers import StageAnswer, Text, Texts, answer_schema, items
from maic_tui.generation.kind_stages import Drafting
from maic_tui.generation.stages import Brief, free_id, slug

Data = dict[str, Any]
STAGE = "project"  # the stage's name, as a script file's ``stages`` answers it
KIND = "pbl"
MAX_ISSUES = 3
LOOK_FOR_CHARS = 5  # a criterion's own words at least this long are what the demo judge reads for


def _lower(value: Any) -> Any:
    return value.strip().casefold() if isinstance(value, str) else value


class RoleAnswer(StageAnswer):
    name: Text = ""
    division: Annotated[Literal["management", "development"], BeforeValidator(_lower)] = "development"
    does: Text = ""


class CriterionAnswer(StageAnswer):
    text: Text = ""
    look_for: Texts = Field(default_factory=list, **items(0, 6))


class IssueAnswer(StageAnswer):
    title: Text = ""
    description: Text = ""
    owner: Text = ""  # a role's name
    done: list[CriterionAnswer] = Field(default_factory=list, **items(1, 3))
    questions: Texts = Field(default_factory=list, **items(1, 3))
    hints: Texts = Field(default_factory=list, **items(1, 3))


class ProjectAnswer(StageAnswer):
    title: Text = ""
    description: Text = ""
    skills: Texts = Field(default_factory=list, **items(1, 4))
    roles: list[RoleAnswer] = Field(default_factory=list, **items(2, 3))
    issues: list[IssueAnswer] = Field(default_factory=list, **items(2, MAX_ISSUES))


def wanted(brief: Brief) -> bool:
    """Asked for with ``new --project``."""
    return brief.project


def prompt(title: str, points: str) -> str:
    return (f"Plan a small project in which the learner applies the lesson \"{title}\" ({points}) with a team. Give "
            "the project a title, a description of the problem (two sentences) and the skills it practises; two or "
            "three roles (name, division: management or development, and what the role does); and two or three "
            "issues worked in order, each with a title, a description, its owner (one of the roles' names), what "
            "done means (one to three criteria, each with the words a good answer would use, look_for), one to "
            "three guiding questions that open it and one to three hints that help without giving the answer.\n"
            "Answer with one JSON object only.")


def build(draft: Data, answer: Data, index: int | None = None, keep: Data | None = None) -> list[str]:
    """The project scene made from the answer, placed in the draft (appended, or at ``index`` keeping the id and
    title of ``keep``); what is wrong with it that code cannot settle."""
    agents = draft.get("agents", [])
    teacher = next((a["id"] for a in agents if a.get("role") == "teacher"), None)
    if teacher is None:
        return ["the class has no teacher to judge the project's work"]
    asker = next((a["id"] for a in agents if a.get("role") == "assistant"), teacher)
    team = [a["id"] for a in agents if a.get("role") == "student"]
    roles, names = [], set()
    for item in answer.get("roles", [])[:3]:
        name = " ".join(str(item.get("name", "")).split())[:60]
        if name and name.casefold() not in names:
            names.add(name.casefold())
            does = " ".join(str(item.get("does", "")).split()) or f"works on the project as {name}"
            roles.append({"name": name, "division": item.get("division", "development"), "does": does})
    problems = [] if roles else ["a project needs at least one role"]
    issues: list[Data] = []
    for item in answer.get("issues", [])[:MAX_ISSUES]:
        title = " ".join(str(item.get("title", "")).split())
        done = _criteria(item.get("done", []))
        if not title or not done:
            continue  # an issue without a title or a way to tell it is done is left out
        owner = " ".join(str(item.get("owner", "")).split())
        if owner.casefold() not in names and roles:
            owner = roles[0]["name"]
        issues.append({"id": free_id(slug(title, "issue"), {i["id"] for i in issues}), "title": title,
                       "description": " ".join(str(item.get("description", "")).split()) or title,
                       "owner": owner, "participants": team, "question_agent": asker, "judge": teacher,
                       "done": done, "demo": {"questions": _lines(item.get("questions")),
                                              "hints": _lines(item.get("hints"))}})
    if not issues:
        problems.append("a project needs at least one issue with a title and what done means")
    title = " ".join(str(answer.get("title", "")).split()) or "Our project"
    project = {"title": title, "description": " ".join(str(answer.get("description", "")).split()) or title,
               "skills": _lines(answer.get("skills"))}
    taken = {s.get("id") for s in draft.get("scenes", [])}
    scene: Data = {"id": keep["id"] if keep else free_id(slug(title, KIND), taken),
                   "title": keep["title"] if keep else title, "type": KIND, "project": project, "roles": roles,
                   "issues": issues}
    scenes = draft.setdefault("scenes", [])
    if index is None:
        scenes.append(scene)
    else:
        scenes[index] = scene
    return problems


def _criteria(items: list[Data]) -> list[Data]:
    found = []
    for item in items[:3]:
        text = " ".join(str(item.get("text", "")).split())
        if not text:
            continue
        look_for = [w for w in (" ".join(str(x).split()) for x in item.get("look_for", [])) if w][:6]
        if not look_for:  # the criterion's own longer words are what the demo judge reads for
            look_for = [w.strip(".,;:!?").casefold() for w in text.split() if len(w) >= LOOK_FOR_CHARS][:4]
        found.append({"text": text, "look_for": look_for})
    return found


def _lines(value: Any) -> list[str]:
    return [line for line in (" ".join(str(x).split()) for x in (value or [])) if line][:3]



async def write(generator: Drafting) -> None:
    """A project on the lesson's points, appended to the generator's draft."""
    draft = generator.draft
    points = "; ".join(p for s in draft["_outline"] for p in s["points"])
    await generator.ask(STAGE, ProjectAnswer, answer_schema(ProjectAnswer), prompt(draft["title"], points),
                        lambda answer: build(generator.draft, answer))


async def again(generator: Drafting, index: int, context: str) -> None:
    """Project scene ``index`` of the draft made again; ``context`` follows the prompt."""
    draft = generator.draft
    old = draft["scenes"][index]
    points = "; ".join(p for s in draft["_outline"] for p in s["points"])
    await generator.ask(STAGE, ProjectAnswer, answer_schema(ProjectAnswer), prompt(draft["title"], points) + context,
                        lambda answer: build(generator.draft, answer, index, old))
