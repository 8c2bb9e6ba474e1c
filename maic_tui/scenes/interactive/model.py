"""An interactive scene in a classroom file (its ``[scenes.widget]`` table) and the widget's state as the learner
and the agents change it. A simulation has variables (each with its range, default, step and unit), presets,
values computed from them and a plot over a range; a diagram has nodes, edges and the order they are revealed in.
Formulas are read by ``formulas.py``, never run as Python; ``problems`` names every bad field before the class
starts. A change (``change``) is the same for the learner's keys, a typed ``h = 0.1`` and an agent's widget
action: checked against the widget, it gives a new state or one line saying what is allowed."""

from __future__ import annotations

import math
import re
from collections.abc import Iterator, Mapping
from contextlib import suppress
from dataclasses import dataclass, field, replace
from typing import Annotated, ClassVar, Literal

from pydantic import Field, PrivateAttr

from maic_tui.actions import WIDGET_ACTIONS
from maic_tui.classroom.field_types import Identifier, Line
from maic_tui.classroom.lesson import Step
from maic_tui.formulas import NAN, RESERVED, Formula, FormulaError, number_text, parse
from maic_tui.i18n import ENGLISH, N_, _
from maic_tui.i18n.said import Said, said
from maic_tui.scenes.base import Found, SceneBase, SceneChangeError
from maic_tui.strict import Strict

Name = Annotated[str, Field(pattern=r"^[A-Za-z][A-Za-z0-9_]{0,31}$")]
Number = Annotated[float, Field(allow_inf_nan=False, ge=-1e12, le=1e12)]
Label = Annotated[Line, Field(max_length=60)]
Unit = Annotated[str, Field(max_length=12)]
# read by ``formulas.parse``: a bad one is a problem naming its field
FormulaText = Annotated[str, Field(min_length=1, max_length=100_000)]


class Variable(Strict):
    name: Name
    label: Label
    min: Number
    max: Number
    default: Number
    step: Annotated[Number, Field(gt=0)]
    unit: Unit = ""


class Preset(Strict):
    name: Name
    label: Label
    values: dict[str, Number] = Field(min_length=1, max_length=8)


class Computed(Strict):
    name: Name
    label: Label
    formula: FormulaText
    unit: Unit = ""


class Curve(Strict):
    label: Label
    formula: FormulaText


class Plot(Strict):
    title: Annotated[str, Field(max_length=60)] = ""
    over: Name = "t"  # the plot's own variable, running over ``range``
    range: tuple[Number, Number]
    points: Annotated[int, Field(ge=2, le=400)] = 200
    curves: list[Curve] = Field(min_length=1, max_length=4)


class Reaction(Strict):
    """Demo material: what the offline demo's teacher says to a change, when ``when`` (a formula over the widget's
    names; a diagram's is ``revealed``, the nodes revealed) holds. The first that holds is said."""

    when: FormulaText
    say: Annotated[Line, Field(max_length=400)]


class Simulation(Strict):
    kind: Literal["simulation"]
    variables: list[Variable] = Field(min_length=1, max_length=8)
    presets: list[Preset] = Field(default_factory=list, max_length=8)
    computed: list[Computed] = Field(default_factory=list, max_length=8)
    plot: Plot | None = None
    reactions: list[Reaction] = Field(default_factory=list, max_length=12)


class Node(Strict):
    id: Identifier
    label: Label


class Edge(Strict):
    source: Identifier = Field(alias="from")
    to: Identifier
    label: Annotated[str, Field(max_length=30)] = ""


class Diagram(Strict):
    kind: Literal["diagram"]
    layout: Literal["flowchart", "mindmap", "hierarchy"] = "flowchart"
    nodes: list[Node] = Field(min_length=1, max_length=24)
    edges: list[Edge] = Field(default_factory=list, max_length=48)
    reveal: list[Identifier] = Field(default_factory=list, max_length=24)  # nodes hidden until revealed, in order
    reactions: list[Reaction] = Field(default_factory=list, max_length=12)


Widget = Annotated[Simulation | Diagram, Field(discriminator="kind")]


class WidgetProblem(SceneChangeError):
    """A change the widget cannot take (an unknown name, a value out of range): one line saying what is allowed."""


@dataclass(frozen=True)
class WidgetState:
    """What the widget shows now: each variable's value, the nodes revealed, what is highlighted and annotated."""

    values: Mapping[str, float] = field(default_factory=dict)
    revealed: frozenset[str] = frozenset()
    highlight: str | None = None
    notes: Mapping[str, str] = field(default_factory=dict)  # target: annotation
    last: str = ""  # the last change, in words for the class's model ("the learner set h to 0.1")
    # the same in the interface's language for the transcript, its doer left as ``{who}`` (the room names them)
    told: str = ""


Verb = Literal["set", "preset", "reveal", "highlight", "annotate"]


class InteractiveScene(SceneBase):
    type: Literal["interactive"]
    widget: Widget
    enables: ClassVar[frozenset[str]] = frozenset(WIDGET_ACTIONS)
    _formulas: dict[str, Formula] | None = PrivateAttr(default=None)
    _points: dict[int, tuple[tuple[float, ...], list[float], list[float]]] = PrivateAttr(default_factory=dict)

    # --- checks -----------------------------------------------------------------------------------------

    def problems(self) -> Iterator[Found]:
        widget = self.widget
        if isinstance(widget, Diagram):
            yield from _diagram_problems(widget)
            yield from self._reaction_problems(frozenset({"revealed"}))
            return
        names: dict[str, str] = {}
        for i, variable in enumerate(widget.variables):
            where = f"widget.variables[{i}]"
            yield from _name_problems(variable.name, f"{where}.name", names)
            names[variable.name] = where
            if not variable.min < variable.max:
                yield f"{where}.max", said(N_("max ({max}) must be more than min ({min})"), max=f"{variable.max:g}",
                                           min=f"{variable.min:g}")
            elif not variable.min <= variable.default <= variable.max:
                yield f"{where}.default", _outside(variable.default, variable)
            elif variable.step > variable.max - variable.min:
                yield f"{where}.step", said(N_("step {step} is more than the whole range {range}"),
                                            step=f"{variable.step:g}", range=range_text(variable))
        by_name = {v.name: v for v in widget.variables}
        for i, preset in enumerate(widget.presets):
            for name, value in preset.values.items():
                known = by_name.get(name)
                if known is None:
                    yield f"widget.presets[{i}].values.{name}", said(N_("{target} is not a variable ({known})"),
                                                                     target=repr(name), known=", ".join(by_name))
                elif not known.min <= value <= known.max:
                    yield f"widget.presets[{i}].values.{name}", _outside(value, known)
        for i, computed in enumerate(widget.computed):
            where = f"widget.computed[{i}]"
            yield from _name_problems(computed.name, f"{where}.name", names)
            yield from _formula_problem(computed.formula, frozenset(names), f"{where}.formula")
            names[computed.name] = where  # a value may use those before it, never itself or a later one
        if widget.plot is not None:
            plot = widget.plot
            yield from _name_problems(plot.over, "widget.plot.over", names)
            if not plot.range[0] < plot.range[1]:
                yield "widget.plot.range", said(N_("the range must go up: {low} to {high}"), low=f"{plot.range[0]:g}",
                                                high=f"{plot.range[1]:g}")
            for i, curve in enumerate(plot.curves):
                yield from _formula_problem(curve.formula, frozenset(names) | {plot.over},
                                            f"widget.plot.curves[{i}].formula")
        yield from self._reaction_problems(frozenset(names))

    def _reaction_problems(self, names: frozenset[str]) -> Iterator[Found]:
        for i, reaction in enumerate(self.widget.reactions):
            yield from _formula_problem(reaction.when, names, f"widget.reactions[{i}].when")

    def unscripted(self, number: int, language: str = ENGLISH) -> list[Step]:
        """Without a script the teacher presents the widget through the model, as a slide."""
        return [Step(number, 0, "present")]

    # --- state ------------------------------------------------------------------------------------------

    def initial(self) -> WidgetState:
        widget = self.widget
        if isinstance(widget, Simulation):
            return WidgetState(values={v.name: v.default for v in widget.variables})
        return WidgetState()

    def targets(self) -> list[str]:
        """What a change or an action may name: the variables, presets and values, or the nodes."""
        widget = self.widget
        if isinstance(widget, Diagram):
            return [node.id for node in widget.nodes]
        return ([v.name for v in widget.variables] + [p.name for p in widget.presets]
                + [c.name for c in widget.computed])

    def hidden(self, state: WidgetState) -> list[str]:
        """The diagram's nodes still to be revealed, in their order."""
        return [node for node in getattr(self.widget, "reveal", []) if node not in state.revealed]

    def change(self, state: WidgetState, verb: str, target: str, value: float | str | None = None,
               by: str = "the learner") -> WidgetState:
        """The state after ``verb`` on ``target``; raises WidgetProblem (one line) when the widget cannot take it."""
        widget = self.widget
        target = str(target)[:40]
        if verb == "highlight":
            if target not in self.targets():
                raise WidgetProblem.said(N_("{target} is not part of this widget ({known})"), target=repr(target),
                                         known=", ".join(self.targets()))
            return replace(state, highlight=target, last=f"{by} highlighted {target}",
                           told=_told(_("{who} highlighted {target}"), target=target))
        if verb == "annotate":
            if target not in self.targets():
                raise WidgetProblem.said(N_("{target} is not part of this widget ({known})"), target=repr(target),
                                         known=", ".join(self.targets()))
            note = " ".join(str(value or "").split())[:120]
            return replace(state, notes={**state.notes, target: note}, last=f"{by} noted on {target}: {note}",
                           told=_told(_("{who} noted on {target}: {note}"), target=target, note=note))
        if isinstance(widget, Diagram):
            if verb != "reveal":
                raise WidgetProblem.said(N_("a diagram has nodes to reveal, nothing to {verb}"), verb=verb)
            hidden = self.hidden(state)
            if not target:
                if not hidden:
                    raise WidgetProblem.said(N_("every node is revealed already"))
                target = hidden[0]
            elif target not in {node.id for node in widget.nodes}:
                raise WidgetProblem.said(N_("{target} is not a node ({known})"), target=repr(target),
                                         known=", ".join(n.id for n in widget.nodes))
            label = next(n.label for n in widget.nodes if n.id == target)
            return replace(state, revealed=state.revealed | {target}, last=f"{by} revealed {label}",
                           told=_told(_("{who} revealed {label}"), label=label))
        if verb == "reveal":
            raise WidgetProblem.said(N_("a simulation has nothing to reveal: change a variable or pick a preset"))
        if verb == "preset":
            preset = next((p for p in widget.presets if target in (p.name, p.label)), None)
            if preset is None:
                if not widget.presets:
                    raise WidgetProblem.said(N_("{target} is not a preset (this simulation has none)"),
                                             target=repr(target))
                raise WidgetProblem.said(N_("{target} is not a preset ({known})"), target=repr(target),
                                         known=", ".join(p.name for p in widget.presets))
            return replace(state, values={**state.values, **preset.values},
                           last=f"{by} picked the preset {preset.label}",
                           told=_told(_("{who} picked the preset {label}"), label=preset.label))
        variable = self.variable(target)
        if variable is None:
            raise WidgetProblem.said(N_("{target} is not a variable ({known})"), target=repr(target),
                                     known=", ".join(v.name for v in widget.variables))
        number = _number(value)
        if number is None or not variable.min <= number <= variable.max:
            shown = number_text(number) if number is not None else repr(str(value)[:20])
            raise WidgetProblem.said(N_("{name} = {value} is outside its range {low} to {high}{unit} (step {step})"),
                                     name=variable.name, value=shown, low=f"{variable.min:g}",
                                     high=f"{variable.max:g}", unit=unit_text(variable), step=f"{variable.step:g}")
        value_text = f"{number_text(number)}{unit_text(variable)}"
        said = f"{by} set {variable.label} ({variable.name}) to {value_text}"
        told = _told(_("{who} set {label} ({name}) to {value}"), label=variable.label, name=variable.name,
                     value=value_text)
        return replace(state, values={**state.values, variable.name: number}, last=said, told=told)

    def variable(self, name: str) -> Variable | None:
        """A variable by its name or its label (case and spacing ignored for the label)."""
        variables = getattr(self.widget, "variables", [])
        folded = " ".join(name.split()).casefold()
        return next((v for v in variables if v.name == name), None) or \
            next((v for v in variables if v.label.casefold() == folded or v.name.casefold() == folded), None)

    def stepped(self, state: WidgetState, name: str, steps: int) -> float:
        """The value of ``name`` moved by ``steps`` steps, kept in its range."""
        variable = self.variable(name)
        assert variable is not None
        value = state.values.get(variable.name, variable.default) + steps * variable.step
        return round(min(variable.max, max(variable.min, value)), 10)

    # --- what is computed ---------------------------------------------------------------------------------

    def formulas(self) -> dict[str, Formula]:
        """Every formula read once (the file was checked: a formula that still fails is left out)."""
        if self._formulas is None:
            read: dict[str, Formula] = {}
            widget = self.widget
            parts: list[tuple[str, str]] = []
            if isinstance(widget, Simulation):
                parts = [(c.name, c.formula) for c in widget.computed]
                if widget.plot is not None:
                    parts += [(f"curve{i}", c.formula) for i, c in enumerate(widget.plot.curves)]
            parts += [(f"when{i}", r.when) for i, r in enumerate(widget.reactions)]
            for key, text in parts:
                with suppress(FormulaError):
                    read[key] = parse(text)
            self._formulas = read
        return self._formulas

    def values(self, state: WidgetState) -> dict[str, float]:
        """The variables and every computed value, in order (NaN: undefined here)."""
        widget = self.widget
        if not isinstance(widget, Simulation):
            return {}
        values = dict(state.values)
        formulas = self.formulas()
        for computed in widget.computed:
            formula = formulas.get(computed.name)
            values[computed.name] = formula(values) if formula is not None else NAN
        return values

    def curves(self, state: WidgetState) -> list[tuple[str, list[float], list[float]]]:
        """Each curve of the plot as x and y lists (points where it is undefined left out)."""
        widget = self.widget
        if not isinstance(widget, Simulation) or widget.plot is None:
            return []
        plot, values, formulas = widget.plot, self.values(state), self.formulas()
        low, high = plot.range
        xs = [low + (high - low) * k / (plot.points - 1) for k in range(plot.points)]
        out = []
        names = dict(values)  # one mapping, its ``over`` moved along the range (a copy per point cost half the time)
        over, isfinite = plot.over, math.isfinite
        for i, curve in enumerate(plot.curves):
            formula = formulas.get(f"curve{i}")
            inputs = tuple(values.get(name, NAN) for name in sorted(formula.names - {over})) if formula else ()
            if (kept := self._points.get(i)) is not None and kept[0] == inputs:  # f(t) = t^2 while h moves
                out.append((curve.label, kept[1], kept[2]))
                continue
            shown_x, shown_y = [], []
            run = formula.run if formula is not None else None
            for x in xs:
                names[over] = x
                y = run(names) if run is not None else NAN
                if isfinite(y):
                    shown_x.append(x)
                    shown_y.append(y)
            self._points[i] = (inputs, shown_x, shown_y)
            out.append((curve.label, shown_x, shown_y))
        return out

    # --- typed changes, the demo's reactions ----------------------------------------

    def typed(self, text: str) -> tuple[str, str, float | str | None] | None:
        """A message that works the widget (``h = 0.1``, ``gap h to 0.1``, ``preset far``, ``reveal``), as a change
        to check; None when the message is something else, for the class."""
        if len(text) > 80:
            return None
        words = " ".join(text.split()).rstrip(".!")
        if isinstance(self.widget, Diagram):
            match = _REVEAL.fullmatch(words)
            return ("reveal", match.group("node") or "", None) if match else None
        match = _PRESET.fullmatch(words)
        if match and self.widget.presets:
            return "preset", match.group("name"), None
        match = _SET.fullmatch(words)
        if match is None:
            return None
        name = match.group("name")
        if self.variable(name) is None and (not _NAMEISH.fullmatch(name) or match.group("sep").casefold() == "to"):
            return None  # "1 + 1 = 2", "why does it get close to 2" are said to the class
        variable = self.variable(name)
        return "set", variable.name if variable else name, match.group("value")

    def reaction(self, state: WidgetState) -> str | None:
        """The demo material's line for the state now: the first reaction whose ``when`` holds."""
        names = {**self.values(state), "revealed": float(len(state.revealed))}
        formulas = self.formulas()
        for i, reaction in enumerate(self.widget.reactions):
            formula = formulas.get(f"when{i}")
            if formula is not None and formula(names) == 1.0:
                return reaction.say
        return None


_SET = re.compile(r"(?:set\s+)?(?P<name>[^=:]{1,40}?)\s*(?P<sep>=|:|\bto\b)\s*"
                  r"(?P<value>[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?)\s*[A-Za-z%°/]{0,12}", re.IGNORECASE)
_PRESET = re.compile(r"(?:preset|pick|use)\s+(?P<name>.{1,40})", re.IGNORECASE)
_REVEAL = re.compile(r"(?:reveal|next|show)(?:\s+(?:next|the next))?(?:\s+(?P<node>[A-Za-z0-9][\w.-]{0,39}))?",
                     re.IGNORECASE)
_NAMEISH = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,31}")  # one word: "q = 3" is a change refused, "why ... to 2" is not


def _told(message: str, **fields: str) -> str:
    """A change in the interface's words, its doer kept as ``{who}`` for the room to name."""
    return message.format(who="{who}", **fields)


def range_text(variable: Variable) -> Said:
    return said(N_("{low} to {high}{unit} (step {step})"), low=f"{variable.min:g}", high=f"{variable.max:g}",
                unit=unit_text(variable), step=f"{variable.step:g}")


def _outside(value: float, variable: Variable) -> Said:
    return said(N_("{value} is outside {range}"), value=f"{value:g}", range=range_text(variable))


def unit_text(variable: Variable | Computed) -> str:
    return f" {variable.unit}" if variable.unit else ""


def _number(value: float | str | None) -> float | None:
    try:
        number = float(value) if value is not None and not isinstance(value, bool) else None
    except (TypeError, ValueError):
        return None
    return number if number is not None and math.isfinite(number) else None


def _name_problems(name: str, where: str, taken: dict[str, str]) -> Iterator[Found]:
    if name in RESERVED:
        yield where, said(N_("{name} is the name of a function or constant of formulas"), name=repr(name))
    elif name in taken:
        yield where, said(N_("the name {name} is taken (by {place})"), name=repr(name), place=taken[name])


def _formula_problem(text: str, known: frozenset[str], where: str) -> Iterator[Found]:
    try:
        parse(text, known)
    except FormulaError as exc:
        yield where, Said(str(exc), exc.shown)


def _diagram_problems(diagram: Diagram) -> Iterator[Found]:
    ids: set[str] = set()
    for i, node in enumerate(diagram.nodes):
        if node.id in ids:
            yield f"widget.nodes[{i}].id", said(N_("duplicate node id {id}"), id=repr(node.id))
        ids.add(node.id)
    known = ", ".join(node.id for node in diagram.nodes)
    for i, edge in enumerate(diagram.edges):
        for end, name in (("from", edge.source), ("to", edge.to)):
            if name not in ids:
                yield f"widget.edges[{i}].{end}", said(N_("{target} is not a node ({known})"), target=repr(name),
                                                       known=known)
    seen: set[str] = set()
    for i, name in enumerate(diagram.reveal):
        if name not in ids:
            yield f"widget.reveal[{i}]", said(N_("{target} is not a node ({known})"), target=repr(name), known=known)
        elif name in seen:
            yield f"widget.reveal[{i}]", said(N_("{name} is revealed twice"), name=repr(name))
        seen.add(name)
