"""A project played headless (issue 52): the role picked, each issue opened by its question agent, hints, a
submission judged (a structured verdict, recorded), the next issue opened on a complete verdict, the project's
summary; "done" without work is asked for the work; a judge that answers badly is asked again once, then a
fallback that never marks the issue done; each routing rule switchable and named in the trace."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from maic_tui.cli import main

SAMPLE = Path(__file__).parents[1] / "maic_tui" / "data" / "sample_classrooms" / "rain-garden.toml"
SITE_WORK = "The downpipe by the gym makes a puddle on the path, so we dig it 3 m away from the wall"
SIZE_WORK = "here is my plan: the roof area is 120 square metres, we take 25 percent, so 30 m2, 15 cm deep"
PLANTS_WORK = "done: native rushes in the wet middle, lavender on the dry edge"


def play(capsys: pytest.CaptureFixture[str], *says: str, classroom: str = str(SAMPLE),
         extra: tuple[str, ...] = ()) -> list[dict[str, Any]]:
    args = ["run", classroom, "--lesson", "--pace", "0", *extra]
    for say in says:
        args += ["--say", say]
    assert main(args) == 0
    out = capsys.readouterr()
    assert "Traceback" not in out.err
    return [json.loads(line) for line in out.out.splitlines() if line.startswith("{")]


def events(records: list[dict[str, Any]], name: str | None = None) -> list[dict[str, Any]]:
    return [r["data"] for r in records if r["type"] == "scene_event" and name in (None, r["data"]["name"])]


def speech(records: list[dict[str, Any]]) -> str:
    return "".join(r["data"]["content"] for r in records if r["type"] == "text_delta")


def test_the_demo_plays_the_project_end_to_end(capsys: pytest.CaptureFixture[str]) -> None:
    records = play(capsys, "designer", "give me a hint", "here is my plan: near the gym", SITE_WORK, "done",
                   "what should we measure?", SIZE_WORK, PLANTS_WORK, "b", "they are local: used to wet and dry")
    assert events(records, "role_chosen")[0]["data"] == {"role": "Designer"}
    assert [e["data"]["issue"] for e in events(records, "issue_opened")] == ["site", "size", "plants"]
    verdicts = [(e["data"]["issue"], e["data"]["verdict"]) for e in events(records, "verdict")]
    assert verdicts == [("site", "needs_revision"), ("site", "complete"), ("size", "complete"),
                        ("plants", "complete")]
    weak = events(records, "verdict")[0]["data"]
    assert "keeps the garden a safe distance from the building" in weak["missing"]
    assert [e["data"]["issue"] for e in events(records, "issue_done")] == ["site", "size", "plants"]
    assert events(records, "project_done")
    scenes = [r["data"]["id"] for r in records if r["type"] == "scene"]
    assert scenes == ["why", "how", "garden", "after", "check"]  # the lesson goes on after the project
    end = next(r["data"] for r in records if r["type"] == "lesson_end")
    assert end["score"] == end["maxScore"] == 2
    said = speech(records)
    assert "Which role will you take: Project lead" in said and "Follow the water" in said  # the intro; the first hint
    assert "How much roof drains to your spot" in said  # the next issue opened by its questions
    assert "That's the project" in said and "✓ Choose the site" in said
    # the second submission is judged on all the learner said on the issue: the first submission and the talk
    assert events(records, "submission")[1]["data"]["work"] == "near the gym\n" + SITE_WORK


def test_done_without_work_is_asked_for_the_work_not_judged(capsys: pytest.CaptureFixture[str]) -> None:
    records = play(capsys, "2", "done")
    assert events(records, "role_chosen")[0]["data"]["role"] == "Designer"
    assert not events(records, "submission") and not events(records, "verdict")
    assert "show your work" in speech(records)


def test_an_unknown_role_is_asked_again(capsys: pytest.CaptureFixture[str]) -> None:
    records = play(capsys, "astronaut", "plant scout")
    assert "Pick a role first: 1. Project lead, 2. Designer, 3. Plant scout." in speech(records)
    assert [e["data"]["role"] for e in events(records, "role_chosen")] == ["Plant scout"]


def test_the_rules_route_in_code_and_are_named_in_the_trace(capsys: pytest.CaptureFixture[str]) -> None:
    records = play(capsys, "designer", "hint please", "here is my plan: " + SITE_WORK)
    reasons = [(d["path"], d["final"], d["reason"]) for r in records if r["type"] == "done"
               for d in r["data"]["directorTrace"]]
    assert ("rule", "okafor", "issue_opens: the question agent opens issue site") in reasons
    assert ("rule", "okafor", "hint_to_questioner: a hint request goes to the question agent") in reasons
    assert ("rule", "lin", "judge_on_submission: a submission: the judge gives the verdict") in reasons


def test_the_judge_is_barred_from_the_team_talk(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    script = {"director": ['{"next_agent": "lin"}', '{"next_agent": "lin"}', '{"next_agent": "USER"}'],
              "agents": {"okafor": ['[{"type":"text","content":"Where does the water run?"}]'],
                         "sam": ['[{"type":"text","content":"Let us agree on a spot."}]']}}
    path = tmp_path / "script.json"
    path.write_text(json.dumps(script), encoding="utf-8")
    records = play(capsys, "designer", "what do you all think?", extra=("--model", f"script:{path}"))
    trace = [d for r in records if r["type"] == "done" for d in r["data"]["directorTrace"]]
    barred = [g for d in trace for g in d.get("guards", []) if g["rule"] == "judge_on_submission"]
    assert barred and not barred[0]["passed"] and "only when the learner submits" in barred[0]["reason"]
    assert not any(r["type"] == "agent_start" and r["data"]["agentId"] == "lin" for r in records)


def _judge_script(tmp_path: Path, judge: list[str]) -> str:
    line = '[{"type":"text","content":"%s"}]'
    script = {"director": [], "judge": judge,
              "agents": {"okafor": [line % "Where does the water run?", line % "Next: size it."],
                         "lin": [line % "My verdict." for _ in judge]}}
    path = tmp_path / "script.json"
    path.write_text(json.dumps(script), encoding="utf-8")
    return f"script:{path}"


def test_a_judge_answering_prose_then_nothing_falls_back_and_never_marks_done(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    model = _judge_script(tmp_path, ["It looks complete to me!", "{}"])
    records = play(capsys, "designer", "here is my plan: " + SITE_WORK, extra=("--model", model))
    verdicts = events(records, "verdict")
    assert len(verdicts) == 1 and verdicts[0]["data"]["fallback"] is True
    assert verdicts[0]["data"]["verdict"] == "needs_revision"
    assert not events(records, "issue_done")
    errors = [r["data"]["message"] for r in records if r["type"] == "error"]
    assert any("try 1" in e and "not a JSON object" in e for e in errors)
    assert any("try 2" in e for e in errors)


def test_a_verdict_for_another_issue_is_asked_again_once(capsys: pytest.CaptureFixture[str],
                                                          tmp_path: Path) -> None:
    other = json.dumps({"issue": "size", "verdict": "complete", "missing": [], "comment": "ok"})
    right = json.dumps({"issue": "site", "verdict": "complete", "missing": [], "comment": "Well placed."})
    records = play(capsys, "designer", "done: " + SITE_WORK, extra=("--model", _judge_script(tmp_path,
                                                                                           [other, right])))
    assert [e["data"]["verdict"] for e in events(records, "verdict")] == ["complete"]
    assert [e["data"]["issue"] for e in events(records, "issue_done")] == ["site"]
    assert any("that verdict is for issue 'size'" in r["data"]["message"] for r in records if r["type"] == "error")


def test_a_rule_switched_off_leaves_the_choice_to_the_director_model(capsys: pytest.CaptureFixture[str],
                                                                     tmp_path: Path) -> None:
    text = SAMPLE.read_text(encoding="utf-8").replace(
        "[[agents]]", '[routing]\nrules = ["hint_to_questioner", "judge_on_submission"]\n\n[[agents]]', 1)
    path = tmp_path / "garden.toml"
    path.write_text(text, encoding="utf-8")
    records = play(capsys, "designer", classroom=str(path))
    first = next(r for r in records if r["type"] == "done")["data"]["directorTrace"][0]
    assert first["path"] == "model" and first["final"] == "okafor"


def test_a_role_given_beforehand_is_taken_when_the_project_asks(capsys: pytest.CaptureFixture[str]) -> None:
    records = play(capsys, "hint", extra=("--role", "plant scout"))
    assert [e["data"]["role"] for e in events(records, "role_chosen")] == ["Plant scout"]
    assert "Follow the water" in speech(records)  # the learner's first message already works on the issue
    records = play(capsys, "designer", extra=("--role", "astronaut"))
    errors = [r["data"]["message"] for r in records if r["type"] == "error"]
    assert errors == ["--role 'astronaut' is not a role of this project (Project lead, Designer, Plant scout); "
                      "pick one"]
    assert [e["data"]["role"] for e in events(records, "role_chosen")] == ["Designer"]


def test_the_judge_answers_when_addressed_without_judging(capsys: pytest.CaptureFixture[str]) -> None:
    records = play(capsys, "designer", "@lin is the corner by the gym a good spot?")
    talk = [r for r in records if r["type"] == "done"][-1]["data"]["directorTrace"]
    assert (talk[0]["path"], talk[0]["final"]) == ("trigger", "lin")
    assert not events(records, "submission") and not events(records, "verdict")


def test_a_submission_is_said_at_the_start_of_a_message_only(capsys: pytest.CaptureFixture[str]) -> None:
    records = play(capsys, "designer", "we could be done by Friday if the downpipe spot works",
                   "finished: " + SITE_WORK)
    assert [e["data"]["body"] for e in events(records, "submission")] == [SITE_WORK]


def test_a_contradictory_verdict_is_asked_again_and_never_marks_the_issue_done(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    both = json.dumps({"issue": "site", "verdict": "complete", "missing": ["landmark"], "comment": "needs_revision"})
    nothing = json.dumps({"issue": "site", "verdict": "needs_revision", "missing": [], "comment": "no"})
    records = play(capsys, "designer", "done: " + SITE_WORK, extra=("--model", _judge_script(tmp_path,
                                                                                           [both, nothing])))
    assert [e["data"]["fallback"] for e in events(records, "verdict")] == [True]
    assert not events(records, "issue_done")
    errors = [r["data"]["message"] for r in records if r["type"] == "error"]
    assert any("a complete verdict has nothing missing" in e for e in errors)
    assert any("a needs_revision verdict must say what is missing" in e for e in errors)
