"""`maic-tui simulate`: sessions with a simulated learner, each recorded (its id printed), then their statistics. On
the demo the learner is scripted from the classroom's material and the same for a seed; it answers the class's
questions (right or wrong as its persona leans) and the lesson's; a model can play it instead."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from maic_tui.classroom import load_classroom
from maic_tui.cli import main
from maic_tui.demo.simulated_learner import DemoLearner
from maic_tui.llm.context import Said
from maic_tui.log.records import LearnerRecord
from maic_tui.room.replay import open_recorded


def _simulate(capsys: pytest.CaptureFixture[str], data: Path, *args: str) -> tuple[list[str], list[str]]:
    assert main(["simulate", *args, "--data-dir", str(data)]) == 0
    out = capsys.readouterr().out.splitlines()
    numbered = sorted((int(line.split()[1]), line.rsplit(": ", 1)[1]) for line in out if line.startswith("session "))
    ids = [session for _, session in numbered]  # in session order, however they finished
    said = [[item.record.data.text for item in open_recorded(data, session).records
             if isinstance(item.record, LearnerRecord)] for session in ids]
    stats = [line.split(", median decision")[0] for line in out[len(ids):]]  # latency is the machine's
    return ids, [message for session in said for message in session] + stats


def test_the_demo_learner_is_the_same_for_a_seed_and_differs_by_persona(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first_ids, first = _simulate(capsys, tmp_path / "a", "derivatives", "--sessions", "3", "--turns", "4")
    again_ids, again = _simulate(capsys, tmp_path / "b", "derivatives", "--sessions", "3", "--turns", "4")
    assert len(first_ids) == 3 and len(set(first_ids)) == 3 and first_ids != again_ids
    assert first == again  # every message, and the statistics after them
    assert first[0] == load_classroom("derivatives").demo.answers[0].question  # it opens with a prepared question
    assert any(line.startswith("3 sessions, 12 learner turns") for line in first)
    _, at_once = _simulate(capsys, tmp_path / "e", "derivatives", "--sessions", "3", "--turns", "4",
                           "--concurrency", "3")
    assert at_once == first  # sessions played at once are the same sessions
    _, other = _simulate(capsys, tmp_path / "c", "derivatives", "--sessions", "3", "--turns", "4", "--seed", "7")
    _, confused = _simulate(capsys, tmp_path / "d", "derivatives", "--learner", "confused", "--turns", "6")
    assert other != first and confused[:6] != first[:6]


def test_the_demo_learner_answers_what_the_class_asked() -> None:
    room = load_classroom("derivatives")
    asked = next(a for a in room.demo.answers if a.expects)
    said = [Said("learner", asked.question), *(Said(turn.agent, " ".join(s.say for s in turn.steps if s.say))
                                               for turn in asked.turns)]
    right = [DemoLearner(room, "curious", seed).message(said) for seed in range(20)]
    assert asked.expects[0] in right  # mostly right, for a curious learner
    confused = [DemoLearner(room, "confused", seed).message(said) for seed in range(20)]
    assert sum(m == asked.expects[0] for m in confused) < sum(m == asked.expects[0] for m in right)
    question = next(q for scene in room.scenes if scene.type == "quiz" for q in scene.questions
                    if q.type == "single")
    answers = {DemoLearner(room, "curious", seed).answer(question) for seed in range(20)}
    assert ", ".join(question.answer) in answers and answers <= {o.value for o in question.options}


def test_a_simulated_lesson_is_answered_to_its_end(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ids, said = _simulate(capsys, tmp_path, "python-loops", "--lesson", "--turns", "1")
    recorded = open_recorded(tmp_path, ids[0])
    assert recorded.rebuilt.lesson_ended and recorded.rebuilt.quiz_results  # every question answered
    assert any(line.startswith("lesson scores: ") for line in said)


def test_a_model_plays_the_learner(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "learner.json"
    script.write_text(json.dumps({"agents": {"learner": [json.dumps({"message": "Is a slope a rate?"}),
                                                         "plain words, no JSON"]}}), encoding="utf-8")
    room = tmp_path / "room.toml"
    sample = Path(__file__).parents[1] / "maic_tui" / "data" / "sample_classrooms" / "derivatives.toml"
    room.write_text(sample.read_text(encoding="utf-8"), encoding="utf-8")
    _, said = _simulate(capsys, tmp_path / "data", str(room), "--turns", "2", "--learner-model", f"script:{script}")
    assert said[:2] == ["Is a slope a rate?", "plain words, no JSON"]
