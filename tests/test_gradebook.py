"""``maic-tui report``: one row per recorded session and learner, as CSV a spreadsheet opens as is, Markdown or
JSON; the same points as the lesson's own end."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from maic_tui.classroom import load_classroom
from maic_tui.cli import main
from maic_tui.log.store import LogStore
from tests.records_helpers import played


def _report(capsys: pytest.CaptureFixture[str], *flags: str) -> str:
    assert main(["report", *flags]) == 0
    return capsys.readouterr().out


def test_a_row_per_session_with_each_question_and_the_total(private_data_dir: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    right = played("derivatives", "right", capsys, "--learner", "Ana")
    partly = played("derivatives", "partly", capsys, "--learner", "Bo")
    other = played("water-cycle", "wrong", capsys)
    text = _report(capsys)
    assert text.endswith("\r\n") and "\r\n" in text.splitlines(keepends=True)[0]  # RFC 4180 line ends
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [row["session"] for row in rows] == [right, partly, other]  # oldest first
    by = {row["session"]: row for row in rows}
    assert by[right]["learner"] == "Ana" and by[right]["completed"] == "yes"
    assert by[right]["percentage"] == "100.0" and by[right]["total"] == by[right]["possible"] == "5"
    assert by[right]["scenes_reached"] == by[right]["scenes"] == "5"
    assert by[right]["derivatives:rates earned"] == "2" and by[right]["derivatives:rates points"] == "2"
    assert int(by[partly]["total"]) < 5 and by[partly]["learner"] == "Bo"
    assert by[other]["derivatives:rates earned"] == "" and by[other]["total"] == "0"  # not its question
    assert by[other]["learner"] == load_classroom("water-cycle").learner.nickname  # the classroom's, when unnamed
    ended = [r for r in _lesson_ends(private_data_dir, partly)]
    assert ended == [(int(by[partly]["total"]), int(by[partly]["possible"]))]  # the lesson's own end agrees


def _lesson_ends(data_dir: Path, session: str) -> list[tuple[int, int]]:
    _, records, _ = LogStore(data_dir).load(session)
    return [(r.record.data.score, r.record.data.max_score) for r in records  # type: ignore[union-attr]
            if r.record.type == "lesson_end"]


def test_one_classroom_in_markdown_and_json(private_data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    session = played("derivatives", "partly", capsys)
    played("water-cycle", "right", capsys)
    csv_text = _report(capsys, "--classroom", "derivatives")
    header = next(csv.reader(io.StringIO(csv_text)))
    assert "rates earned" in header and not any(":" in name for name in header)  # one classroom: plain ids
    rows = json.loads(_report(capsys, "--classroom", "derivatives", "--format", "json"))
    assert [row["session"] for row in rows] == [session]
    assert [q["id"] for q in rows[0]["questions"]] == ["power-rule", "rates", "meaning"]
    assert rows[0]["total"] == sum(q["earned"] or 0 for q in rows[0]["questions"])
    md = _report(capsys, "--classroom", "derivatives", "--format", "md")
    assert md.startswith("## Derivatives: the slope of a curve (derivatives)")
    assert f"| {session} | {load_classroom('derivatives').learner.nickname} |" in md
    assert "| power-rule | rates | meaning |" in md


def test_a_name_a_spreadsheet_would_run_is_text_and_an_empty_report_says_so(
        private_data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    played("derivatives", "right", capsys, "--learner", "=HYPERLINK(\"http://x\")")
    rows = list(csv.DictReader(io.StringIO(_report(capsys))))
    assert rows[0]["learner"] == "'=HYPERLINK(\"http://x\")"
    assert main(["report", "--classroom", "nothing-here"]) == 0
    captured = capsys.readouterr()
    assert captured.err.strip() == "maic-tui: no recorded sessions of classroom 'nothing-here'"
    assert captured.out.startswith("session,classroom,")  # still a CSV with its header


def test_the_report_goes_to_a_file(private_data_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    played("derivatives", "right", capsys)
    target = tmp_path / "grades.csv"
    assert main(["report", "-o", str(target)]) == 0
    assert "wrote 1 rows" in capsys.readouterr().out
    assert target.read_text(encoding="utf-8").startswith("session,")
    assert main(["report", "-o", str(tmp_path)]) == 2  # a directory is never written


def test_forks_and_simulated_sessions_are_left_out_unless_asked_and_then_marked(
        private_data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    own = played("derivatives", "right", capsys, "--learner", "Sam")
    assert main(["fork", own, "--turn", "2"]) == 0
    assert main(["simulate", "derivatives", "--turns", "1"]) == 0
    capsys.readouterr()
    sessions = {s.id for s in LogStore(private_data_dir).sessions()}
    assert len(sessions) == 3
    rows = list(csv.DictReader(io.StringIO(_report(capsys, "--classroom", "derivatives"))))
    assert [(row["session"], row["kind"]) for row in rows] == [(own, "learner")]  # only the learner's own attempt
    every = list(csv.DictReader(io.StringIO(_report(capsys, "--classroom", "derivatives", "--all"))))
    assert sorted(row["kind"] for row in every) == ["fork", "learner", "simulated"]
    assert {row["session"] for row in every} == sessions
    as_json = json.loads(_report(capsys, "--all", "--format", "json"))
    assert sorted(row["kind"] for row in as_json) == ["fork", "learner", "simulated"]
    assert "| fork |" in _report(capsys, "--all", "--format", "md")
