"""``maic-tui export ID --format xapi``: every bundled sample's lesson, played with answers right, wrong and partly
right, gives statements that keep the xAPI 1.0.3 statement rules and say what happened."""

from __future__ import annotations

import copy
import json
import os
import uuid
from pathlib import Path

import pytest

from maic_tui.classroom import load_classroom
from maic_tui.classroom.loader import sample_names
from maic_tui.cli import main
from maic_tui.learning.statements import registration
from tests.records_helpers import exported, played, problems, verbs


@pytest.mark.parametrize("mode", ["right", "wrong", "partly"])
@pytest.mark.parametrize("name", sample_names())
def test_each_sample_lesson_gives_statements_that_keep_the_rules(name: str, mode: str, private_data_dir: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    session = played(name, mode, capsys)
    statements = exported(session, capsys)
    for statement in statements:
        assert problems(statement) == [], (name, mode, statement["verb"]["id"])
    room = load_classroom(name)
    questions = [q for scene in room.scenes for q in scene.graded()]
    said = verbs(statements)
    assert said[0] == "initialized" and said[-1] == "terminated"
    assert said.count("experienced") == len(room.scenes)
    assert said.count("answered") == len(questions) and said.count("completed") == 1
    timestamps = [s["timestamp"] for s in statements]
    assert timestamps == sorted(timestamps)
    assert {s["context"]["registration"] for s in statements} == {registration(session)}
    assert len({s["id"] for s in statements}) == len(statements)

    answers = {s["object"]["id"].rsplit("/", 1)[1]: s for s in statements if s["verb"]["id"].endswith("answered")}
    for question in questions:
        result = answers[question.id]["result"]
        definition = answers[question.id]["object"]["definition"]
        assert result["score"]["max"] == question.worth and result["success"] == (result["score"]["raw"] ==
                                                                                  question.worth)
        if question.type == "short_answer":
            assert definition["interactionType"] in ("fill-in", "long-fill-in")
        else:
            assert definition["interactionType"] == "choice"
            assert [c["id"] for c in definition["choices"]] == [o.value for o in question.options]
            assert definition["correctResponsesPattern"] == ["[,]".join(question.answer)]
            picked = result["response"].split("[,]") if result["response"] else []
            assert set(picked) <= {o.value for o in question.options}
        if mode == "right":
            assert result["success"] and result["score"]["scaled"] == 1
        elif mode == "wrong":
            assert not result["success"] and result["score"]["raw"] == 0
    completed = next(s for s in statements if s["verb"]["id"].endswith("completed"))
    earned = sum(answers[q.id]["result"]["score"]["raw"] for q in questions)
    assert completed["result"]["score"] == {"raw": earned, "min": 0, "max": sum(q.worth for q in questions),
                                            "scaled": round(earned / sum(q.worth for q in questions), 4)}
    if mode == "partly":
        assert 0 < earned < sum(q.worth for q in questions)  # some right, some not: a partial score
    assert completed["result"]["duration"].startswith("PT") and completed["result"]["completion"] is True


def test_exporting_again_gives_the_same_statements_and_another_learner_other_ids(
        private_data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    session = played("derivatives", "partly", capsys, "--learner", "Ana")
    first = exported(session, capsys)
    assert exported(session, capsys) == first
    assert {s["actor"]["name"] for s in first} == {"Ana"}  # the learner the session recorded
    other = exported(session, capsys, "--learner", "Bo")
    assert {s["actor"]["name"] for s in other} == {"Bo"}
    assert not {s["id"] for s in first} & {s["id"] for s in other}  # other statements: other ids
    assert all(uuid.UUID(s["id"]).version == 5 for s in first)


def test_the_actor_and_the_activities_come_from_the_config_and_never_carry_the_key(
        private_data_dir: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    Path(os.environ["MAIC_CONFIG"]).write_text(
        'api_key = "sk-very-secret-key-123"\nbase_url = "http://10.1.2.3:9999/v1"\n'
        '[learner]\nname = "Ana Souza"\naccount = { homePage = "https://lms.example.org", name = "4711" }\n'
        '[records]\nactivity_base = "https://courses.example.org/maic/"\n', encoding="utf-8")
    session = played("water-cycle", "right", capsys)
    statements = exported(session, capsys)
    text = json.dumps(statements)
    assert "sk-very-secret-key-123" not in text and "10.1.2.3" not in text and "demo" not in text.lower()
    assert statements[0]["actor"] == {"objectType": "Agent", "name": "Ana Souza",
                                      "account": {"homePage": "https://lms.example.org", "name": "4711"}}
    assert statements[0]["object"]["id"] == "https://courses.example.org/maic/classrooms/water-cycle"
    assert all(s["object"]["id"].startswith("https://courses.example.org/maic/classrooms/water-cycle")
               for s in statements)
    Path(os.environ["MAIC_CONFIG"]).write_text('[learner]\nmbox = "mailto:ana@example.org"\n', encoding="utf-8")
    assert {json.dumps(s["actor"]) for s in exported(session, capsys)} == {
        json.dumps({"objectType": "Agent", "name": "Ana Souza", "mbox": "mailto:ana@example.org"})}  # as recorded


@pytest.mark.parametrize(("config", "said"), [
    ('[learner]\nmbox = "ana at example.org"\n', "[learner] mbox"),
    ('[records]\nactivity_base = "courses/maic"\n', "[records] activity_base"),
    ('[records]\nlrs = "https://maic:pw@lrs.example.org/xAPI/"\n', "must not hold a user or password"),
    ('[records]\nbatch = 0\n', "[records] batch"),
    ('records = 3\n', "[records] must be a table"),
])
def test_a_bad_records_setting_is_one_line_naming_it(config: str, said: str, private_data_dir: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    session = played("derivatives", "right", capsys)
    Path(os.environ["MAIC_CONFIG"]).write_text(config, encoding="utf-8")
    assert main(["export", session, "--format", "xapi"]) == 2
    err = capsys.readouterr().err
    assert said in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_a_question_asked_of_the_class_is_asked_and_lesson_words_are_not(private_data_dir: Path,
                                                                          capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "derivatives", "--say", "why is the slope of a line constant?", "--say", "@theo hi"]) == 0
    capsys.readouterr()
    session = played("derivatives", "right", capsys)
    asked = [s for s in exported(session, capsys) if s["verb"]["id"].endswith("/asked")]
    assert asked == []  # "go on" only moved the lesson on; the answers were answers
    from maic_tui.log.store import LogStore

    first = LogStore(private_data_dir).sessions()[-1].id
    asked = [s["result"]["response"] for s in exported(first, capsys) if s["verb"]["id"].endswith("/asked")]
    assert asked == ["why is the slope of a line constant?", "@theo hi"]


def test_the_schema_refuses_what_the_spec_refuses(private_data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    session = played("derivatives", "partly", capsys)
    statements = exported(session, capsys)
    answered = next(s for s in statements if "choices" in s["object"].get("definition", {}))
    assert problems(answered) == []

    def broken(change: str) -> dict[str, object]:
        statement = copy.deepcopy(answered)
        exec(change, {"s": statement})  # the one mutation, written as it reads
        return statement

    for change in ["del s['actor']", "s['id'] = 'not-a-uuid'", "s['timestamp'] = '2026-12-03T10:00:00'",
                   "s['verb']['id'] = 'answered'", "s['result']['score']['scaled'] = 1.5",
                   "s['result']['score']['raw'] = s['result']['score']['max'] + 1",
                   "s['actor']['mbox'] = 'mailto:a@b.org'", "s['result']['duration'] = '83 seconds'",
                   "s['object']['definition']['interactionType'] = 'multiple'", "s['extra'] = 1",
                   "s['context']['language'] = 'en_GB'", "s['object']['definition']['choices'].append("
                   "s['object']['definition']['choices'][0])"]:
        assert problems(broken(change)), change
