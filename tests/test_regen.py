"""``maic-tui regen`` against the fake model server: one scene made again with the note in its prompt, every
other byte of the file as it was (comments too), a new scene put in, a quiz's questions, a dry run's diff, and
the faults (a failing model, a missing scene, an invalid file, Ctrl-C) that leave the file as it was."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from maic_tui.classroom import load_classroom
from maic_tui.cli import main
from maic_tui.paths import SAMPLES_DIR
from tests.fake_openai import FakeServer, Reply, fake_openai

SAMPLE = (SAMPLES_DIR / "derivatives.toml").read_text(encoding="utf-8")
COMMENTED = SAMPLE.replace('[[scenes]]\nid = "shortcuts"', '# the shortcuts scene, kept by hand\n[[scenes]]\n'
                           'id = "shortcuts"')
SCENE = {"elements": [{"kind": "title", "text": "Limits with money", "items": []},
                      {"kind": "bullets", "text": "", "items": ["interest per day", "per hour", "per instant"]}],
         "lines": [{"agent": "reyes", "say": "Think of interest paid per day, then per hour, then per instant.",
                    "point_at": 1, "board": "rate = change / time"},
                   {"agent": "priya", "say": "So the limit is the rate at one instant?", "point_at": 9, "board": ""}]}
QUIZ = {"questions": [
    {"type": "single", "question": "Derivative of x^3?", "options": ["3x^2", "x^2"], "correct": [0],
     "model_answer": "", "keywords": [], "analysis": "Bring the 3 down."},
    {"type": "short_answer", "question": "What is a derivative?", "options": [], "correct": [],
     "model_answer": "The slope at a point.", "keywords": ["slope"], "analysis": "A rate of change."}]}


@pytest.fixture
def classroom(tmp_path: Path) -> Path:
    path = tmp_path / "class.toml"
    path.write_text(COMMENTED, encoding="utf-8")
    return path


def flags(server: FakeServer) -> list[str]:
    return ["--model", "openai:fake-model", "--base-url", server.url, "--structured-output", "off"]


def prompt_of(request: dict[str, Any]) -> str:
    return "\n".join(str(m.get("content", "")) for m in request["messages"])




def test_one_scene_is_made_again_with_the_note_and_every_other_byte_stays(
        classroom: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with fake_openai(Reply(json.dumps(SCENE))) as server:
        assert main(["regen", str(classroom), "definition", "--note", "add an example with money",
                     *flags(server)]) == 0
    prompt = prompt_of(server.requests[0])
    assert "The author's instruction for this scene: add an example with money" in prompt
    assert 'The scene before, "Slopes everywhere"' in prompt and 'The scene after, "Shortcuts' in prompt
    assert "Here is the definition." in prompt  # the scene as it is now
    new = classroom.read_text(encoding="utf-8")
    old_start = COMMENTED.index('[[scenes]]\nid = "definition"')
    old_end = COMMENTED.index("\n\n# the shortcuts scene")
    new_start = new.index('[[scenes]]\nid = "definition"')
    new_end = new.index("\n\n# the shortcuts scene")
    assert new[:new_start] == COMMENTED[:old_start] and new[new_end:] == COMMENTED[old_end:]
    room = load_classroom(classroom)
    scene = next(s for s in room.scenes if s.id == "definition")
    assert scene.title == "The limit definition" and scene.elements[0].text == "Limits with money"
    assert next(step.say for step in scene.script if step.say).startswith("Think of interest")
    assert capsys.readouterr().out == f"wrote {classroom}: scene 2 (definition) (1 model call)\n"


def test_a_dry_run_prints_a_diff_and_writes_nothing(classroom: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with fake_openai(Reply(json.dumps(SCENE))) as server:
        assert main(["regen", str(classroom), "2", "--dry-run", *flags(server)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"--- a/{classroom}\n+++ b/{classroom}\n@@ ")
    assert '+  { agent = "reyes", say = "Think of interest paid per day' in out
    assert '-  { agent = "priya", say = "But what if h is exactly zero?' in out
    assert classroom.read_text(encoding="utf-8") == COMMENTED


def test_a_new_scene_goes_where_the_author_says_and_nothing_else_moves(
        classroom: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with fake_openai(Reply(json.dumps(SCENE))) as server:
        assert main(["regen", str(classroom), "--add-after", "definition", "Limits and money",
                     *flags(server)]) == 0
    assert 'Lesson "Derivatives: the slope of a curve", scene "Limits and money"' in prompt_of(server.requests[0])
    new = classroom.read_text(encoding="utf-8")
    start = new.index('[[scenes]]\nid = "limits-and-money"')
    end = new.index("\n\n# the shortcuts scene")
    assert new[:start] + new[end + 2:] == COMMENTED
    assert [s.id for s in load_classroom(classroom).scenes] == ["intro", "definition", "limits-and-money",
                                                                "shortcuts", "secant", "check"]


def test_a_quizs_questions_are_made_again(classroom: Path) -> None:
    with fake_openai(Reply(json.dumps(QUIZ))) as server:
        assert main(["regen", str(classroom), "check", "--questions", "--note", "harder", *flags(server)]) == 0
    assert "The author's instruction for this scene: harder" in prompt_of(server.requests[0])
    new = classroom.read_text(encoding="utf-8")
    start = new.index('[[scenes]]\nid = "check"')
    old_start = COMMENTED.index('[[scenes]]\nid = "check"')
    assert new[:start] == COMMENTED[:old_start]
    assert new[new.index("\n# --- demo material"):] == COMMENTED[COMMENTED.index("\n# --- demo material"):]
    quiz = load_classroom(classroom).scenes[-1]
    assert quiz.title == "Check yourself" and [q.question for q in quiz.questions] == [
        "Derivative of x^3?", "What is a derivative?"]


def test_a_bad_request_is_one_line_before_any_model_call(classroom: Path, tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    with fake_openai(Reply(json.dumps(SCENE))) as server:
        assert main(["regen", str(classroom), "nowhere", *flags(server)]) == 2
        assert capsys.readouterr().err.strip() == ("maic-tui: no scene 'nowhere': the scenes are intro, definition, "
                                                   "shortcuts, secant, check (or 1-5)")
        assert main(["regen", str(classroom), "intro", "--questions", *flags(server)]) == 2
        assert "is a slide" in capsys.readouterr().err
        broken = tmp_path / "broken.toml"
        broken.write_text(COMMENTED.replace('role = "student"', 'role = "pupil"', 1), encoding="utf-8")
        assert main(["regen", str(broken), "intro", *flags(server)]) == 1
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and "is not valid (1 problem; first:" in err[0] and "fix it first" in err[0]
        assert main(["regen", str(classroom), "intro"]) == 2  # the demo model writes no scenes
        assert "needs a real model" in capsys.readouterr().err
        assert server.requests == []
    assert classroom.read_text(encoding="utf-8") == COMMENTED


def test_a_failing_model_leaves_the_file_as_it_was(classroom: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with fake_openai() as server:
        server.answer = lambda body: Reply(status=500, text="the server broke")
        assert main(["regen", str(classroom), "intro", *flags(server), "--timeout", "5"]) == 1
    err = [line for line in capsys.readouterr().err.splitlines() if not line.startswith("[")]  # not progress
    assert len(err) == 1 and err[0].endswith(f"(stage scene); {classroom} is as it was")
    assert classroom.read_text(encoding="utf-8") == COMMENTED


def test_an_answer_that_never_validates_leaves_the_file_as_it_was(classroom: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    nobody = {**SCENE, "lines": [{"agent": "ghost", "say": "Boo.", "point_at": 0, "board": ""}]}
    with fake_openai(*[Reply(json.dumps(nobody))] * 3) as server:
        assert main(["regen", str(classroom), "intro", *flags(server)]) == 1
    assert len(server.requests) == 3 and "'ghost' is not an agent id" in prompt_of(server.requests[1])
    assert classroom.read_text(encoding="utf-8") == COMMENTED


def test_ctrl_c_while_the_model_thinks_writes_nothing(classroom: Path) -> None:
    with fake_openai(Reply(json.dumps(SCENE), stall=20)) as server:
        process = subprocess.Popen([sys.executable, "-m", "maic_tui", "regen", str(classroom), "intro",
                                    *flags(server)], stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 20
        while not server.requests and time.monotonic() < deadline:
            time.sleep(0.05)
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=20)
    assert process.returncode == 130 and err.strip().endswith(f"stopped; {classroom} is as it was")
    assert classroom.read_text(encoding="utf-8") == COMMENTED
