"""The interactive kind's stage of ``maic-tui new --interactive`` and ``regen`` (ARCHITECTURE.md, *Scene kinds*):
after the slides, one widget on the lesson (a simulation of what changes with what, or a diagram of its stages). The
model writes the content; code writes the structure (names, ids, the reveal order, ranges put right), and the
classroom's checks (every formula read, every value in range) send what is still wrong back for a repair."""

from __future__ import annotations

import re
from itertools import pairwise
from typing import Any, Literal

from pydantic import Field

from maic_tui.formulas import RESERVED
from maic_tui.generation.answers import StageAnswer, Text, Texts, answer_schema, items
from maic_tui.generation.kind_stages import Drafting
from maic_tui.generation.stages import Brief, free_id
from maic_tui.i18n import N_
from maic_tui.i18n.said import said

Data = dict[str, Any]
STAGE = "interactive"  # the stage's name, as a script file's ``stages`` answers it, and the kind's
LABEL = N_("interactive")  # the stage as the progress lines name it


class AskedVariable(StageAnswer):
    name: Text = ""
    label: Text = ""
    min: float = 0.0
    max: float = 1.0
    default: float = 0.5
    step: float = 0.1
    unit: Text = ""


class AskedValue(StageAnswer):
    name: Text = ""
    label: Text = ""
    formula: Text = ""


class AskedWidget(StageAnswer):
    kind: Literal["simulation", "diagram"] = "diagram"
    title: Text = ""
    variables: list[AskedVariable] = Field(default_factory=list, **items(0, 3))
    computed: list[AskedValue] = Field(default_factory=list, **items(0, 3))
    curve: Text = ""  # y as a formula of t and the variables
    stages: Texts = Field(default_factory=list, **items(0, 6))  # a diagram's nodes, in the order they happen
    pause: Text = ""  # what the teacher asks the learner to try


def wanted(brief: Brief) -> bool:
    """Only when asked for (``new --interactive``)."""
    return brief.interactive


def prompt(title: str, points: str) -> str:
    return (f"Design one interactive widget for the lesson \"{title}\" ({points}). Either kind \"simulation\": one to "
            "three variables the learner changes (name: one short word of letters; label; min < max; default "
            "between them; step > 0; unit), up to three computed values (name, label, formula over the "
            "variables), and curve: y as a formula of t and the variables; or kind \"diagram\": three to six "
            "stages, in the order they happen. Formulas use + - * / ^, parentheses and sin cos tan sqrt exp ln "
            "log abs min max pi e; no other names. Give a title, and pause: one sentence asking the learner to try "
            "something with it.\nAnswer with one JSON object only.")


def _name(text: str, taken: set[str]) -> str:
    base = re.sub(r"[^A-Za-z0-9_]", "", text.split()[0] if text.split() else "") or "v"
    base = base if base[0].isalpha() else f"v{base}"
    name, n = base[:24], 2
    while name in taken:
        name, n = f"{base[:20]}{n}", n + 1
    taken.add(name)
    return name


def scene_of(answer: Data, lead: str) -> tuple[Data, list[str]]:
    """The scene made from the answer, its structure put right by code; what is still wrong."""
    title = " ".join(str(answer.get("title", "")).split())[:60] or "Try it yourself"
    pause = " ".join(str(answer.get("pause", "")).split()) or "Try it: what do you notice?"
    script: list[Data] = [{"pause": True, "agent": lead, "prompt": pause}]
    if answer.get("kind") == "simulation":
        taken: set[str] = {"t", *RESERVED}
        variables = []
        for asked in answer.get("variables", [])[:3]:
            low, high = sorted((float(asked["min"]), float(asked["max"])))
            high = high if high > low else low + 1
            step = abs(float(asked["step"])) or (high - low) / 10
            variables.append({"name": _name(asked["name"] or asked["label"], taken),
                              "label": (asked["label"] or asked["name"] or "value")[:60],
                              "min": low, "max": high, "step": min(step, high - low),
                              "default": min(high, max(low, float(asked["default"]))), "unit": asked["unit"][:12]})
        renamed = {a["name"]: v["name"] for a, v in zip(answer.get("variables", []), variables, strict=False)}
        computed = [{"name": _name(c["name"] or c["label"], taken),
                     "label": (c["label"] or c["name"] or "value")[:60], "formula": _renamed(c["formula"], renamed)}
                    for c in answer.get("computed", [])[:3] if c["formula"]]
        widget: Data = {"kind": "simulation", "variables": variables, "computed": computed}
        if answer.get("curve"):
            low = min((v["min"] for v in variables), default=-5.0)
            high = max((v["max"] for v in variables), default=5.0)
            widget["plot"] = {"over": "t", "range": [low, high if high > low else low + 1],
                              "curves": [{"label": "y", "formula": _renamed(answer["curve"], renamed)}]}
        if not variables:
            return {}, [said(N_("a simulation needs at least one variable"))]
        return {"id": "widget", "title": title, "type": STAGE, "script": script, "widget": widget}, []
    stages = [" ".join(str(s).split())[:60] for s in answer.get("stages", []) if str(s).strip()][:6]
    if len(stages) < 2:
        return {}, [said(N_("a diagram needs at least two stages"))]
    ids: set[str] = set()
    nodes = [{"id": _name(label, ids).lower(), "label": label} for label in stages]
    edges = [{"from": a["id"], "to": b["id"]} for a, b in pairwise(nodes)]
    widget = {"kind": "diagram", "layout": "flowchart", "nodes": nodes, "edges": edges,
              "reveal": [node["id"] for node in nodes[1:]]}
    return {"id": "widget", "title": title, "type": STAGE, "script": script, "widget": widget}, []


def _renamed(formula: str, names: dict[str, str]) -> str:
    return re.sub(r"[A-Za-z_][A-Za-z0-9_]*", lambda m: names.get(m.group(0), m.group(0)), formula)


def _placed(scenes: list[Data], scene: Data) -> None:
    """After the scenes so far (the quiz's stage comes after this one: the learner tries it before being
    tested), under an id of its own."""
    scenes.append(scene | {"id": free_id(scene["id"], {s.get("id") for s in scenes})})


def _lead(draft: Data) -> str:
    return next((a["id"] for a in draft.get("agents", []) if a.get("role") == "teacher"), "teacher")


async def write(generator: Drafting) -> None:
    draft = generator.draft
    points = "; ".join(p for s in draft["_outline"] for p in s["points"])

    def apply(answer: Data) -> list[str]:
        scene, problems = scene_of(answer, _lead(generator.draft))
        if not problems:
            _placed(generator.draft.setdefault("scenes", []), scene)
        return problems

    await generator.ask(STAGE, AskedWidget, answer_schema(AskedWidget), prompt(draft["title"], points), apply)


async def again(generator: Drafting, index: int, context: str) -> None:
    """Interactive scene ``index`` made again on the lesson's points; ``context`` follows the prompt."""
    draft = generator.draft
    old = draft["scenes"][index]
    points = "; ".join(p for s in draft.get("_outline", []) for p in s.get("points", []))

    def apply(answer: Data) -> list[str]:
        scene, problems = scene_of(answer, _lead(generator.draft))
        if not problems:
            generator.draft["scenes"][index] = old | {k: v for k, v in scene.items() if k != "id"}
        return problems

    await generator.ask(STAGE, AskedWidget, answer_schema(AskedWidget), prompt(draft["title"], points) + context,
                        apply)
