"""The project's widget (ARCHITECTURE.md, *Scene kinds*): the issue board (done ✓, active ▶, pending ·) and the
learner's role while a project is on; while it waits, a list to pick from: the roles first, then submitting the
work or asking for a hint. Picking sends what the learner would type; a letter typed at the list goes to the
composer."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from maic_tui.i18n import _
from maic_tui.scenes.pbl.model import PblScene
from maic_tui.scenes.pbl.records import ProjectState, state
from maic_tui.tui.messages import SendRequested
from maic_tui.tui.plain import plain, plain_block
from maic_tui.tui.scene_widgets import CLASS
from maic_tui.tui.scenes.quiz import typed_on

if TYPE_CHECKING:
    from maic_tui.room.lesson_state import LessonStatus
    from maic_tui.tui.scene_widgets import WorkedClass

SUBMIT, HINT = "done", "hint please"
MARKS = {"done": "✓", "active": "▶", "pending": "·"}


def board_lines(scene: PblScene, project: ProjectState) -> list[str]:
    """The project's title and the learner's role, then one line per issue with its mark and owner."""
    role = " · " + (_("you: {role}").format(role=project.role) if project.role else _("pick your role"))
    lines = [f"🛠 {scene.project.title}{role}"]
    for issue in scene.issues:
        status = project.status(issue.id)
        lines.append(f"{MARKS[status]} {issue.title} ({issue.owner})")
    return lines


class Picks(OptionList):
    async def on_key(self, event: events.Key) -> None:
        typed_on(self, event, frozenset())

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.post_message(SendRequested(str(event.option.id)))


class ProjectPanel(Vertical):
    DEFAULT_CSS = """
    ProjectPanel { height: auto; max-height: 12; border-left: outer $success; padding: 0 0 0 1; display: none; }
    ProjectPanel > #project-board { height: auto; max-height: 6; }
    ProjectPanel > .project-picks, ProjectPanel > .project-picks:focus {
        height: auto; max-height: 5; border: none; padding: 0; background: transparent;
    }
    """

    def __init__(self) -> None:
        super().__init__(id="project", classes=CLASS)
        self.shown: tuple[object, ...] | None = None  # what the picks were made for

    def compose(self) -> ComposeResult:
        yield Static(Text(""), id="project-board")

    def follow(self, the_class: WorkedClass) -> None:
        """The project follows the lesson's status alone (``show``)."""

    async def show(self, status: LessonStatus | None) -> None:
        scene = status.scene if status is not None else None
        self.display = isinstance(scene, PblScene)
        if not isinstance(scene, PblScene) or status is None:
            self.shown = None
            await self.query(".project-picks").remove()
            return
        project = state(scene, status.events)
        self.query_one("#project-board", Static).update(plain_block("\n".join(board_lines(scene, project))))
        picking = project.role is None
        key = (scene.id, status.waiting, picking, project.active, project.finished)
        if key == self.shown:
            return
        self.shown = key
        await self.query(".project-picks").remove()
        if not status.waiting or project.finished:
            return
        if picking:
            options = [Option(plain(f"{n}. {r.name} ({_(r.division)})"), id=r.name)
                       for n, r in enumerate(scene.roles, 1)]
        else:
            options = [Option(plain(_("Submit my work for the judge")), id=SUBMIT),
                       Option(plain(_("Ask for a hint")), id=HINT)]
        picks = Picks(*options, classes="project-picks")
        await self.mount(picks)
        if picking:
            picks.focus()


WIDGET = ProjectPanel
