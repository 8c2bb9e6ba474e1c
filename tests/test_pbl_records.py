"""A project's records (issue 52): a resumed session goes on at the active issue, a fork before a learner turn
too, and a recorded turn becomes an eval scenario played where the project waits."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from maic_tui.cli import main
from maic_tui.evaluation.scenario import load_scenario

SITE = "The downpipe by the gym floods the path, so we dig the garden 3 m away from the wall"


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> list[dict[str, Any]]:
    assert main(["run", *args, "--pace", "0"]) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.startswith("{")]


def _sessions(capsys: pytest.CaptureFixture[str], data: Path) -> list[str]:
    assert main(["sessions", "--data-dir", str(data)]) == 0
    return [line.split()[0] for line in capsys.readouterr().out.splitlines()[1:]]


def _happened(records: list[dict[str, Any]]) -> list[tuple[str, Any]]:
    return [(r["data"]["name"], r["data"]["data"].get("issue", r["data"]["data"].get("role")))
            for r in records if r["type"] == "scene_event"]


def test_a_resumed_project_goes_on_at_the_active_issue(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _run(capsys, "rain-garden", "--lesson", "--say", "designer", "--say", "done: " + SITE, "--data-dir",
         str(tmp_path))
    session = _sessions(capsys, tmp_path)[0]
    records = _run(capsys, "--resume", session, "--lesson", "--say", "hint", "--data-dir", str(tmp_path))
    said = "".join(r["data"]["content"] for r in records if r["type"] == "text_delta")
    assert "We're on “Size the garden”, Designer." in said and "Which role" not in said
    assert "Measure the part of the roof" in said  # the size issue's first hint: the active issue's
    assert _happened(records) == []  # a hint is no record of the project's


def test_a_fork_before_a_submission_is_judged_again_from_there(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    _run(capsys, "rain-garden", "--lesson", "--say", "designer", "--say", "done: near the gym", "--data-dir",
         str(tmp_path))
    session = _sessions(capsys, tmp_path)[0]
    assert main(["fork", session, "--turn", "2", "--data-dir", str(tmp_path)]) == 0
    capsys.readouterr()
    fork = next(s for s in _sessions(capsys, tmp_path) if s != session)
    records = _run(capsys, "--resume", fork, "--lesson", "--say", "done: " + SITE, "--data-dir", str(tmp_path))
    assert _happened(records) == [("submission", "site"), ("verdict", "site"), ("issue_done", "site"),
                                  ("issue_opened", "size")]


def test_a_project_turn_kept_as_a_scenario_is_played_where_the_project_waits(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _run(capsys, "rain-garden", "--lesson", "--say", "designer", "--say", "give me a hint", "--data-dir",
         str(tmp_path))
    session = _sessions(capsys, tmp_path)[0]
    out = tmp_path / "hint.toml"
    assert main(["eval", "--from-session", session, "--turn", "2", "-o", str(out), "--data-dir",
                 str(tmp_path)]) == 0
    scenario = load_scenario(str(out))[1]
    assert [(e.name, e.data) for e in scenario.events] == [("role_chosen", {"role": "Designer"}),
                                                          ("issue_opened", {"issue": "site"})]
    assert scenario.turns[0].expect.decision == {"1": ["okafor"], "2": ["USER"]}
    report = tmp_path / "report.json"
    assert main(["eval", str(out), "--report", str(report)]) == 0
    capsys.readouterr()
    assert all(e["ok"] for s in json.loads(report.read_text())["scenarios"] for e in s["expectations"])


def test_each_verdict_and_completed_issue_is_a_statement_and_each_issue_a_gradebook_column(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _run(capsys, "rain-garden", "--lesson", "--say", "designer", "--say", "done: near the gym", "--say",
         "done: " + SITE, "--data-dir", str(tmp_path))
    session = _sessions(capsys, tmp_path)[0]
    out = tmp_path / "x.json"
    assert main(["export", session, "--format", "xapi", "-o", str(out), "--data-dir", str(tmp_path)]) == 0
    statements = json.loads(out.read_text(encoding="utf-8"))
    issue = "https://maic-tui.invalid/xapi/classrooms/rain-garden/scenes/garden/issues/site"
    about = [(s["verb"]["display"]["en-US"], s["result"].get("success")) for s in statements
             if s["object"]["id"] == issue]
    assert about == [("failed", False), ("passed", True), ("completed", None)]
    failed = next(s for s in statements if s["verb"]["display"]["en-US"] == "failed")
    assert "keeps the garden a safe distance" in failed["result"]["response"]
    assert failed["context"]["contextActivities"]["parent"][0]["id"].endswith("/scenes/garden")
    capsys.readouterr()
    assert main(["report", "--format", "json", "--data-dir", str(tmp_path)]) == 0
    row = json.loads(capsys.readouterr().out)[0]
    assert row["tasks"] == [{"id": "garden/site", "value": "done (2 verdicts)"}, {"id": "garden/size", "value": ""},
                            {"id": "garden/plants", "value": ""}]
    assert main(["report", "--format", "csv", "--data-dir", str(tmp_path)]) == 0
    header, line = capsys.readouterr().out.splitlines()[:2]
    assert header.endswith(",garden/site,garden/size,garden/plants") and line.endswith(",done (2 verdicts),,")
