"""The New dialog's plan, edited a step at a time (rename, reorder, delete or add a scene; rename an agent, give
them another role or persona), headless so the dialog only shows it. Each step either applies or says in one
line why not; ``checked`` is the plan as ``new --review`` would accept it."""

from __future__ import annotations

from pydantic import ValidationError

from maic_tui.bad_input import field_path, validation_message
from maic_tui.generation import build
from maic_tui.generation.outline_file import MAX_SCENES, Plan, PlannedAgent, PlannedScene, plan_problems
from maic_tui.i18n import _
from maic_tui.i18n.said import shown
from maic_tui.text_safety import one_line

ROLES = ("teacher", "assistant", "student")


class PlanEdits:
    def __init__(self, plan: Plan) -> None:
        self.title, self.description = plan.title, plan.description
        self.scenes = [scene.model_copy() for scene in plan.scenes]
        self.agents = [agent.model_copy() for agent in plan.agents]

    def move_scene(self, index: int, by: int) -> int:
        """The scene's new place (it stays at either end)."""
        target = max(0, min(len(self.scenes) - 1, index + by))
        self.scenes.insert(target, self.scenes.pop(index))
        return target

    def rename_scene(self, index: int, title: str) -> str | None:
        title = one_line(title, 80)
        if not title:
            return _("a scene needs a title")
        self.scenes[index] = self.scenes[index].model_copy(update={"title": title})
        return None

    def delete_scene(self, index: int) -> str | None:
        if len(self.scenes) == 1:
            return _("the lesson needs at least one scene")
        del self.scenes[index]
        return None

    def add_scene(self, after: int, title: str) -> int | str:
        """The new scene's place, or why there is none."""
        title = one_line(title, 80)
        if not title:
            return _("a scene needs a title")
        if len(self.scenes) >= MAX_SCENES:
            return _("a lesson has at most {count} scenes").format(count=MAX_SCENES)
        self.scenes.insert(after + 1, PlannedScene(title=title, goals=[title]))
        return after + 1

    def rename_agent(self, index: int, name: str) -> str | None:
        name = one_line(name, 40)
        if not name:
            return _("a person needs a name")
        self.agents[index] = self.agents[index].model_copy(update={"name": name})
        return None

    def set_persona(self, index: int, persona: str) -> None:
        self.agents[index] = self.agents[index].model_copy(update={"persona": one_line(persona, build.PERSONA_CHARS)})

    def next_role(self, index: int) -> str:
        role = ROLES[(ROLES.index(self.agents[index].role) + 1) % len(ROLES)]
        self.agents[index] = self.agents[index].model_copy(update={"role": role})
        return role

    def checked(self) -> tuple[Plan | None, list[str]]:
        """The plan, or its problems as lines (``agents[1].role: …``)."""
        try:
            plan = Plan(title=self.title, description=self.description,
                        agents=[PlannedAgent.model_validate(a.model_dump()) for a in self.agents],
                        scenes=[PlannedScene.model_validate(s.model_dump()) for s in self.scenes])
        except ValidationError as exc:
            return None, [f"{field_path(e['loc'])}: {validation_message(e)}" for e in exc.errors()]
        problems = [f"{where}: {shown(message)}" for where, message in plan_problems(plan)]
        return (None if problems else plan), problems
