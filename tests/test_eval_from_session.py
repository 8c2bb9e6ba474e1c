"""A recorded turn kept as a scenario (`eval --from-session`): it starts where the session was, expects the decisions
taken, passes on the same model, fails once a decision is edited into another; and the decision-level expectations
(`decision`, `not_end_after_question`) on their own."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

from maic_tui.cli import main
from maic_tui.evaluation.scenario import load_scenario
from tests.engine_helpers import pick, text

SAID = ("What is a derivative?", "Can you show me on the board?", "why?", "I don't get it")


def _recorded(tmp_path: Path, capsys: pytest.CaptureFixture[str], classroom: str = "derivatives") -> str:
    says = [arg for message in SAID for arg in ("--say", message)]
    assert main(["run", classroom, *says, "--pace", "0", "--data-dir", str(tmp_path)]) == 0
    capsys.readouterr()
    assert main(["sessions", "--data-dir", str(tmp_path)]) == 0
    return capsys.readouterr().out.splitlines()[1].split()[0]


def _eval(capsys: pytest.CaptureFixture[str], scenario: Path, tmp_path: Path) -> tuple[int, dict[str, object]]:
    report = tmp_path / "report.json"
    code = main(["eval", str(scenario), "--report", str(report)])
    capsys.readouterr()
    return code, json.loads(report.read_text(encoding="utf-8"))


def test_every_turn_of_a_demo_session_becomes_a_scenario_that_passes(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    session = _recorded(tmp_path, capsys)
    for turn in range(1, len(SAID) + 1):
        scenario = tmp_path / f"turn{turn}.toml"
        assert main(["eval", "--from-session", session[:15], "--turn", str(turn), "-o", str(scenario),
                     "--data-dir", str(tmp_path)]) == 0
        assert f"maic-tui eval {scenario}" in capsys.readouterr().out
        _, loaded = load_scenario(str(scenario))
        assert loaded.classroom == "derivatives" and loaded.model == "demo" and loaded.turns[0].say == SAID[turn - 1]
        assert [s.who for s in loaded.history if s.who == "learner"] == ["learner"] * (turn - 1)
        assert loaded.turns[0].expect.decision  # each decision the director took
        code, report = _eval(capsys, scenario, tmp_path)
        assert code == 0, report


def test_a_decision_edited_into_another_fails_and_says_what_was_decided(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    session = _recorded(tmp_path, capsys)
    scenario = tmp_path / "t1.toml"
    assert main(["eval", "--from-session", session, "--turn", "1", "-o", str(scenario),
                 "--data-dir", str(tmp_path)]) == 0
    data = tomllib.loads(scenario.read_text(encoding="utf-8"))
    decided = data["turns"][0]["expect"]["decision"]["1"]
    assert decided == ["reyes"]  # a clear question: the teacher, by the rule
    scenario.write_text(scenario.read_text(encoding="utf-8").replace('1 = ["reyes"]', '1 = ["theo", "juno"]'),
                        encoding="utf-8")
    code, report = _eval(capsys, scenario, tmp_path)
    failed = [e for s in report["scenarios"] for e in s["expectations"] if not e["ok"]]  # type: ignore[index]
    assert code == 1 and [e["expectation"] for e in failed] == ["decision1 in theo/juno"]
    assert failed[0]["seen"] == ["decision 1: reyes"]


def test_a_changed_classroom_is_kept_beside_the_scenario(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sample = Path(__file__).parents[1] / "maic_tui" / "data" / "sample_classrooms" / "derivatives.toml"
    room = tmp_path / "mine.toml"
    room.write_text(sample.read_text(encoding="utf-8").replace("Prof. Ada Reyes", "Prof. Ada Reyes-Ortiz"),
                    encoding="utf-8")
    session = _recorded(tmp_path, capsys, str(room))
    out = tmp_path / "kept" / "case.toml"
    out.parent.mkdir()
    assert main(["eval", "--from-session", session, "--turn", "2", "-o", str(out), "--data-dir", str(tmp_path)]) == 0
    copy = out.with_name("case.classroom.toml")
    assert "Reyes-Ortiz" in copy.read_text(encoding="utf-8")
    assert load_scenario(str(out))[1].classroom == "case.classroom.toml"
    assert _eval(capsys, out, tmp_path)[0] == 0


def test_from_session_needs_its_three_flags(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", "--from-session", "x", "--turn", "1"]) == 2
    assert "--from-session ID --turn N -o FILE" in capsys.readouterr().err
    session = _recorded(tmp_path, capsys)
    assert main(["eval", "--from-session", session, "--turn", "9", "-o", str(tmp_path / "x.toml"),
                 "--data-dir", str(tmp_path)]) == 2
    assert "has learner turns 1 to 4; --turn 9 is not one" in capsys.readouterr().err
    assert not (tmp_path / "x.toml").exists()


def _scenario(tmp_path: Path, director: list[str], teacher_says: str, expect: str) -> Path:
    script = tmp_path / "script.json"
    script.write_text(json.dumps({"director": director, "agents": {"reyes": [text(teacher_says)]}}), encoding="utf-8")
    path = tmp_path / "case.toml"
    path.write_text(f'classroom = "derivatives"\nmodel = "script:{script}"\nrules = []\n'
                    f'[[turns]]\nsay = "Hello"\nexpect = {{ {expect} }}\n', encoding="utf-8")
    return path


@pytest.mark.parametrize(("ends_with", "last_pick", "passes"), [
    ("What is 2 times 3?", "END", False),  # the learner was asked, and the turn just ended
    ("What is 2 times 3?", "USER", True),
    ("That is all.", "END", True),
])
def test_not_end_after_question(tmp_path: Path, capsys: pytest.CaptureFixture[str], ends_with: str,
                                last_pick: str, passes: bool) -> None:
    path = _scenario(tmp_path, [pick("reyes"), pick(last_pick)], ends_with, "not_end_after_question = true")
    code, report = _eval(capsys, path, tmp_path)
    assert (code == 0) is passes, report


def test_a_decision_step_that_never_came_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _scenario(tmp_path, [pick("reyes"), pick("USER")], "Hi.", 'decision = { 1 = ["reyes"], 3 = ["END"] }')
    code, report = _eval(capsys, path, tmp_path)
    seen = {e["expectation"]: e["seen"] for s in report["scenarios"] for e in s["expectations"]}  # type: ignore
    assert code == 1 and seen["decision1 in reyes"] == []
    assert seen["decision3 in END"] == ["decision 3: no such decision"]


def test_a_turn_with_step_mode_picks_says_which_decisions_were_the_testers(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "derivatives", "--say", "What is a derivative?", "--pick", "juno", "--pick", "USER",
                 "--pace", "0", "--data-dir", str(tmp_path)]) == 0
    capsys.readouterr()
    assert main(["sessions", "--data-dir", str(tmp_path)]) == 0
    session = capsys.readouterr().out.splitlines()[1].split()[0]
    scenario = tmp_path / "picked.toml"
    assert main(["eval", "--from-session", session, "--turn", "1", "-o", str(scenario),
                 "--data-dir", str(tmp_path)]) == 0
    text = scenario.read_text(encoding="utf-8")
    assert "# Picked by the tester in step mode, not decided by the routing: decision 1 (juno), 2 (USER)." in text
    assert tomllib.loads(text)["turns"][0]["expect"]["decision"] == {"1": ["juno"], "2": ["USER"]}
    code, _ = _eval(capsys, scenario, tmp_path)
    assert code == 1  # as the README says: the routing does not make the tester's picks by itself
