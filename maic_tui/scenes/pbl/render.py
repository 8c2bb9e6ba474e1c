"""What the pane shows of a project below its elements: the brief, as on a printed sheet (the project, its
skills, the roles, each issue with what done means). Where the work stands is the project's widget."""

from __future__ import annotations

from rich.text import Text

from maic_tui.i18n import _
from maic_tui.scenes.pbl.model import PblScene
from maic_tui.text_safety import terminal_safe
from maic_tui.whiteboard.render.board_drawing import BoardPalette
from maic_tui.whiteboard.render.content import wrap
from maic_tui.whiteboard.render.slide import INDENT


def lines(scene: PblScene, width: int, palette: BoardPalette) -> list[Text]:
    out: list[Text] = []

    def para(text: str, indent: int = 0, bold: bool = False, dim: bool = False) -> None:
        for line in wrap(terminal_safe(text), max(width - indent, 1)):
            out.append(Text(" " * (INDENT + indent) + line, style=palette.style(bold=bold, dim=dim)))

    para(scene.project.title, bold=True)
    para(scene.project.description)
    if scene.project.skills:
        para(_("Skills: {skills}").format(skills=", ".join(scene.project.skills)), dim=True)
    out.append(Text(""))
    para(_("Roles"), bold=True)
    for role in scene.roles:
        para(f"• {role.name} ({_(role.division)}): {role.does}", 2)
    out.append(Text(""))
    para(_("Issues"), bold=True)
    for number, issue in enumerate(scene.issues, 1):
        para(f"{number}. {issue.title} — " + _("owner: {owner}").format(owner=issue.owner), 2)
        para(issue.description, 5, dim=True)
        for criterion in issue.done:
            para("✓ " + _("when it {criterion}").format(criterion=criterion.text), 5, dim=True)
    return out
