"""The interactive scene's stage of ``maic-tui new --interactive`` and ``regen`` (ARCHITECTURE.md, *Scene kinds*):
after the slides, one widget the learner works on what they teach, a simulation or a diagram. The model chooses
the widget and writes its words and formulas; code settles names, ranges, steps and the reveal order, and the
loader checks the formulas (a bad one is a repair round naming its field, never run)."""

from __future__ import annotations

import math
import re
from itertools import pairwise
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field

from maic_tui.generation.answers import StageAnswer, Text, Texts, answer_schema, items
from maic_tui.generation.kind_stages import Drafting
from maic_tui.generation.stages import Brief, free_id, slug

Data = dict[str, Any]
STAGE = "interactive"  # the stage's name, as a script file's ``stages`` answers it, and the kind's
MAX_VARIABLES = 4
MAX_NODES = 8


def _lower(value: Any) -> Any:
    return value.strip().casefold() if isinstance(value, str) else value


class VariableAnswer(StageAnswer):
    name: Text = ""
    label: Text = ""
    min: float = 0.0
    max: float = 1.0
    default: float | None = None
    step: float | None = None
    unit: Text = ""


class ComputedAnswer(StageAnswer):
    name: Text = ""
    label: Text = ""
    formula: Text = ""
    unit: Text = ""


class CurveAnswer(StageAnswer):
    label: Text = ""
    formula: Text = ""  # over t


class PresetAnswer(StageAnswer):
    label: Text = ""
    values: dict[str, float] = Field(default_factory=dict)


class EdgeAnswer(StageAnswer):
    source: int = Field(0, alias="from")  # node numbers, from 0
    to: int = 0
    label: Text = ""


class ReactionAnswer(StageAnswer):
    when: Text = ""
    say: Text = ""


class InteractiveAnswer(StageAnswer):
    kind: Annotated[Literal["simulation", "diagram"], BeforeValidator(_lower)] = "simulation"
    title: Text = ""
    intro: Text = ""  # what the teacher says, showing the widget
    question: Text = ""  # what the learner is asked to find by working it
    variables: list[VariableAnswer] = Field(default_factory=list, **items(0, MAX_VARIABLES))
    computed: list[ComputedAnswer] = Field(default_factory=list, **items(0, 4))
    plot_from: float = -5.0
    plot_to: float = 5.0
    curves: list[CurveAnswer] = Field(default_factory=list, **items(0, 3))
    presets: list[PresetAnswer] = Field(default_factory=list, **items(0, 3))
    layout: Annotated[Literal["flowchart", "mindmap", "hierarchy"], BeforeValidator(_lower)] = "flowchart"
    nodes: Texts = Field(default_factory=list, **items(0, MAX_NODES))
    edges: list[EdgeAnswer] = Field(default_factory=list, **items(0, 12))
    reactions: list[ReactionAnswer] = Field(default_factory=list, **items(0, 4))


def wanted(brief: Brief) -> bool:
    """Asked for with ``new --interactive``."""
    return brief.interactive


def prompt(title: str, points: str) -> str:
    return (f"Design one interactive widget for the lesson \"{title}\" ({points}) that the learner works with while "
            "the teacher talks. Choose kind simulation (variables the learner changes, each with name, label, min, "
            "max, default, step and unit; computed values with a formula over the variables' names; curves, a "
            "formula over t plotted from plot_from to plot_to; presets giving variables values) or kind diagram "
            "(nodes: labels in the order they are revealed; edges from one node number to another, from 0; a "
            "layout: flowchart, mindmap or hierarchy). Formulas use + - * / ^, parentheses, comparisons and "
            "sqrt, sin, cos, tan, exp, log, abs, min, max. Give a title, the teacher's intro (one or two "
            "sentences), the question the learner answers by working it, and reactions: when (a formula over the "
            "variables, or over revealed, the number of nodes shown) and what the teacher says then.\n"
            "Answer with one JSON object only.")


def build(draft: Data, answer: Data, index: int | None = None, keep: Data | None = None) -> list[str]:
    """The interactive scene made from the answer, placed in the draft (appended, or at ``index`` keeping the id
    and title of ``keep``); what is wrong with it that code cannot settle."""
    teacher = next((a["id"] for a in draft.get("agents", []) if a.get("role") == "teacher"), None)
    if teacher is None:
        return ["the class has no teacher to present the widget"]
    diagram = answer.get("kind") == "diagram"
    widget, problems = _diagram(answer) if diagram else _simulation(answer)
    title = " ".join(str(answer.get("title", "")).split()) or ("See it step by step" if diagram else "Try it")
    intro = " ".join(str(answer.get("intro", "")).split()) or f"Here is {title}: work it and watch."
    question = " ".join(str(answer.get("question", "")).split()) or "Work the widget: what do you notice?"
    taken = {s.get("id") for s in draft.get("scenes", [])}
    ident = keep["id"] if keep else free_id(slug(title, STAGE), taken)
    scene: Data = {"id": ident, "title": keep["title"] if keep else title, "type": STAGE,
                   "script": [{"agent": teacher, "say": intro},
                              {"pause": True, "agent": teacher, "prompt": question}],
                   "widget": widget}
    scenes = draft.setdefault("scenes", [])
    if index is None:
        scenes.append(scene)
    else:
        scenes[index] = scene
    return problems


def _simulation(answer: Data) -> tuple[Data, list[str]]:
    variables: list[Data] = []
    names: set[str] = set()
    for item in answer.get("variables", [])[:MAX_VARIABLES]:
        name = _name(str(item.get("name", "")), names)
        low, high = float(item.get("min", 0.0)), float(item.get("max", 1.0))
        if not (math.isfinite(low) and math.isfinite(high)):
            continue
        if low > high:
            low, high = high, low
        if low == high:
            high = low + 1
        step = item.get("step")
        if not isinstance(step, int | float) or not 0 < step <= high - low:
            step = _round((high - low) / 20) or 1.0
        default = item.get("default")
        if not isinstance(default, int | float) or not low <= default <= high:
            default = _round((low + high) / 2) or 0.0
        names.add(name)
        variables.append({"name": name, "label": _label(item.get("label"), name), "min": low, "max": high,
                          "default": float(default), "step": float(step), "unit": _unit(item.get("unit"))})
    if not variables:
        return {"kind": "simulation", "variables": []}, ["a simulation needs at least one variable"]
    widget: Data = {"kind": "simulation", "variables": variables}
    computed = []
    for item in answer.get("computed", [])[:4]:
        formula = " ".join(str(item.get("formula", "")).split())
        if formula:
            name = _name(str(item.get("name", "")), names)
            names.add(name)
            computed.append({"name": name, "label": _label(item.get("label"), name), "formula": formula,
                             "unit": _unit(item.get("unit"))})
    if computed:
        widget["computed"] = computed
    ranges = {v["name"]: (v["min"], v["max"]) for v in variables}
    presets: list[Data] = []
    for item in answer.get("presets", [])[:3]:
        values = {k: min(max(float(v), ranges[k][0]), ranges[k][1]) for k, v in dict(item.get("values", {})).items()
                  if k in ranges and math.isfinite(float(v))}
        if values:
            name = _name(str(item.get("label", "")), {str(p["name"]) for p in presets} | names)
            presets.append({"name": name, "label": _label(item.get("label"), name), "values": values})
    if presets:
        widget["presets"] = presets
    curves = [{"label": _label(c.get("label"), f"curve {k + 1}"), "formula": " ".join(str(c["formula"]).split())}
              for k, c in enumerate(answer.get("curves", [])[:3]) if str(c.get("formula", "")).strip()]
    if curves:
        low, high = float(answer.get("plot_from", -5.0)), float(answer.get("plot_to", 5.0))
        if not (math.isfinite(low) and math.isfinite(high)) or low == high:
            low, high = -5.0, 5.0
        widget["plot"] = {"over": "t", "range": [min(low, high), max(low, high)], "curves": curves}
    widget["reactions"] = _reactions(answer)
    return widget, []


def _diagram(answer: Data) -> tuple[Data, list[str]]:
    nodes: list[Data] = []
    for label in answer.get("nodes", [])[:MAX_NODES]:
        text = " ".join(str(label).split())
        if text:
            nodes.append({"id": free_id(slug(text, "node"), {n["id"] for n in nodes}), "label": _label(text, "node")})
    if len(nodes) < 2:
        return {"kind": "diagram", "nodes": nodes}, ["a diagram needs at least two nodes"]
    edges, seen = [], set()
    for item in answer.get("edges", []):
        source, to = item.get("source", item.get("from")), item.get("to")
        if isinstance(source, int) and isinstance(to, int) and source != to and \
                0 <= source < len(nodes) and 0 <= to < len(nodes) and (source, to) not in seen:
            seen.add((source, to))
            edges.append({"from": nodes[source]["id"], "to": nodes[to]["id"],
                          "label": " ".join(str(item.get("label", "")).split())[:30]})
    if not edges:  # a diagram read in order: each node leads to the next
        edges = [{"from": a["id"], "to": b["id"], "label": ""} for a, b in pairwise(nodes)]
    return {"kind": "diagram", "layout": answer.get("layout", "flowchart"), "nodes": nodes, "edges": edges,
            "reveal": [n["id"] for n in nodes], "reactions": _reactions(answer)}, []


def _reactions(answer: Data) -> list[Data]:
    return [{"when": " ".join(str(r["when"]).split()), "say": " ".join(str(r["say"]).split())[:400]}
            for r in answer.get("reactions", [])[:4]
            if str(r.get("when", "")).strip() and str(r.get("say", "")).strip()]


def _name(text: str, taken: set[str]) -> str:
    """A formula name from what the model called it (``gap h`` → ``gap_h``), unique among ``taken``."""
    name = re.sub(r"[^A-Za-z0-9_]+", "_", text.strip()).strip("_")[:24]
    if not name[:1].isalpha():  # a formula name starts with a letter
        name = f"v{name}"[:24]
    found, number = name, 1
    while found in taken:
        number += 1
        found = f"{name}{number}"
    return found


def _label(text: Any, fallback: str) -> str:
    return " ".join(str(text or "").split())[:60] or fallback


def _unit(text: Any) -> str:
    return " ".join(str(text or "").split())[:12]


def _round(value: float) -> float:
    """A step or a middle a person would write: two significant digits."""
    return float(f"{value:.2g}")



async def write(generator: Drafting) -> None:
    """One widget on the lesson's points, appended to the generator's draft."""
    draft = generator.draft
    points = "; ".join(p for s in draft["_outline"] for p in s["points"])
    await generator.ask(STAGE, InteractiveAnswer, answer_schema(InteractiveAnswer), prompt(draft["title"], points),
                        lambda answer: build(generator.draft, answer))


async def again(generator: Drafting, index: int, context: str) -> None:
    """Interactive scene ``index`` of the draft made again; ``context`` follows the prompt."""
    draft = generator.draft
    old = draft["scenes"][index]
    points = "; ".join(p for s in draft["_outline"] for p in s["points"])
    await generator.ask(STAGE, InteractiveAnswer, answer_schema(InteractiveAnswer),
                        prompt(draft["title"], points) + context,
                        lambda answer: build(generator.draft, answer, index, old))
