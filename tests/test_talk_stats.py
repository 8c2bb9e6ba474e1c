"""Talk statistics (`maic-tui stats`, the palette's "Talk statistics"): words by role and by agent counted over
whole messages (pieces split words), the learner's share, agents per turn, endings, guard interventions, fallbacks,
the median decision latency and a lesson's score, over one session or several."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from maic_tui.classroom import load_classroom
from maic_tui.cli import main
from maic_tui.log.talk import TalkStats, words
from tests.engine_helpers import classroom, pick, play, script_session, text


def test_words_are_counted_as_people_count_them() -> None:
    assert words("Don't panic: x-squared is 2x, isn't it?") == 7
    assert words("") == 0 and words(" … ") == 0


async def test_a_turn_counted_by_role_agent_and_ending(tmp_path: Path) -> None:
    room = classroom()
    session = script_session(tmp_path, {
        "chunk_size": 3,  # pieces split words: they are counted over the whole message
        "director": [pick("teacher"), pick("teacher"), pick("kim"), pick("END")],
        "agents": {"teacher": [text("A slope is a rate of change.")], "kim": [text("Like a hill?")]},
    }, room)
    stats = TalkStats.of(room)
    from maic_tui.log.records import LearnerData, LearnerRecord

    stats.add(LearnerRecord(data=LearnerData(text="What is a slope?")))
    for event in await play(session, "What is a slope?"):
        stats.add(event)
    assert stats.words_by_agent == {"teacher": 7, "kim": 3}
    assert stats.words_by_role == {"teacher": 7, "student": 3, "learner": 4}
    data = stats.as_dict()
    assert data["learnerShare"] == round(4 / 14, 4) and data["shareByRole"]["teacher"] == 0.5
    assert data["agentsPerTurn"] == 2 and data["endings"] == {"director_end": 1}
    assert data["guardInterventionsPerTurn"] == 1.0  # the teacher picked twice in a row, rejected once
    assert data["fallbacksPerTurn"] == 0.0 and data["medianDecisionMs"] is not None
    assert "by agent: Ms. Hale 50%, Kim 21%" in stats.lines()  # shares of all words, the learner's too


def test_stats_over_sessions_with_a_lesson_score(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = str(tmp_path)
    assert main(["run", "derivatives", "--say", "What is a derivative?", "--pace", "0", "--data-dir", data]) == 0
    room = load_classroom("python-loops")
    questions = [q for scene in room.scenes if scene.type == "quiz" for q in scene.questions]
    waits = sum(step.kind in ("pause", "discussion") for scene in room.scenes for step in scene.script)
    answers = ["go on"] * waits + [", ".join(q.answer) for q in questions]
    assert main(["run", "python-loops", "--lesson", *[a for said in answers for a in ("--say", said)],
                 "--pace", "0", "--data-dir", data]) == 0
    capsys.readouterr()
    assert main(["sessions", "--data-dir", data]) == 0
    ids = [line.split()[0] for line in capsys.readouterr().out.splitlines()[1:]]
    assert main(["stats", *ids, "--json", "--data-dir", data]) == 0
    both = json.loads(capsys.readouterr().out)
    assert both["sessions"] == 2 and both["learnerTurns"] == 1 + len(answers)
    assert len(both["scores"]) == 1 and both["scores"][0]["score"] == both["scores"][0]["max"] > 0
    assert abs(sum(both["shareByRole"].values()) - 1) < 0.01
    assert main(["stats", ids[-1], "--data-dir", data]) == 0  # the derivatives Q&A alone
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("1 session, 1 learner turns, 1 class turns")
    assert lines[1].startswith("talk share by role: teacher")
    assert main(["stats", "nope", "--data-dir", data]) == 2
