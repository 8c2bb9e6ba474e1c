"""Routing QA at scale: the same scenarios on several models (a column each, a report per model with its figures),
two reports compared (`eval --compare OLD NEW`: what got better or worse, exit 1 when something got worse), and runs
played at once (`--concurrency N`: the same report, at most N requests at the server at a time)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from maic_tui.cli import main
from maic_tui.orchestration.prompts.director_request import DIRECTS
from maic_tui.paths import SCENARIOS_DIR
from tests.fake_openai import Reply, fake_openai

STUDENT_FIRST = f"script:{SCENARIOS_DIR / 'scripts' / 'student-first.json'}"


def _eval(capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str, *args: str) -> tuple[int, str, dict]:
    report = tmp_path / name
    code = main(["eval", "guard-student-first", "rule5-question-to-teacher", *args, "--report", str(report)])
    out = capsys.readouterr().out
    return code, out, json.loads(report.read_text(encoding="utf-8"))


def test_two_models_side_by_side(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, data = _eval(capsys, tmp_path, "both.json", "--model", "demo", "--model", STUDENT_FIRST)
    assert code == 1  # the demo never tries a student first, so the guard has nothing to catch
    header = next(line for line in out.splitlines() if "expectation" in line)
    assert "demo" in header and "script:" in header
    caught = next(line for line in out.splitlines() if "guard_caught:student_first" in line)
    assert caught.split("│")[-3].strip() == "0%" and caught.split("│")[-2].strip() == "100%"
    demo, script = data["models"]
    assert (demo["model"], script["model"]) == ("demo", STUDENT_FIRST)
    assert script["summary"]["interventionsPerTurn"] > 0 == demo["summary"]["interventionsPerTurn"]
    assert demo["summary"]["medianDecisionMs"] is not None and demo["summary"]["turns"] == 2
    assert "guard interventions a turn" in out and "2 of 4 scenarios passed" in out


def test_compare_says_what_got_better_and_worse(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, _, old = _eval(capsys, tmp_path, "old.json")
    assert old["ok"]
    assert main(["eval", "--compare", str(tmp_path / "old.json"), str(tmp_path / "old.json")]) == 0
    assert capsys.readouterr().out.strip().endswith("0 better, 0 worse, 7 unchanged")
    worse = json.loads((tmp_path / "old.json").read_text(encoding="utf-8"))
    worse["scenarios"][0]["expectations"][0]["rate"] = 0.5
    (tmp_path / "new.json").write_text(json.dumps(worse), encoding="utf-8")
    assert main(["eval", "--compare", str(tmp_path / "old.json"), str(tmp_path / "new.json")]) == 1
    out = capsys.readouterr().out
    assert "100%" in out and "50%" in out and "worse" in out and out.strip().endswith("0 better, 1 worse, 6 unchanged")
    assert main(["eval", "--compare", str(tmp_path / "new.json"), str(tmp_path / "old.json")]) == 0
    assert capsys.readouterr().out.strip().endswith("1 better, 0 worse, 6 unchanged")


def test_a_file_that_is_not_a_report_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"scenarios": [{"nothing": 1}]}', encoding="utf-8")
    assert main(["eval", "--compare", str(bad), str(bad)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"maic-tui: {bad}: not a maic-tui eval report") and "\n" not in err
    assert main(["eval", "--compare", str(tmp_path / "missing.json"), str(bad)]) == 2
    assert "missing.json" in capsys.readouterr().err


def test_runs_at_once_give_the_same_report_as_one_after_another(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    reports = []
    for concurrency in ("1", "4"):
        report = tmp_path / f"c{concurrency}.json"
        assert main(["eval", "--repeat", "2", "--concurrency", concurrency, "--report", str(report)]) == 0
        capsys.readouterr()
        data = json.loads(report.read_text(encoding="utf-8"))
        data["summary"].pop("medianDecisionMs")  # latencies differ from run to run; everything else must not
        reports.append(data)
    assert reports[0] == reports[1]


def _fake_answer(body: dict[str, object]) -> Reply:
    """The same answer whoever asks first: the director hands back, an agent says one line (a fixed delay each)."""
    director = DIRECTS in json.dumps(body.get("messages"))
    text = '{"next_agent": "USER"}' if director else '[{"type": "text", "content": "A slope is a rate."}]'
    return Reply(text=text, stall=0.2)


@pytest.mark.parametrize("concurrency", [1, 4])
def test_runs_at_once_reach_the_server_at_once(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                               concurrency: int) -> None:
    with fake_openai() as server:
        server.answer = _fake_answer
        code = main(["eval", "rule5-question-to-teacher", "rule1-teacher-first", "--repeat", "3", "--model",
                     "openai:fake-model", "--base-url", server.url, "--api-key", "k", "--concurrency",
                     str(concurrency), "--report", str(tmp_path / "r.json")])
    capsys.readouterr()
    data = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    assert not [e for s in data["scenarios"] for e in s["errors"]], data
    assert data["summary"]["turns"] == 3 * 3 and code in (0, 1)  # three runs of three turns
    assert server.most_in_flight == concurrency  # bounded by N, and N reached
