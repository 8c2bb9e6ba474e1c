"""Interactive scenes (issue 51): the widget table loads, its checks name each bad field, the state changes as
the learner and agents change it, and the pane draws it within its width."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from maic_tui.classroom import load_classroom
from maic_tui.scenes.base import SceneChangeError
from maic_tui.scenes.interactive.model import InteractiveScene
from maic_tui.scenes.live_state import SceneChange, SceneStates
from maic_tui.whiteboard.render import render_slide
from maic_tui.whiteboard.render.board_drawing import BoardPalette
from tests.test_classroom import MINIMAL, validate

PALETTE = BoardPalette("#000000", "#ffffff", "#444444", True)
SIMULATION = """
[[scenes]]
id = "sim"
title = "Secant"
type = "interactive"
[scenes.widget]
kind = "simulation"
variables = [
  { name = "h", label = "gap h", min = 0.01, max = 2, default = 1, step = 0.05 },
  { name = "x", label = "point x", min = -2, max = 2, default = 1, step = 0.25 },
]
presets = [{ name = "close", label = "very close", values = { h = 0.01 } }]
computed = [{ name = "slope", label = "secant slope", formula = "((x + h)^2 - x^2) / h" }]
[scenes.widget.plot]
range = [-2, 2]
curves = [{ label = "f", formula = "t^2" }, { label = "secant", formula = "x^2 + slope * (t - x)" }]
"""
DIAGRAM = """
[[scenes]]
id = "cycle"
title = "Cycle"
type = "interactive"
[scenes.widget]
kind = "diagram"
layout = "LAYOUT"
nodes = [{ id = "a", label = "Evaporation" }, { id = "b", label = "Condensation" }, { id = "c", label = "Rain" }]
edges = [{ from = "a", to = "b" }, { from = "b", to = "c" }]
reveal = ["b", "c"]
"""


def scene_of(tmp_path: Path, text: str) -> InteractiveScene:
    path = tmp_path / "class.toml"
    path.write_text(MINIMAL + text, encoding="utf-8")
    scene = load_classroom(path).scenes[0]
    assert isinstance(scene, InteractiveScene)
    return scene


def test_the_samples_have_a_simulation_and_a_diagram() -> None:
    secant = next(s for s in load_classroom("derivatives").scenes if s.id == "secant")
    stages = next(s for s in load_classroom("water-cycle").scenes if s.id == "stages")
    assert isinstance(secant, InteractiveScene) and secant.widget.kind == "simulation"
    assert isinstance(stages, InteractiveScene) and stages.widget.kind == "diagram"
    values = secant.values(secant.initial())
    assert values["slope"] == pytest.approx(3.0) and values["tangent"] == pytest.approx(2.0)


def test_a_change_is_checked_against_the_widget(tmp_path: Path) -> None:
    scene = scene_of(tmp_path, SIMULATION)
    states = SceneStates()
    state = states.change(scene, [SceneChange("set", "h", 0.1)])
    assert scene.values(state)["slope"] == pytest.approx(2.1)
    assert "gap h (h) to 0.1" in state.last
    for change, said in [(SceneChange("set", "h", 5), "h = 5 is outside its range 0.01 to 2 (step 0.05)"),
                         (SceneChange("set", "q", 1), "'q' is not a variable (h, x)"),
                         (SceneChange("set", "h", "nan"), "outside its range"),
                         (SceneChange("preset", "far"), "'far' is not a preset (close)"),
                         (SceneChange("reveal", ""), "a simulation has nothing to reveal")]:
        with pytest.raises(SceneChangeError, match=said.replace("(", r"\(").replace(")", r"\)")):
            states.change(scene, [change])
    assert states.of(scene).values["h"] == 0.1  # nothing changed
    state = states.change(scene, [SceneChange("preset", "very close")])
    assert state.values["h"] == 0.01
    assert scene.stepped(state, "h", -3) == 0.01 and scene.stepped(state, "x", 1) == 1.25


def test_typed_changes_are_read_by_name_or_label(tmp_path: Path) -> None:
    scene = scene_of(tmp_path, SIMULATION)
    assert scene.typed("h = 0.1") == ("set", "h", "0.1")
    assert scene.typed("Gap H to .5") == ("set", "h", ".5")
    assert scene.typed("set x: -1") == ("set", "x", "-1")
    assert scene.typed("q = 3") == ("set", "q", "3")  # a name it does not know: checked, then refused
    assert scene.typed("preset close") == ("preset", "close", None)
    assert scene.typed("1 + 1 = 2") is None and scene.typed("why is the slope 2?") is None
    assert scene.typed("why does the slope get close to 2?") is None and scene.typed("slope = 2?") is None


def test_a_diagram_reveals_its_nodes_in_order(tmp_path: Path) -> None:
    scene = scene_of(tmp_path, DIAGRAM.replace("LAYOUT", "flowchart"))
    states = SceneStates()
    assert scene.hidden(states.of(scene)) == ["b", "c"]
    assert scene.typed("reveal") == ("reveal", "", None) and scene.typed("h = 1") is None
    state = states.change(scene, [SceneChange("reveal", "")])
    assert scene.hidden(state) == ["c"] and state.last == "the learner revealed Condensation"
    states.change(scene, [SceneChange("reveal", "")])
    with pytest.raises(SceneChangeError, match="every node is revealed already"):
        states.change(scene, [SceneChange("reveal", "")])
    with pytest.raises(SceneChangeError, match="'z' is not a node"):
        states.change(scene, [SceneChange("reveal", "z")])


@pytest.mark.parametrize("layout", ["flowchart", "mindmap", "hierarchy"])
def test_a_diagram_is_drawn_as_text_with_hidden_nodes_blank(tmp_path: Path, layout: str) -> None:
    scene = scene_of(tmp_path, DIAGRAM.replace("LAYOUT", layout))
    lines = [line.plain for line in render_slide(scene, 30, 22, PALETTE, None, scene.initial())]
    text = "\n".join(lines)
    assert "Evaporation" in text and "Condensation" not in text and "2 to reveal" in text
    assert all(len(line) <= 30 for line in lines)


@pytest.mark.parametrize(("cols", "rows"), [(34, 20), (60, 40)])
def test_a_simulation_shows_its_values_and_plot_within_the_pane(tmp_path: Path, cols: int, rows: int) -> None:
    scene = scene_of(tmp_path, SIMULATION)
    state = SceneStates().change(scene, [SceneChange("set", "h", 0.5)])
    lines = render_slide(scene, cols, rows, PALETTE, None, state)
    text = "\n".join(line.plain for line in lines)
    assert len(lines) <= rows and all(line.cell_len <= cols for line in lines)
    assert "secant slope = 2.5" in text and "gap h" in text
    assert any("⠀" < ch <= "⣿" for ch in text)  # the curves, in braille dots
    assert "── f" in text and "── secant" in text


VARIABLE = '{{ name = "{}", label = "h", min = {}, max = {}, default = {}, step = {} }}'
BAD = [
    (VARIABLE.format("h", "2", "1", "1", "0.1"), "variables[0].max: max (1) must be more than min (2)"),
    (VARIABLE.format("h", "0", "1", "3", "0.1"), "variables[0].default: 3 is outside 0 to 1"),
    (VARIABLE.format("h", "0", "1", "1", "0"), "variables[0].step: must be greater than 0"),
    (VARIABLE.format("sin", "0", "1", "1", "0.1"), "'sin' is the name of a function"),
    (VARIABLE.format("h", "0", "1e300", "1", "0.1"), "variables[0].max: must be less"),
    (VARIABLE.format("h", "0", "nan", "1", "0.1"), "variables[0].max: "),
    (VARIABLE.format("__import__", "0", "1", "1", "0.1"), "variables[0].name"),
]


@pytest.mark.parametrize(("variable", "said"), BAD)
def test_a_bad_variable_is_one_line_naming_its_field(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                     variable: str, said: str) -> None:
    text = SIMULATION.replace('{ name = "h", label = "gap h", min = 0.01, max = 2, default = 1, step = 0.05 },',
                              variable + ",").replace("values = { h = 0.01 }", "values = { x = 0 }")
    code, lines = validate(tmp_path, MINIMAL + text, capsys)
    assert code != 0 and any(said in line and "scenes[0].widget." in line for line in lines), lines


HOSTILE_FORMULAS = [
    ('__import__("os").system("id")', "unexpected"),
    ("(" * 100 + "h" + ")" * 100, "nested more than 24 deep"),
    ("h" + "+h" * 1500, "characters: a formula has at most 400"),
    ("10^" * 50 + "2", "nested more than"),
    ("h.__class__", "unexpected '.'"),
    ("q * 2", "unknown name 'q'"),
    ("slope + 1", "unknown name 'slope'"),  # a value may not use itself
    ("open(1)", "unknown function 'open'"),
    ("h; import os", "unexpected ';'"),
]


@pytest.mark.parametrize(("formula", "said"), HOSTILE_FORMULAS)
def test_a_hostile_formula_is_one_line_and_never_run(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                     formula: str, said: str) -> None:
    quoted = formula.replace("\\", "\\\\").replace('"', '\\"').replace("\x1b", "\\u001b")
    text = SIMULATION.replace('formula = "((x + h)^2 - x^2) / h"', f'formula = "{quoted}"')
    code, lines = validate(tmp_path, MINIMAL + text, capsys)
    assert code != 0 and any("scenes[0].widget.computed[0].formula" in line and said in line for line in lines), lines
    assert all("\x1b" not in line and len(line) < 400 for line in lines)


def test_escape_sequences_in_labels_never_reach_the_pane(tmp_path: Path) -> None:
    scene = scene_of(tmp_path, SIMULATION.replace('label = "gap h"', 'label = "gap \\u001b[2J\\u001b]0;x\\u0007h"'))
    text = "\n".join(line.plain for line in render_slide(scene, 40, 30, PALETTE, None, scene.initial()))
    assert "\x1b" not in text and "\x07" not in text and "gap h" in text


def test_results_that_are_no_number_show_as_undefined(tmp_path: Path) -> None:
    scene = scene_of(tmp_path, SIMULATION.replace("((x + h)^2 - x^2) / h", "sqrt(x - 5) + 10^999 / (h - h)"))
    values = scene.values(scene.initial())
    assert math.isnan(values["slope"])
    text = "\n".join(line.plain for line in render_slide(scene, 40, 30, PALETTE, None, scene.initial()))
    assert "secant slope = undefined" in text


def test_diagram_checks_name_real_nodes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = DIAGRAM.replace("LAYOUT", "mindmap").replace('reveal = ["b", "c"]', 'reveal = ["b", "zz", "b"]')
    text = text.replace('{ from = "b", to = "c" }', '{ from = "b", to = "nope" }')
    code, lines = validate(tmp_path, MINIMAL + text, capsys)
    assert code != 0
    joined = "\n".join(lines)
    assert "scenes[0].widget.edges[1].to: 'nope' is not a node (a, b, c)" in joined
    assert "scenes[0].widget.reveal[1]: 'zz' is not a node" in joined
    assert "scenes[0].widget.reveal[2]: 'b' is revealed twice" in joined


def test_a_curve_whose_inputs_did_not_change_is_not_worked_out_again() -> None:
    secant = next(s for s in load_classroom("derivatives").scenes if s.id == "secant")
    assert isinstance(secant, InteractiveScene)
    states = SceneStates()
    before = {label: (xs, ys) for label, xs, ys in secant.curves(secant.initial())}
    after = {label: (xs, ys) for label, xs, ys in secant.curves(states.change(secant, [SceneChange("set", "h", 0.1)]))}
    assert after["f"][1] is before["f"][1] and after["tangent"][1] is before["tangent"][1]  # t^2 and 2x(t-x)+x^2
    assert after["secant"][1] is not before["secant"][1]
    slope = (1.1**2 - 1) / 0.1  # the secant through x = 1 and x + h = 1.1
    assert after["secant"][1][-1] == pytest.approx(1 + slope * (after["secant"][0][-1] - 1))


def test_a_plot_drawn_after_changes_is_the_plot_drawn_afresh(tmp_path: Path) -> None:
    """What is kept between redraws (the curves and their dots whose inputs did not change) never shows a stale
    curve: h and x moved one after the other draw the same pane as a scene read anew."""
    worked = scene_of(tmp_path, SIMULATION)
    states = SceneStates()
    for change in [("h", 0.5), ("x", 1.5), ("h", 0.25), ("x", 0.5), ("h", 0.75)]:
        state = states.change(worked, [SceneChange("set", *change)])
        drawn = [line.plain for line in render_slide(worked, 70, 30, PALETTE, None, state)]
        afresh = scene_of(tmp_path, SIMULATION)
        assert drawn == [line.plain for line in render_slide(afresh, 70, 30, PALETTE, None, state)]
