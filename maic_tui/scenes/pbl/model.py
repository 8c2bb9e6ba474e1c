"""A project scene in a classroom file (ARCHITECTURE.md, *Scene kinds*): the project, the roles the learner picks
from, and the issues worked through in order, each with its question agent, its judge and what done means."""

from __future__ import annotations

from collections.abc import Collection, Iterator
from typing import ClassVar, Literal

from pydantic import Field, model_validator

from maic_tui.classroom.field_types import Identifier, Line, Text
from maic_tui.classroom.lesson import ScriptStep, Step
from maic_tui.i18n import ENGLISH, N_, translator
from maic_tui.i18n.said import said
from maic_tui.scenes.base import Found, SceneBase
from maic_tui.strict import Strict

# The routing rules a project brings (ARCHITECTURE.md, *One learner turn*): switchable in ``[routing] rules``.
OPENS, HINTS, JUDGE = "issue_opens", "hint_to_questioner", "judge_on_submission"


class Project(Strict):
    title: Line
    description: Text
    skills: list[Line] = Field(default_factory=list)


class Role(Strict):
    name: Line
    division: Literal["management", "development"] = "development"
    does: Text  # what someone in this role does in the project


class Criterion(Strict):
    """One thing done work shows. ``look_for``: words the demo model's judge reads the work for (any of them);
    without them it reads the criterion's own longer words."""

    text: Line
    look_for: list[Line] = Field(default_factory=list)


class IssueDemo(Strict):
    """What the offline demo model says in this issue (the question agent's questions and hints, teammates' lines)."""

    questions: list[Line] = Field(default_factory=list)
    hints: list[Line] = Field(default_factory=list)
    lines: dict[str, list[Line]] = Field(default_factory=dict)  # agent id -> lines in the team's talk


class Issue(Strict):
    id: Identifier
    title: Line
    description: Text
    owner: Line  # the role in charge
    participants: list[Identifier] = Field(default_factory=list)  # the agents who work on it
    question_agent: Identifier
    judge: Identifier
    done: list[Criterion] = Field(min_length=1)  # what done means
    demo: IssueDemo = Field(default_factory=IssueDemo)


class PblScene(SceneBase):
    type: Literal["pbl"]
    project: Project
    roles: list[Role] = Field(min_length=1)
    issues: list[Issue] = Field(min_length=1)
    rules: ClassVar[tuple[str, ...]] = (OPENS, HINTS, JUDGE)

    @model_validator(mode="after")
    def _unscripted(self) -> PblScene:
        if self.script:
            raise ValueError(said(N_("a pbl scene plays its issues; it has no script")))
        return self

    def issue(self, issue_id: str) -> Issue | None:
        return next((i for i in self.issues if i.id == issue_id), None)

    def role(self, name: str) -> Role | None:
        folded = name.strip().casefold()
        return next((r for r in self.roles if r.name.casefold() == folded), None)

    def problems(self) -> Iterator[Found]:
        names: set[str] = set()
        for r, role in enumerate(self.roles):
            if role.name.casefold() in names:
                yield f"roles[{r}].name", said(N_("duplicate role {name}"), name=repr(role.name))
            names.add(role.name.casefold())
        ids: set[str] = set()
        for i, issue in enumerate(self.issues):
            if issue.id in ids:
                yield f"issues[{i}].id", said(N_("duplicate issue id {id}"), id=repr(issue.id))
            ids.add(issue.id)
            if self.role(issue.owner) is None:
                known = ", ".join(r.name for r in self.roles)
                yield f"issues[{i}].owner", said(N_("{name} is not a role of this project ({known})"),
                                                 name=repr(issue.owner), known=known)

    def agent_problems(self, agents: Collection[str]) -> Iterator[Found]:
        known = ", ".join(sorted(agents))
        for i, issue in enumerate(self.issues):
            named = [("question_agent", issue.question_agent), ("judge", issue.judge),
                     *((f"participants[{p}]", a) for p, a in enumerate(issue.participants)),
                     *((f"demo.lines.{a}", a) for a in issue.demo.lines)]
            for where, agent in named:
                if agent not in agents:
                    yield f"issues[{i}].{where}", said(N_("{agent} is not an agent of this classroom ({known})"),
                                                       agent=repr(agent), known=known)

    def unscripted(self, number: int, language: str = ENGLISH) -> list[Step]:
        """The project is introduced, then it waits for the learner: their role, then each issue's work, which its
        kind's lesson part reads until the last issue is done (the project's own words in the class's language)."""
        opener = self.issues[0].question_agent
        return [Step(number, 0, "say", ScriptStep(agent=opener, say=self.introduction(language))),
                Step(number, 1, "pause", ScriptStep(agent=opener, pause=True, prompt=self.role_question(language)))]

    def introduction(self, language: str = ENGLISH) -> str:
        t = translator(language)
        divisions = {"management": t.gettext("management"), "development": t.gettext("development")}
        roles = "; ".join(f"{r.name} ({divisions[r.division]}): {r.does}" for r in self.roles)
        return t.gettext("Our project: {title}. {description} The roles: {roles}.").format(
            title=self.project.title, description=self.project.description, roles=roles)

    def role_question(self, language: str = ENGLISH) -> str:
        return translator(language).gettext("Which role will you take: {roles}?").format(
            roles=", ".join(r.name for r in self.roles))
