"""What a project keeps in the log (ARCHITECTURE.md, *Scene kinds*): the role the learner chose, each issue opened,
each submission and the judge's verdict on it, each issue done, the project done; and the project's state read
back from them, so a resume goes on at the active issue and a replay shows the same board."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, Field, ValidationError

from maic_tui.i18n import ENGLISH, translator
from maic_tui.log.records import SceneEventData, SceneEventRecord
from maic_tui.scenes.pbl.model import PblScene

KIND = "pbl"
ROLE, OPENED, SUBMITTED, VERDICT, DONE, FINISHED = ("role_chosen", "issue_opened", "submission", "verdict",
                                                   "issue_done", "project_done")
Status = Literal["done", "active", "pending"]


class Verdict(BaseModel):
    """The judge's verdict on one submission, as the judge answers it (a structured answer) and as it is kept."""

    issue: str
    verdict: Literal["complete", "needs_revision"]
    missing: list[str] = Field(default_factory=list)  # what the work still lacks (needs_revision)
    comment: str = ""  # one or two sentences to the learner
    fallback: bool = False  # no usable verdict came: this one never marks the issue done

    @property
    def complete(self) -> bool:
        return self.verdict == "complete" and not self.fallback


@dataclass
class ProjectState:
    role: str | None = None
    opened: list[str] = field(default_factory=list)  # issue ids, in the order they opened
    done: list[str] = field(default_factory=list)
    submissions: dict[str, int] = field(default_factory=dict)  # issue id -> submissions so far
    verdicts: list[Verdict] = field(default_factory=list)
    finished: bool = False

    @property
    def active(self) -> str | None:
        """The issue being worked on: the last opened that is not done."""
        return next((i for i in reversed(self.opened) if i not in self.done), None)

    def status(self, issue_id: str) -> Status:
        if issue_id in self.done:
            return "done"
        return "active" if issue_id == self.active else "pending"

    def next_issue(self, scene: PblScene) -> str | None:
        """The first issue not done yet, in the project's order."""
        return next((i.id for i in scene.issues if i.id not in self.done), None)


def state(scene: PblScene, events: Sequence[SceneEventData]) -> ProjectState:
    project = ProjectState()
    for event in events:
        data: dict[str, Any] = event.data
        match event.name:
            case "role_chosen":
                project.role = str(data.get("role", ""))
            case "issue_opened":
                project.opened.append(str(data.get("issue", "")))
            case "submission":
                issue = str(data.get("issue", ""))
                project.submissions[issue] = project.submissions.get(issue, 0) + 1
            case "verdict" if (verdict := read_verdict(data)) is not None:
                project.verdicts.append(verdict)
            case "issue_done":
                project.done.append(str(data.get("issue", "")))
            case "project_done":
                project.finished = True
    return project


def read_verdict(data: dict[str, Any]) -> Verdict | None:
    """A verdict as a log holds it (None: not one; a log is untrusted)."""
    try:
        return Verdict.model_validate(data)
    except ValidationError:
        return None


def record(scene: int, name: str, data: dict[str, Any]) -> SceneEventRecord:
    return SceneEventRecord(data=SceneEventData(scene=scene, kind=KIND, name=name, data=data))


def verdict_line(scene: PblScene, verdict: Verdict, language: str = ENGLISH) -> str:
    """The verdict as the transcript shows it, in the class's language (the judge's own comment as given)."""
    t = translator(language)
    issue = scene.issue(verdict.issue)
    title = issue.title if issue else verdict.issue
    if verdict.complete:
        return f"✓ {title}: " + t.gettext("complete") + (f". {verdict.comment}" if verdict.comment else "")
    missing = "; ".join(verdict.missing)
    lead = t.gettext("no verdict (the judge's answer could not be read); submit again") if verdict.fallback else \
        t.gettext("Needs revision")
    return f"✗ {title}: {lead}" + (". " + t.gettext("Missing: {missing}").format(missing=missing) if missing else "") \
        + (f". {verdict.comment}" if verdict.comment and not verdict.fallback else "")


def line(scene: PblScene, event: SceneEventData, language: str = ENGLISH) -> str | None:
    """What the transcript says of a project's record, in the class's language."""
    t = translator(language)
    data = event.data
    issue = scene.issue(str(data.get("issue", "")))
    match event.name:
        case "role_chosen":
            return t.gettext("Your role: {role}").format(role=data.get("role", ""))
        case "issue_opened" if issue is not None:
            return t.gettext("Issue open: {title}").format(title=issue.title)
        case "submission" if issue is not None:
            return t.gettext("Submitted for {title}").format(title=issue.title)
        case "verdict" if (verdict := read_verdict(data)) is not None:
            return verdict_line(scene, verdict, language)
        case "project_done":
            return t.gettext("Project done: {title}").format(title=scene.project.title)
    return None
