"""`maic-tui eval`: scenario files, expectations, the table and report, and the exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from maic_tui.cli import main
from maic_tui.evaluation.scenario import SCENARIOS_DIR, ScenarioError, load_scenario, scenario_names
from maic_tui.paths import SAMPLES_DIR

RULES = [f"rule{n}-" for n in range(1, 10)]


def test_the_bundled_scenarios_cover_the_rules_and_pass_with_the_demo_model(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    names = scenario_names()
    assert len(names) >= 12
    for prefix in RULES:
        assert any(name.startswith(prefix) for name in names), prefix
    for needed in ("discussion", "single-agent", "greeting", "goodbye", "off-topic", "addressed-by-name"):
        assert needed in names
    report = tmp_path / "report.json"
    assert main(["eval", "--repeat", "2", "--report", str(report)]) == 0
    out, err = capsys.readouterr()
    data = json.loads(report.read_text(encoding="utf-8"))
    assert data["ok"] and data["repeat"] == 2 and len(data["scenarios"]) == len(names)
    assert all(e["runs"] == 2 and e["rate"] == 1.0 for s in data["scenarios"] for e in s["expectations"])
    assert f"{len(names)} of {len(names)} scenarios passed" in out and "guard_caught:student_first" in out
    assert f"[{2 * len(names)}/{2 * len(names)}]" in err  # progress while it runs


def test_script_scenarios_show_each_guard_catching_a_known_failure(tmp_path: Path) -> None:
    guards = {"student_first", "same_agent_twice", "unknown_agent", "cue_before_answer", "floor_after_question"}
    caught = set()
    for name in scenario_names():
        _, scenario = load_scenario(name)
        if scenario.model and scenario.model.startswith("script:"):
            caught |= {g for turn in scenario.turns for g in turn.expect.guard_caught}
    assert caught == guards


def test_an_expectation_below_its_threshold_exits_1_and_says_what_was_seen(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # The same known failure with the guards switched off in the classroom: nothing catches it now.
    unguarded = (SAMPLES_DIR / "derivatives.toml").read_text(encoding="utf-8") + "\n"
    if "[routing]" in unguarded:
        unguarded = unguarded.replace("[routing]", "[routing]\nguards = []\n# (was)\n", 1)
    else:
        unguarded += "[routing]\nguards = []\n"
    (tmp_path / "unguarded.toml").write_text(unguarded, encoding="utf-8")
    script = json.loads((SCENARIOS_DIR / "scripts" / "same-agent-twice.json").read_text(encoding="utf-8"))
    script["agents"]["reyes"] *= 2  # unguarded, Reyes is really called twice
    (tmp_path / "same.json").write_text(json.dumps(script), encoding="utf-8")
    scenario = tmp_path / "unguarded-repeat.toml"
    scenario.write_text('classroom = "unguarded.toml"\nrules = []\nmodel = "script:same.json"\nthreshold = 0.5\n'
                        '[[turns]]\nsay = "What is a derivative?"\n'
                        'expect = { no_repeat = true, no_error = true }\n', encoding="utf-8")
    report = tmp_path / "report.json"
    assert main(["eval", str(scenario), "--report", str(report)]) == 1
    out = capsys.readouterr().out
    data = json.loads(report.read_text(encoding="utf-8"))
    by_name = {e["expectation"]: e for e in data["scenarios"][0]["expectations"]}
    assert not data["ok"] and by_name["no_repeat"]["rate"] == 0.0 and by_name["no_error"]["ok"]
    assert "reyes → reyes" in by_name["no_repeat"]["seen"][0]
    assert "0 of 1 scenarios passed" in out and "✗" in out


def test_a_scenario_that_cannot_run_fails_the_eval(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    scenario = tmp_path / "broken-script.toml"
    scenario.write_text('classroom = "derivatives"\nmodel = "script:missing.json"\n'
                        '[[turns]]\nsay = "hi"\nexpect = { no_error = true }\n', encoding="utf-8")
    assert main(["eval", str(scenario), "--report", str(tmp_path / "r.json")]) == 1
    assert "missing.json" in capsys.readouterr().out


@pytest.mark.parametrize(("content", "words"), [
    ("classroom = 'derivatives'\n", "turns: required field is missing"),
    ("classroom = 'derivatives'\n[[turns]]\nsay = 'x'\nexpect = { first_role = 'janitor' }\n",
     "turns[0].expect.first_role"),
    ("classroom = 'derivatives'\n[[turns]]\nsay = 'x'\nexpect = { sparkles = true }\n", "sparkles"),
    ("classroom = [", "Invalid"),
])
def test_a_broken_scenario_is_one_line_and_exit_2(tmp_path: Path, content: str, words: str,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(ScenarioError, match=words.replace("[", r"\[")):
        load_scenario(str(path))
    assert main(["eval", str(path), "--report", str(tmp_path / "r.json")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "bad.toml" in err and "Traceback" not in err
    assert main(["eval", "no-such-scenario"]) == 2


def test_a_scenario_reports_every_problem_and_names_the_agents_its_classroom_lacks(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "names.toml"
    path.write_text("classroom = 'derivatives'\nscene = 'nowhere'\n"
                    "[[history]]\nwho = 'okafor'\ntext = 'Hello.'\n"
                    + "[[turns]]\nsay = 'x'\nexpect = { first_speaker = 'nobody', must_speak = ['reyes'] }\n" * 3
                    + "[[turns]]\nsay = 'y'\nexpect = { decision = { 1 = ['reyes', 'USER', 'ghost'] } }\n",
                    encoding="utf-8")
    assert main(["eval", str(path), "--report", str(tmp_path / "r.json")]) == 2
    known = "(juno, lena, marcus, priya, reyes, theo)"
    assert capsys.readouterr().err.splitlines() == [
        f"maic-tui: {path}: scene: 'nowhere' is not a scene of this scenario's classroom (intro, definition, "
        "shortcuts, secant, check)",
        f"maic-tui: {path}: history[0].who: 'okafor' is not an agent of this scenario's classroom {known}",
        f"maic-tui: {path}: turns[0, 1 and 2].expect.first_speaker: 'nobody' is not an agent of this scenario's "
        f"classroom {known}",
        f"maic-tui: {path}: turns[3].expect.decision.1[2]: 'ghost' is not an agent of this scenario's classroom "
        f"{known}",
    ]
    assert not (tmp_path / "r.json").exists()


def test_a_scenario_with_two_schema_problems_says_both(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "two.toml"
    path.write_text("classroom = 'derivatives'\nthreshold = 2\n[[turns]]\nsay = 'x'\nexpect = { sparkles = true }\n",
                    encoding="utf-8")
    assert main(["eval", str(path)]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 2 and lines[0].startswith(f"maic-tui: {path}: threshold: ")
    assert lines[1] == f"maic-tui: {path}: turns[0].expect.sparkles: unknown key (check the spelling)"
