"""The project's stage of ``maic-tui new --project`` and ``regen`` (ARCHITECTURE.md, *Scene kinds*): after the
slides, a project on what they teach; the model writes the project, its roles and its issues with what done
means, code gives the ids, the question agent (the teacher), the judge (the assistant, else the teacher) and the
participants (the students), and checks the rest as the classroom file would."""

from __future__ import annotations

import re
from typing import Any

from pydantic import Field

from maic_tui.generation.answers import StageAnswer, Text, Texts, answer_schema, items
from maic_tui.generation.kind_stages import Drafting
from maic_tui.generation.stages import Brief, free_id
from maic_tui.i18n import N_
from maic_tui.i18n.said import said

Data = dict[str, Any]
STAGE = "project"  # the stage's name, as a script file's ``stages`` answers it
LABEL = N_("project")  # the stage as the progress lines name it


class RoleAnswer(StageAnswer):
    name: Text = ""
    division: Text = "development"
    does: Text = ""


class IssueAnswer(StageAnswer):
    title: Text = ""
    description: Text = ""
    owner: Text = ""
    done: Texts = Field(default_factory=list, **items(1, 3))
    look_for: Texts = Field(default_factory=list, **items(0, 6))


class ProjectAnswer(StageAnswer):
    title: Text = ""
    description: Text = ""
    skills: Texts = Field(default_factory=list, **items(1, 4))
    roles: list[RoleAnswer] = Field(default_factory=list, **items(2, 3))
    issues: list[IssueAnswer] = Field(default_factory=list, **items(2, 3))


def wanted(brief: Brief) -> bool:
    """A project only when the author asks for one (``new --project``)."""
    return brief.project


def prompt(title: str, points: str) -> str:
    return (f"Plan a small team project for learners of the lesson \"{title}\" ({points}). Give the project a title, "
            "a two-sentence description and one to four skills it practises; two or three roles (name, division: "
            "management or development, and what someone in the role does); and two or three issues worked in order "
            "(title, description, owner: the name of one of the roles, done: one to three short statements of what "
            "finished work shows, each starting with a verb, and look_for: words a finished piece of work would "
            "contain).\nAnswer with one JSON object only.")


def _one_line(value: object) -> str:
    return " ".join(str(value).split())


def _slug(text: str, taken: set[str]) -> str:
    ident = free_id("-".join(re.findall(r"[a-z0-9]+", text.casefold()))[:30].strip("-") or "issue", taken)
    taken.add(ident)
    return ident


def build(draft: Data, answer: Data, scene_id: str = "project") -> tuple[Data, list[str]]:
    """The project scene made from the answer, and what is wrong with it."""
    problems: list[str] = []
    agents = draft.get("agents", [])
    by_role = {role: [a["id"] for a in agents if a.get("role") == role] for role in ("teacher", "assistant", "student")}
    asker = (by_role["teacher"] or [a["id"] for a in agents] or ["teacher"])[0]
    judge = (by_role["assistant"] or by_role["teacher"] or [asker])[0]
    roles: list[Data] = []
    for role in answer.get("roles", []):
        name = _one_line(role.get("name", ""))
        if name and name.casefold() not in {r["name"].casefold() for r in roles}:
            division = "management" if "manag" in str(role.get("division", "")).casefold() else "development"
            roles.append({"name": name, "division": division,
                          "does": _one_line(role.get("does", "")) or f"works on the project as {name}"})
    if len(roles) < 2:
        problems.append(said(N_("the project needs at least two roles, each with a name")))
    taken: set[str] = set()
    issues: list[Data] = []
    for issue in answer.get("issues", []):
        title = _one_line(issue.get("title", ""))
        done = [_one_line(d) for d in issue.get("done", []) if _one_line(d)]
        if not title or not done:
            continue  # an issue without a title or without what done means cannot be judged
        owner = _one_line(issue.get("owner", ""))
        named = next((r["name"] for r in roles if r["name"].casefold() == owner.casefold()), None)
        look_for = [_one_line(w) for w in issue.get("look_for", []) if _one_line(w)]
        issues.append({"id": _slug(title, taken), "title": title,
                       "description": _one_line(issue.get("description", "")) or title,
                       "owner": named or (roles[len(issues) % len(roles)]["name"] if roles else owner),
                       "participants": by_role["student"], "question_agent": asker, "judge": judge,
                       "done": [{"text": text, **({"look_for": look_for} if look_for else {})} for text in done]})
    if not issues:
        problems.append("the project needs at least one issue with a title and what done means")
    title = _one_line(answer.get("title", "")) or "Our project"
    scene = {"id": scene_id, "title": f"Project: {title}", "type": "pbl",
             "project": {"title": title, "description": _one_line(answer.get("description", "")) or title,
                         "skills": [_one_line(s) for s in answer.get("skills", []) if _one_line(s)]},
             "roles": roles, "issues": issues}
    return scene, problems


def _place(draft: Data, scene: Data) -> None:
    """After the scenes so far (the quiz's stage comes after this one: a lesson ends with its quiz), under an id of
    its own."""
    scenes = draft.setdefault("scenes", [])
    scenes.append(scene | {"id": free_id(scene["id"], {s.get("id") for s in scenes})})


async def write(generator: Drafting) -> None:
    draft = generator.draft
    points = "; ".join(p for s in draft["_outline"] for p in s["points"])

    def apply(answer: Data) -> list[str]:
        scene, problems = build(generator.draft, answer)
        if not problems:
            _place(generator.draft, scene)
        return problems

    await generator.ask(STAGE, ProjectAnswer, answer_schema(ProjectAnswer), prompt(draft["title"], points), apply)


async def again(generator: Drafting, index: int, context: str) -> None:
    """Project scene ``index`` of the draft made again on the slides' points."""
    draft = generator.draft
    old = draft["scenes"][index]
    points = "; ".join(p for s in draft.get("_outline", []) for p in s.get("points", []))

    def apply(answer: Data) -> list[str]:
        scene, problems = build(generator.draft, answer, old["id"])
        if not problems:
            generator.draft["scenes"][index] = old | {k: v for k, v in scene.items() if k not in ("id", "title")}
        return problems

    await generator.ask(STAGE, ProjectAnswer, answer_schema(ProjectAnswer), prompt(draft["title"], points) + context,
                        apply)
