"""The lesson's plan as the author reviews it (``new --review``, the New dialog): title, description, the class
(name, role, persona, voice per speech provider) and the scenes (title, goals), as TOML to edit, checked, and
put back into the generator's draft so the scenes are written from the plan as the author left it."""

from __future__ import annotations

import tomllib
from typing import Annotated, Any, Literal

from pydantic import Field, ValidationError

from maic_tui.bad_input import field_path, validation_message
from maic_tui.classroom.models import Agent, Voices
from maic_tui.classroom.toml_layout import Layout
from maic_tui.classroom.toml_writer import key, value
from maic_tui.classroom.voices import voice_problems
from maic_tui.generation import build
from maic_tui.i18n import N_, _
from maic_tui.i18n.said import said, shown
from maic_tui.strict import Strict
from maic_tui.text_safety import clean_tree

Data = dict[str, Any]
MAX_SCENES = 12
Words = Annotated[str, Field(min_length=1, max_length=80, pattern=r"\S")]


class PlannedAgent(Strict):
    name: Annotated[str, Field(min_length=1, max_length=40, pattern=r"\S")]
    role: Literal["teacher", "assistant", "student"]
    persona: Annotated[str, Field(max_length=build.PERSONA_CHARS)] = ""
    voice: Voices | None = None  # per speech provider; one is assigned where none is given


class PlannedScene(Strict):
    title: Words
    goals: list[Annotated[str, Field(min_length=1, max_length=build.POINT_CHARS)]] = Field(min_length=1,
                                                                                           max_length=12)


class Plan(Strict):
    title: Words
    description: Annotated[str, Field(max_length=2_000)] = ""
    agents: list[PlannedAgent] = Field(min_length=2, max_length=8)
    scenes: list[PlannedScene] = Field(min_length=1, max_length=MAX_SCENES)


def plan_of(draft: Data) -> Plan:
    """The plan as the model made it, unchecked: whatever it is, the author sees it, with its problems if any."""
    agents = [PlannedAgent.model_construct(name=a["name"], role=a["role"], persona=a["persona"],
                                           voice=Voices.model_construct(**a["voice"]) if a.get("voice") else None)
              for a in draft["agents"]]
    scenes = [PlannedScene.model_construct(title=s["title"], goals=list(s["points"])) for s in draft["_outline"]]
    return Plan.model_construct(title=draft["title"], description=draft.get("description", ""), agents=agents,
                                scenes=scenes)


def plan_toml(plan: Plan) -> str:
    lines = ["# The plan of the lesson. Change what you like: titles, goals, the order of the scenes (move a",
             "# [[scenes]] block), add or delete one, or edit the class. One teacher leads; save and quit to go on.",
             f"title = {value(plan.title)}", f"description = {value(plan.description)}"]
    for agent in plan.agents:
        lines += ["", "[[agents]]", *(f"{key(k)} = {value(v)}" for k, v in agent.model_dump(exclude_none=True).items()
                                      if v != {})]
    for scene in plan.scenes:
        lines += ["", "[[scenes]]", f"title = {value(scene.title)}", f"goals = {value(scene.goals)}"]
    return "\n".join(lines) + "\n"


def read_plan(text: str) -> tuple[Plan | None, list[tuple[int | None, str]]]:
    """The plan, or its problems, each with its line in ``text`` (written above the outline for the author to read:
    in the interface's language)."""
    try:
        data = clean_tree(tomllib.loads(text))
    except tomllib.TOMLDecodeError as exc:
        return None, [(None, _("not valid TOML: {reason}").format(reason=exc))]
    layout = Layout.of(text)
    try:
        plan = Plan.model_validate(data)
    except ValidationError as exc:
        return None, [(layout.line_of(field_path(e["loc"])), f"{field_path(e['loc'])}: {validation_message(e).shown}")
                      for e in exc.errors()]
    problems = [(layout.line_of(where), f"{where}: {shown(message)}") for where, message in plan_problems(plan)]
    return (None if problems else plan), problems


def plan_problems(plan: Plan) -> list[tuple[str, str]]:
    """What the schema cannot say: one teacher leads, no two people share a name or a voice, each voice is one
    its provider can speak. Its own lines are ``Said``: English in the draft's notes, translated in the dialog."""
    people = [Agent.model_construct(id=a.name, name=a.name, role=a.role, persona=a.persona, avatar="?", color="#000",
                                    voice=a.voice) for a in plan.agents]  # only what the voice checks read
    problems = list(voice_problems(people))
    teachers = [n for n, a in enumerate(plan.agents) if a.role == "teacher"]
    if len(teachers) != 1:
        where = f"agents[{teachers[1]}].role" if len(teachers) > 1 else "agents"
        problems.append((where, said(N_("the class needs exactly one teacher ({count} now)"), count=len(teachers))))
    names = [a.name.casefold() for a in plan.agents]
    for n, name in enumerate(names):
        if name in names[:n]:
            named = repr(plan.agents[n].name)
            problems.append((f"agents[{n}].name", said(N_("{name} is already in the class"), name=named)))
    return problems


def apply_plan(draft: Data, plan: Plan) -> None:
    """The generator's draft from the plan: ids, colours and avatars assigned again from the names."""
    draft["title"], draft["description"] = plan.title, plan.description
    draft["_outline"] = [{"title": s.title, "points": list(s.goals)} for s in plan.scenes]
    build.roster(draft, {"agents": [a.model_dump() for a in plan.agents]}, len(plan.agents))
    draft.pop("scenes", None)
