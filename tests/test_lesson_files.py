"""Scene scripts and quiz scenes in classroom files: what loads, and one line per problem."""

from __future__ import annotations

from pathlib import Path

import pytest

from maic_tui.classroom import load_classroom
from tests.test_classroom import MINIMAL, validate

STUDENT = """
[[agents]]
id = "s"
name = "Sam"
role = "student"
persona = "Curious."
avatar = "S"
color = "#445566"
"""
def slide(script: str) -> str:
    """A slide scene with one element and the given ``script = [...]`` line (it must come before the
    element's table in TOML)."""
    return f'\n[[scenes]]\nid = "intro"\ntitle = "Intro"\n{script}\n[[scenes.elements]]\ntype = "text"\n' \
           'id = "lead"\ntext = "Slopes"\n'

QUIZ = """
[[scenes]]
id = "check"
title = "Check"
type = "quiz"
script = [{ ask = "q1" }, { ask = "q2" }]
[[scenes.questions]]
id = "q1"
type = "single"
question = "Slope of y = 2x?"
options = [{ label = "1", value = "a" }, { label = "2", value = "b" }]
answer = ["b"]
[[scenes.questions]]
id = "q2"
type = "short_answer"
question = "What does a derivative measure?"
keywords = ["slope", "rate"]
points = 2
"""
BASE = MINIMAL + STUDENT


def test_a_lesson_with_a_script_and_a_quiz_loads(tmp_path: Path) -> None:
    script = ('script = [{ agent = "t", say = "Look here." }, { agent = "t", action = "spotlight", '
              'params = { elementId = "lead" } }, { discussion = "Are slopes everywhere?", agent = "s" }, '
              '{ pause = true, prompt = "Ready?", options = ["Yes", "Not yet"] }]\n')
    path = tmp_path / "lesson.toml"
    path.write_text(BASE + slide(script) + QUIZ, encoding="utf-8")
    room = load_classroom(path)
    intro, check = room.scenes
    assert [step.kind for step in intro.script] == ["say", "action", "discussion", "pause"]
    assert intro.script[3].options == ["Yes", "Not yet"]
    assert check.type == "quiz" and [q.id for q in check.questions] == ["q1", "q2"]
    assert check.question("q2") is not None and check.question("q2").points == 2  # type: ignore[union-attr]


@pytest.mark.parametrize(("extra", "expected"), [
    (slide('script = [{ agent = "ghost", say = "Hi" }]'), "scenes[0].script[0].agent: 'ghost' is not an agent"),
    (slide('script = [{ say = "Hi" }]'), "scenes[0].script[0]: a 'say' step needs 'agent'"),
    (slide('script = [{ agent = "t", say = "Hi", ask = "q1" }]'),
     "scenes[0].script[0]: a step is one of: say, action, discussion, pause, ask (this one has say, ask)"),
    (slide('script = [{ agent = "t", action = "spotlight", params = { elementId = "nope" } }]'),
     "scenes[0].script[0].params.elementId: 'nope' is not an element of this scene"),
    (slide('script = [{ agent = "s", action = "spotlight", params = { elementId = "lead" } }]'),
     "scenes[0].script[0].action: 's' may not use 'spotlight'"),
    (slide('script = [{ agent = "t", action = "wb_draw_text", params = { x = 1 } }]'),
     "scenes[0].script[0].params: invalid_params: content"),
    (slide('script = [{ ask = "q9" }]'), "scenes[0].script[0].ask: 'q9' is not a question of this scene"),
    (QUIZ.replace('script = [{ ask = "q1" }',
                  'script = [{ agent = "t", action = "laser", params = { elementId = "x" } }'),
     "scenes[0].script[0].action: 'laser' needs a slide; a quiz scene has none"),
    (QUIZ.replace('answer = ["b"]', 'answer = ["c"]'), "answer 'c' is not one of the option values (a, b)"),
    (QUIZ.replace('answer = ["b"]', 'answer = ["a", "b"]'), "a 'single' question has exactly one answer"),
    (QUIZ.replace('type = "quiz"\n', ''), "only a scene of type 'quiz' has questions"),
    (QUIZ + QUIZ.replace('id = "check"', 'id = "again"'), "duplicate question id 'q1' (already in scene 'check')"),
    (QUIZ.replace('keywords = ["slope", "rate"]', 'options = [{ label = "x", value = "x" }]'),
     "a short answer has no 'options'"),
    (QUIZ + '[[scenes.questions]]\nid = "q3"\ntype = "multiple"\nquestion = "?"\n'
            'options = [{ label = "x", value = "x" }]\nanswer = ["x"]\n', "needs at least two options"),
])
def test_a_broken_script_or_quiz_is_one_line_naming_where(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                         extra: str, expected: str) -> None:
    code, lines = validate(tmp_path, BASE + extra, capsys)
    assert code == 2 and any(expected in line for line in lines), lines
