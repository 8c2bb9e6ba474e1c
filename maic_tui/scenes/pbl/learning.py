"""What a project adds to the learning records: a statement per verdict (passed when complete, failed with what
is missing) and per issue completed, and a gradebook column per issue (done, or the verdicts it has had)."""

from __future__ import annotations

from collections.abc import Sequence
from urllib.parse import quote

from maic_tui.learning.scene_kinds import Told
from maic_tui.log.records import SceneEventData
from maic_tui.scenes.pbl.model import PblScene
from maic_tui.scenes.pbl.records import read_verdict, state


def _issue(scene: PblScene, issue_id: str) -> tuple[str, str]:
    issue = scene.issue(issue_id)
    return f"issues/{quote(issue_id, safe='')}", issue.title if issue is not None else issue_id


def told(scene: PblScene, event: SceneEventData) -> list[Told]:
    if event.name == "verdict" and (verdict := read_verdict(event.data)) is not None:
        where, title = _issue(scene, verdict.issue)
        result: dict[str, object] = {"success": verdict.complete, "completion": verdict.complete}
        if verdict.missing:
            result["response"] = "missing: " + "; ".join(verdict.missing)
        return [Told("passed" if verdict.complete else "failed", where, title, "objective", dict(result))]
    if event.name == "issue_done":
        where, title = _issue(scene, str(event.data.get("issue", "")))
        return [Told("completed", where, title, "objective", {"completion": True})]
    return []


def columns(scene: PblScene) -> list[str]:
    return [issue.id for issue in scene.issues]


def cells(scene: PblScene, events: Sequence[SceneEventData]) -> dict[str, str]:
    project = state(scene, events)
    out = {}
    for issue in scene.issues:
        judged = sum(v.issue == issue.id for v in project.verdicts)
        if issue.id in project.done:
            out[issue.id] = f"done ({judged} verdict{'s' if judged != 1 else ''})"
        elif judged:
            out[issue.id] = f"open ({judged} verdict{'s' if judged != 1 else ''})"
    return out
