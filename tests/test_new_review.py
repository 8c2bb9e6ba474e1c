"""``maic-tui new TOPIC --review`` against the fake model server: the outline opens in the editor before any
scene is written; the scenes follow the outline as the author saved it (renamed, reordered, deleted, added, an
agent edited); a broken outline reopens with its problems; giving up writes no classroom."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from maic_tui.classroom import load_classroom
from maic_tui.cli import main
from tests.authoring_helpers import script_editor, seen
from tests.fake_openai import FakeServer, Reply, fake_openai
from tests.test_generation import DEMO, OUTLINE, QUIZ, ROSTER, scene


def answer(body: dict[str, Any]) -> Reply:
    """Each stage's answer, told apart by its prompt."""
    prompt = str(body["messages"][-1]["content"])
    if prompt.startswith("Plan a short lesson"):
        return Reply(json.dumps(OUTLINE))
    if prompt.startswith("Cast the class"):
        return Reply(json.dumps(ROSTER))
    if prompt.startswith("Write a short quiz"):
        return Reply(json.dumps(QUIZ))
    if prompt.startswith("For the lesson"):
        return Reply(json.dumps(DEMO))
    title = re.search(r'scene "([^"]+)"', prompt)
    return Reply(json.dumps(scene(title.group(1) if title else "?", "discussion" in prompt)))


def new(server: FakeServer, out: Path) -> int:
    return main(["new", "slopes", "--review", "--model", "openai:fake-model", "--base-url", server.url,
                 "--structured-output", "off", "-o", str(out)])


def scene_prompts(server: FakeServer) -> list[str]:
    return [str(r["messages"][-1]["content"]) for r in server.requests
            if str(r["messages"][-1]["content"]).startswith("Lesson ")]


@pytest.fixture(autouse=True)
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MAIC_DATA_DIR", str(tmp_path / "data"))


def test_the_scenes_follow_the_outline_as_the_author_saved_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    edited = '''title = "Slopes for cyclists"
description = "How steep a road is."

[[agents]]
name = "Ms. Hale"
role = "teacher"
persona = "Calm, and a keen cyclist."

[[agents]]
name = "Tom"
role = "assistant"
persona = "Gives everyday examples."

[[agents]]
name = "Kim"
role = "student"
persona = "Curious, asks why."
voice = { openai = "af_bella", espeak = "en+f5" }

[[scenes]]
title = "Steep and flat"
goals = ["bigger slope, steeper line"]

[[scenes]]
title = "Gradients on road signs"
goals = ["10% means 10 up per 100 along"]

[[scenes]]
title = "Rise over run"
goals = ["slope is rise over run"]
'''
    editor = script_editor(monkeypatch, tmp_path / "editor", {"write": edited})
    out = tmp_path / "slopes.toml"
    with fake_openai() as server:
        server.answer = answer
        assert new(server, out) == 0
    [shown] = seen(editor)
    assert 'title = "Slopes"' in shown and 'name = "Lee"' in shown and shown.count("\n[[scenes]]") == 3
    assert 'goals = ["ramps and roads"]' in shown  # the model's outline, as it planned it
    assert [re.search(r'scene "([^"]+)"', p).group(1) for p in scene_prompts(server)] == [  # type: ignore[union-attr]
        "Steep and flat", "Gradients on road signs", "Rise over run"]
    assert "10% means 10 up per 100 along" in scene_prompts(server)[1]
    room = load_classroom(out)
    assert room.title == "Slopes for cyclists" and [a.name for a in room.agents] == ["Ms. Hale", "Tom", "Kim"]
    assert room.agents[0].persona == "Calm, and a keen cyclist."
    assert 'voice = { openai = "onyx", espeak = "en+m3" }' in shown  # each person's voice, distinct
    voices = [a.voice for a in room.agents]
    assert voices[2] is not None and (voices[2].openai, voices[2].espeak) == ("af_bella", "en+f5")  # as written
    assert len({v.openai for v in voices}) == len({v.espeak for v in voices}) == 3  # type: ignore[union-attr]
    assert [s.title for s in room.scenes] == ["Steep and flat", "Gradients on road signs", "Rise over run",
                                              "Check yourself"]
    assert capsys.readouterr().out == f"wrote {out} · open it with: maic-tui {out}\n"


def test_a_broken_outline_reopens_with_its_problems_then_goes_on(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    editor = script_editor(monkeypatch, tmp_path / "editor",
                           {"replace": ['role = "assistant"', 'role = "teacher"']},
                           {"replace": ['role = "teacher"\npersona = "Gives', 'role = "assistant"\npersona = "Gives']})
    out = tmp_path / "slopes.toml"
    with fake_openai() as server:
        server.answer = answer
        assert new(server, out) == 0
    second = seen(editor)[1]
    problem = next(line for line in second.splitlines() if line.startswith("#!   line"))
    number = int(problem.split()[2].rstrip(":"))
    assert "agents[1].role: the class needs exactly one teacher (2 now)" in problem
    assert second.splitlines()[number - 1] == 'role = "teacher"'
    assert second.splitlines()[number - 2] == 'name = "Tom"'
    assert [a.role for a in load_classroom(out).agents] == ["teacher", "assistant", "student", "student"]


def test_a_voice_two_people_share_or_one_espeak_cannot_speak_reopens_the_plan(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    editor = script_editor(monkeypatch, tmp_path / "editor",
                           {"replace": ['openai = "nova", espeak = "en+f2"', 'openai = "onyx", espeak = "en+robot"']},
                           {"replace": ['openai = "onyx", espeak = "en+robot"', 'openai = "nova", espeak = "en+f2"']})
    with fake_openai() as server:
        server.answer = answer
        assert new(server, tmp_path / "slopes.toml") == 0
    header = [line for line in seen(editor)[1].splitlines() if line.startswith("#!   line")]
    assert [line.split(": ", 1)[1] for line in header] == [
        "agents[1].voice.openai: 'onyx' is already Ms. Hale's voice: no two agents of a class sound alike",
        "agents[1].voice.espeak: 'en+robot': espeak-ng has no variant 'robot' (m1…m8, f1…f5, croak, whisper, "
        "klatt…: see espeak-ng --voices=variant)"]


def test_giving_up_on_the_outline_writes_no_classroom(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    script_editor(monkeypatch, tmp_path / "editor", {"keep": True, "exit": 1})
    out = tmp_path / "slopes.toml"
    with fake_openai() as server:
        server.answer = answer
        assert new(server, out) == 1
    assert not out.exists() and scene_prompts(server) == []
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert err.startswith("maic-tui: the editor exited with status 1: nothing was written; the outline is kept in")


def test_a_plan_beyond_what_the_plan_allows_opens_with_its_problems_never_a_crash(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Found against the real small model: a goal of over 200 characters crashed the review. A model's goals are
    cut to what the plan allows; what the author writes beyond it is a problem on top of the reopened plan."""
    long_goal = "water " * 200
    outline = {**OUTLINE, "scenes": [{"title": "Rise over run", "points": [long_goal]}, *OUTLINE["scenes"][1:]]}
    too_long = "x" * 1001
    editor = script_editor(monkeypatch, tmp_path / "editor",
                           {"replace": ['goals = ["water', f'goals = ["{too_long}", "water']},
                           {"replace": [f'"{too_long}", ', ""]})
    out = tmp_path / "slopes.toml"
    with fake_openai(Reply(json.dumps(outline))) as server:
        server.answer = answer
        assert new(server, out) == 0
    first, second = seen(editor)
    assert not first.startswith("#!") and f'goals = ["{long_goal[:1000]}"]' in first
    assert second.startswith("#! maic-tui: this outline was not saved: 1 problem.")
    assert "scenes[0].goals[0]: String should have at most 1000 characters" in second
    assert load_classroom(out).scenes[0].title == "Rise over run"
