"""``maic-tui new --interactive`` and ``regen`` of an interactive scene (issue 51), with the script model: the
stage's answer is built by code (names, ranges, ids, reveal order), checked with the classroom (a formula that cannot
be read is sent back for a repair), placed before the quiz, and the lesson plays it offline."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from maic_tui.classroom import load_classroom
from maic_tui.cli import main
from maic_tui.scenes.interactive.model import InteractiveScene
from tests.test_generation import script

SIMULATION: dict[str, Any] = {
    "kind": "simulation", "title": "Change the slope", "pause": "Make the line steeper: what happens to y?",
    "variables": [{"name": "m", "label": "slope m", "min": 3, "max": -3, "default": 9, "step": 0, "unit": ""},
                  {"name": "pi", "label": "start", "min": 0, "max": 5, "default": 1, "step": 1, "unit": "m"}],
    "computed": [{"name": "rise", "label": "rise over 2", "formula": "m * 2"}],
    "curve": "m * t + pi", "stages": []}
DIAGRAM: dict[str, Any] = {"kind": "diagram", "title": "From ramp to road", "pause": "Reveal each step.",
                           "stages": ["Measure the rise", "Measure the run", "Divide"], "variables": [],
                           "computed": [], "curve": ""}


def test_an_interactive_lesson_is_generated_repaired_and_plays(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    bad = {**SIMULATION, "computed": [{"name": "rise", "label": "rise", "formula": "__import__('os')"}]}
    out = tmp_path / "slopes.toml"
    assert main(["new", "slopes", "--interactive", "--model", script(tmp_path, interactive=[bad, SIMULATION]),
                 "-o", str(out)]) == 0
    err = capsys.readouterr().err
    assert "interactive: repair 1: " in err and "formula" in err  # the bad formula went back to the model
    room = load_classroom(out)
    assert [s.type for s in room.scenes][-2:] == ["interactive", "quiz"]  # tried before the test
    widget = room.scenes[-2]
    assert isinstance(widget, InteractiveScene) and widget.widget.kind == "simulation"
    m, start = widget.widget.variables
    assert (m.name, m.min, m.max, m.default) == ("m", -3, 3, 3) and m.step > 0  # code put its range right
    assert start.name != "pi"  # a constant's name is not a variable's
    assert widget.widget.plot is not None and start.name in widget.widget.plot.curves[0].formula
    steps = [step for s in room.scenes for step in s.script]
    waits = sum(step.kind in ("pause", "discussion") for step in steps)
    says = [*["go on"] * (waits - 1), "m = 2", "go on", "b", "rise over run"]
    assert main(["run", str(out), "--lesson", *[arg for said in says for arg in ("--say", said)]]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["data"]["target"] for r in records if r["type"] == "interaction"] == ["m"]


def test_a_diagram_is_built_with_its_reveal_order_and_regen_makes_it_again(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "slopes.toml"
    assert main(["new", "slopes", "--interactive", "--model", script(tmp_path, interactive=[DIAGRAM]),
                 "-o", str(out)]) == 0
    widget = next(s for s in load_classroom(out).scenes if isinstance(s, InteractiveScene))
    assert [n.label for n in widget.widget.nodes] == DIAGRAM["stages"]  # type: ignore[union-attr]
    assert widget.widget.reveal == [n.id for n in widget.widget.nodes][1:]  # type: ignore[union-attr]
    capsys.readouterr()
    again = {**DIAGRAM, "stages": ["Rise", "Run", "Ratio", "Road sign"]}
    spec = script(tmp_path, interactive=[again])
    assert main(["regen", str(out), widget.id, "--model", spec]) == 0, capsys.readouterr().err
    remade = next(s for s in load_classroom(out).scenes if isinstance(s, InteractiveScene))
    assert [n.label for n in remade.widget.nodes] == again["stages"]  # type: ignore[union-attr]
    assert remade.id == widget.id
