"""What every call of the class is told while a project is on (shared: it changes only with the scene): the
project, its roles and its issues with their question agents, judges and what done means."""

from __future__ import annotations

from collections.abc import Sequence

from maic_tui.scenes.pbl.model import PblScene


def shown(scene: PblScene, actions: Sequence[str]) -> str:
    lines = [f'Project "{scene.project.title}": {scene.project.description}',
             "Roles: " + "; ".join(f"{r.name} ({r.division}): {r.does}" for r in scene.roles),
             "Issues, worked in this order:"]
    for number, issue in enumerate(scene.issues, 1):
        done = "; ".join(c.text for c in issue.done)
        lines.append(f"  {number}. [{issue.id}] {issue.title} (owner: {issue.owner}; question agent: "
                     f"{issue.question_agent}; judge: {issue.judge}). Done when it {done}.")
    lines.append("The judge speaks only on a submission; the question agent gives hints, never the answer; "
                 "teammates contribute in their roles.")
    return "\n".join(lines)
