"""The lesson's records: ``scene`` with id and title, ``quiz_result``, ``lesson_end``: they round-trip
as wire JSON, a rebuilt session keeps the graded answers, and the headless replay shows them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from maic_tui.classroom import load_classroom
from maic_tui.cli import main
from maic_tui.log.records import (
    ClassControlData,
    ClassControlRecord,
    LessonEndData,
    LessonEndRecord,
    QuizResultData,
    QuizResultRecord,
    SceneData,
    SceneRecord,
    parse_record,
    read_jsonl,
    record_json,
)
from maic_tui.room.replay import rebuild

RESULT = QuizResultRecord(data=QuizResultData(question_id="q1", answer="b", correct=True, points=1, earned=1,
                                              comment="Right: the slope of 2x is 2."))
END = LessonEndRecord(data=LessonEndData(score=3, max_score=4, scenes=3))


@pytest.mark.parametrize("record", [RESULT, END, SceneRecord(data=SceneData(index=1, id="rules", title="Rules"))])
def test_lesson_records_round_trip_as_camel_case_wire_json(record: object) -> None:
    wire = record_json(record)  # type: ignore[arg-type]
    assert parse_record(wire) == record
    if isinstance(record, QuizResultRecord):
        assert json.loads(wire)["data"]["questionId"] == "q1"
    if isinstance(record, LessonEndRecord):
        assert json.loads(wire)["data"]["maxScore"] == 4


def test_a_log_written_before_lessons_still_reads_its_scene_records() -> None:
    old = parse_record('{"type": "scene", "data": {"index": 2}}')
    assert isinstance(old, SceneRecord) and old.data.index == 2 and old.data.id is None


def test_graded_answers_are_rebuilt_and_shown_by_the_headless_replay(
        tmp_path: Path, private_data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "derivatives", "--say", "What is a derivative?"]) == 0
    capsys.readouterr()
    log = tmp_path / "lesson.jsonl"
    assert main(["sessions"]) == 0
    session_id = capsys.readouterr().out.splitlines()[1].split()[0]
    assert main(["export", session_id, "--format", "jsonl", "-o", str(log)]) == 0
    capsys.readouterr()
    control = ClassControlRecord(data=ClassControlData(muted=["juno"], max_agents=2))
    review = END.model_copy(update={"data": END.data.model_copy(update={"review": [
        RESULT.data.model_copy(update={"question": "Slope of y = 2x?", "right_answer": "B) 2"})]})})
    with log.open("a", encoding="utf-8") as out:  # as a lesson would have written them
        for record in (RESULT, control, review):
            out.write(json.dumps({**json.loads(record_json(record)), "t": 9.0}) + "\n")
    _, records = read_jsonl(log.read_text(encoding="utf-8"), log.name)
    rebuilt = rebuild(load_classroom("derivatives"), [item.record for item in records])
    assert [r.question_id for r in rebuilt.quiz_results] == ["q1"]
    assert main(["replay", str(log), "--headless"]) == 0
    printed = capsys.readouterr().out
    assert "✔ q1: 1/1 for “b” — Right: the slope of 2x is 2." in printed
    assert "Lesson over: score 3/4 over 3 scenes" in printed
    assert "1. ✔ Slope of y = 2x? — you answered “b”: 1/1." in printed  # the review, each question on its line
    assert "Muted: Juno · at most 2 agents a turn." in printed
