"""A lesson in a recorded session: resumed at the same step with the same score, exported with its score, and
played headless by ``run --lesson``; every sample's lesson plays offline on the demo model."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from maic_tui.classroom import load_classroom
from maic_tui.classroom.lesson_steps import Phase
from maic_tui.classroom.loader import sample_names
from maic_tui.cli import main
from maic_tui.live.assembly import SessionRecipe, build_session
from maic_tui.live.driver import TurnDriver
from maic_tui.live.lesson_player import LessonPlayer
from maic_tui.llm import ModelOptions
from maic_tui.log.records import LearnerRecord, Record
from maic_tui.log.store import LogStore
from maic_tui.room.replay import open_recorded
from maic_tui.room.view import AgentMessage, ClassroomView
from tests.engine_helpers import lesson_reply
from tests.test_lesson_cursor import lesson


async def _play_to_second_question(player: LessonPlayer, view: ClassroomView) -> None:
    for step in (player.play(), lesson_reply(player, "go on"), player.play(), lesson_reply(player, "B"), player.play()):
        async for record in step:
            view.record(record)


def test_a_resumed_lesson_goes_on_at_the_same_step_with_the_same_score(tmp_path: Path,
                                                                        private_data_dir: Path) -> None:
    room = lesson(tmp_path)
    session = build_session(room, SessionRecipe("demo", ModelOptions(pace=0), data_dir=private_data_dir,
                                                classroom_name=str(tmp_path / "lesson.toml")))
    player = LessonPlayer(session)
    view = ClassroomView(room)
    asyncio.run(_play_to_second_question(player, view))
    assert player.phase == Phase.WAITING and player.cursor.position == (2, 1)
    assert player.cursor.score() == (1, 3)
    session.close()

    session_id = LogStore(private_data_dir).sessions()[0].id
    recorded = open_recorded(private_data_dir, session_id)
    assert recorded.rebuilt.repairs == []  # every turn of the lesson closed itself: nothing to repair
    resumed = build_session(recorded.classroom, SessionRecipe("demo", ModelOptions(pace=0),
                                                              data_dir=private_data_dir, resume=recorded))
    cursor = resumed.cursor
    assert cursor.position == (2, 1) and cursor.score() == (1, 3) and cursor.phase == Phase.LIVE
    rebuilt_text = [e.text for e in recorded.rebuilt.view.entries if isinstance(e, AgentMessage)]
    assert rebuilt_text == [e.text for e in view.entries if isinstance(e, AgentMessage)]

    async def go_on() -> list[str]:
        again = LessonPlayer(resumed)
        again.go_on()
        played = [r async for r in again.play()]
        return [r.type for r in played]

    kinds = asyncio.run(go_on())
    assert "agent_start" in kinds and resumed.cursor.phase == Phase.WAITING  # q2 asked again, waiting
    assert resumed.cursor.current.question.id == "q2"  # type: ignore[union-attr]
    resumed.close()


def test_the_markdown_export_shows_the_quiz_score(tmp_path: Path, private_data_dir: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    room = lesson(tmp_path)
    session = build_session(room, SessionRecipe("demo", ModelOptions(pace=0), data_dir=private_data_dir,
                                                classroom_name=str(tmp_path / "lesson.toml")))
    asyncio.run(_play_to_second_question(LessonPlayer(session), ClassroomView(room)))
    session.close()
    session_id = LogStore(private_data_dir).sessions()[0].id
    assert main(["export", session_id, "--format", "md"]) == 0
    text = capsys.readouterr().out
    assert "## Quiz score" in text and "**1 of 1 points** over 1 answered question." in text
    assert "✔ Slope of y = 2x? You answered “B) 2”: 1/1." in text  # the question and the answer, not ids


def _records(out: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def test_run_lesson_plays_the_whole_lesson_and_uses_each_say_where_it_waits(
        tmp_path: Path, private_data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "lesson.toml"
    lesson(tmp_path)  # writes lesson.toml
    code = main(["run", str(path), "--lesson", "--say", "go on", "--say", "b", "--say", "slope and rate",
                 "--say", "What is a slope?"])
    captured = capsys.readouterr()
    assert code == 0 and "Traceback" not in captured.err
    records = _records(captured.out)
    types = [r["type"] for r in records]
    assert types[0] == "scene" and "step" not in types and "learner" not in types
    assert [r["data"]["id"] for r in records if r["type"] == "scene"] == ["intro", "more", "check"]  # type: ignore[index]
    results = [r["data"] for r in records if r["type"] == "quiz_result"]
    assert [(r["questionId"], r["earned"]) for r in results] == [("q1", 1), ("q2", 2)]  # type: ignore[index]
    end = next(r["data"] for r in records if r["type"] == "lesson_end")
    assert {key: end[key] for key in ("score", "maxScore", "scenes")} == {"score": 3, "maxScore": 3, "scenes": 3}
    assert [item["questionId"] for item in end["review"]] == ["q1", "q2"]  # type: ignore[index]
    after = types[types.index("lesson_end") + 1:]
    assert after.count("done") == 1 and "error" not in types  # the last --say: a Q&A turn after the lesson


def test_run_lesson_stops_at_a_question_when_no_say_is_left(tmp_path: Path, private_data_dir: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    lesson(tmp_path)
    assert main(["run", str(tmp_path / "lesson.toml"), "--lesson"]) == 0
    captured = capsys.readouterr()
    assert captured.err.strip() == "maic-tui: the lesson stopped at question 'q1': no --say left to answer it"
    assert "lesson_end" not in captured.out


def test_run_needs_say_or_lesson(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "derivatives"]) == 2
    assert capsys.readouterr().err.strip() == "maic-tui: run needs --say TEXT (a learner message) or --lesson"


def test_every_sample_is_a_lesson_that_the_demo_plays_offline_to_its_end(
        private_data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    discussions = 0
    for name in sample_names():
        room = load_classroom(name)
        scripted = [scene for scene in room.scenes if scene.type == "slide" and scene.script]
        assert len(scripted) >= 3, name
        for scene in scripted:
            kinds = {step.kind for step in scene.script}
            actions = {step.action for step in scene.script if step.action}
            assert "say" in kinds and actions & {"spotlight", "laser"}, (name, scene.id)
        assert any(step.action and step.action.startswith("wb_draw") for s in scripted for step in s.script), name
        students = {a.id for a in room.agents if a.role == "student"}
        if students:
            assert any(step.agent in students for s in scripted for step in s.script), name
        questions = [q for scene in room.scenes if scene.type == "quiz" for q in scene.questions]
        assert {q.type for q in questions} & {"single", "multiple"} and "short_answer" in {q.type for q in questions}
        discussions += sum(step.kind == "discussion" for s in room.scenes for step in s.script)
        # a pause and a discussion each wait for the learner: "go on" passes them
        # (a scene that waits without a script, as a project does, is passed the same way)
        waits = sum(step.kind in ("pause", "discussion") for i, scene in enumerate(room.scenes)
                    for step in scene.steps(i))
        answers = ["go on"] * waits + [", ".join(q.answer) for q in questions]
        assert main(["run", name, "--lesson", *[arg for a in answers for arg in ("--say", a)]]) == 0
        records = _records(capsys.readouterr().out)
        assert not [r for r in records if r["type"] == "error"], name
        end = next(r["data"] for r in records if r["type"] == "lesson_end")
        assert end["score"] == end["maxScore"], name  # type: ignore[index]  # the model answers score in full
    assert discussions >= 1


def test_car_free_city_opens_with_its_students_claim_on_its_topic() -> None:
    room = load_classroom("car-free-city")
    first = room.scenes[0].script
    discussion = next(step for step in first if step.kind == "discussion")
    assert discussion.agent == room.session.trigger_agent and discussion.discussion == room.session.topic  # type: ignore[union-attr]


def test_a_grader_echoing_the_api_key_reaches_no_output_record_or_export(
        tmp_path: Path, private_data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tests.test_lesson_player import SCRIPT

    key = "sk-grader-5d41402abc4b2a76b9719d9110"
    lesson(tmp_path)
    script = {**SCRIPT, "grader": [json.dumps({"score": 1, "comment": f"Your key {key} is showing."})]}
    (tmp_path / "script.json").write_text(json.dumps(script), encoding="utf-8")
    code = main(["run", str(tmp_path / "lesson.toml"), "--lesson", "--model", f"script:{tmp_path / 'script.json'}",
                 "--api-key", key, "--say", "go on", "--say", "b", "--say", "slope and rate"])
    printed = capsys.readouterr().out
    assert code == 0
    graded = [r["data"] for r in _records(printed) if r["type"] == "quiz_result"]
    assert graded[-1]["comment"] == "Your key *** is showing." and key not in printed  # type: ignore[index]
    session_id = LogStore(private_data_dir).sessions()[0].id
    assert main(["export", session_id, "--format", "md"]) == 0
    assert "Your key *** is showing." in capsys.readouterr().out
    assert key.encode() not in b"".join(path.read_bytes() for path in private_data_dir.iterdir())


def test_the_session_lists_show_how_far_the_lesson_got_and_its_score(tmp_path: Path, private_data_dir: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "lesson.toml"
    lesson(tmp_path)
    main(["run", str(path), "--lesson", "--say", "go on", "--say", "a"])  # stops at q2, unanswered
    capsys.readouterr()
    assert main(["run", str(path), "--lesson", "--say", "go on", "--say", "b", "--say", "slope and rate"]) == 0
    capsys.readouterr()
    assert main(["run", str(path), "--say", "hello"]) == 0  # Q&A only: no lesson to report
    capsys.readouterr()
    summaries = LogStore(private_data_dir).sessions()
    assert [s.lesson for s in summaries] == ["", "lesson over · score 3/3", "scene 3/3 · score 0/3"]
    assert main(["sessions"]) == 0
    listed = capsys.readouterr().out
    assert "LESSON" in listed.splitlines()[0] and "lesson over · score 3/3" in listed and "scene 3/3" in listed


def test_each_learner_message_is_recorded_once_and_shown_as_the_log_keeps_it(tmp_path: Path,
                                                                             private_data_dir: Path) -> None:
    room = lesson(tmp_path)
    session = build_session(room, SessionRecipe("demo", ModelOptions(pace=0), data_dir=private_data_dir,
                                                classroom_name=str(tmp_path / "lesson.toml")))
    driver = TurnDriver(room)
    shown: list[Record] = []
    driver.on_record = shown.append
    driver.attach(session)

    async def answer() -> None:
        driver.start_lesson()
        await driver.play()
        for text in ("go on", "b", "What is a slope?"):  # past the pause, the first question, then a question
            driver.submit(driver.read(text))
            await driver.play()

    asyncio.run(answer())
    session.close()
    recorded = open_recorded(private_data_dir, LogStore(private_data_dir).sessions()[0].id)
    kept = [item.record for item in recorded.records if isinstance(item.record, LearnerRecord)]
    assert [record.data.text for record in kept] == ["go on", "b", "What is a slope?"]  # as typed, each once
    assert [record for record in shown if isinstance(record, LearnerRecord)] == kept  # a replay shows the same


def test_an_interrupted_turn_the_lesson_opened_is_replayed_as_the_learner_saw_it(tmp_path: Path,
                                                                                 private_data_dir: Path) -> None:
    from maic_tui.classroom import load_classroom
    from maic_tui.live.session import ClassroomSession
    from maic_tui.log.log_start import start_log
    from tests.engine_helpers import pick, text
    from tests.test_classroom import MINIMAL
    from tests.test_lesson_files import STUDENT, slide

    path = tmp_path / "talk.toml"
    path.write_text(MINIMAL + STUDENT + slide('script = [{ discussion = "Are slopes fun?", agent = "s" }, '
                                                     '{ agent = "t", say = "Back to slopes." }]'),
                    encoding="utf-8")
    room = load_classroom(path)
    script = tmp_path / "script.json"
    script.write_text(json.dumps({"director": [pick("t"), pick("USER")],
                                  "agents": {"s": [{"chunks": ['[{"type": "text", "content": "Slopes', ' are fun"}]'],
                                                    "delay_ms": 2000}],  # the message stays open: Esc ends it
                                             "t": [text("A slope is a rate.")]}}), encoding="utf-8")
    options = ModelOptions(pace=0)
    session = ClassroomSession(room, f"script:{script}", options,
                               log=start_log(private_data_dir, str(path), room, "script", options))
    driver = TurnDriver(room)
    live = ClassroomView(room)
    driver.on_record = live.record
    driver.attach(session)

    async def interrupted_then_asked() -> None:
        driver.start_lesson()
        playing = asyncio.create_task(driver.play())
        while not any(isinstance(e, AgentMessage) and e.text for e in live.entries):  # the opener speaks
            await asyncio.sleep(0.01)
        assert driver.interrupt() == "turn"
        await asyncio.wait_for(playing, 10)
        driver.submit(driver.read("What is a slope?"))
        await asyncio.wait_for(driver.play(), 10)

    asyncio.run(interrupted_then_asked())
    session.close()
    replayed = open_recorded(private_data_dir, LogStore(private_data_dir).sessions()[0].id).rebuilt.view

    def said(view: ClassroomView) -> list[tuple[str, str, bool]]:
        return [(e.agent_id, e.text, e.interrupted) for e in view.entries if isinstance(e, AgentMessage)]

    assert said(live) == [("s", "Slopes", True), ("t", "A slope is a rate.", False)]
    assert said(replayed) == said(live)
