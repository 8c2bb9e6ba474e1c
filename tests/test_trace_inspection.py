"""What the trace inspector and `maic-tui trace` read: each decision's prompt, its answers one by one with the guards'
verdicts on each, why it went that way, and the message it produced; a session's decisions grouped by turn."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from maic_tui.cli import main
from maic_tui.room.decision_detail import as_text, row, why
from maic_tui.room.view import ClassroomView
from tests.engine_helpers import classroom, done, pick, play, script_session, text
from tests.session_helpers import write_script

REPEAT_THEN_HAND_OVER = {
    "director": [pick("teacher"), pick("teacher"), pick("USER", prompt="Your turn?"), pick("END")],
    "agents": {"teacher": [text("A slope is a rate."), text("Again?")]},
}


async def test_a_rejected_answer_and_the_accepted_one_are_kept_apart_with_the_prompt(tmp_path: Path) -> None:
    session = script_session(tmp_path, REPEAT_THEN_HAND_OVER)
    events = await play(session, "What is a slope?")
    first, second = done(events).data.director_trace
    parsed = first.attempts[0].parsed
    assert first.final == "teacher" and len(first.attempts) == 1 and parsed and parsed["next_agent"] == "teacher"
    assert [m.role for m in first.prompt] == ["system", "user"]
    assert "What is a slope?" in first.prompt[0].content and "Rules:" in first.prompt[0].content
    assert second.final == "USER" and len(second.attempts) == 2
    rejected, accepted = second.attempts
    assert '"teacher"' in rejected.raw and '"USER"' in accepted.raw
    failed = [v for v in rejected.guards if not v.passed]
    assert [v.rule for v in failed] == ["same_agent_twice"] and "teacher just spoke" in (failed[0].reason or "")
    assert all(v.passed for v in accepted.guards)
    # The reason says the first answer was not taken, and why; the one-line "why" names the guard.
    assert second.reason is not None and "asked again after: teacher just spoke" in second.reason
    assert why(second).startswith("✗ same_agent_twice: teacher just spoke")
    assert why(first) == "the director's choice"


async def test_the_view_groups_a_sessions_decisions_by_turn_and_links_the_messages(tmp_path: Path) -> None:
    room = classroom()
    session = script_session(tmp_path, {**REPEAT_THEN_HAND_OVER,
                                        "director": [*REPEAT_THEN_HAND_OVER["director"][:3], pick("teacher"),
                                                     pick("END")]}, room)
    view = ClassroomView(room)
    for message in ("What is a slope?", "And a curve?"):
        view.learner(message)
        for event in await play(session, message):
            view.apply(event)
    first, second = view.decisions.turns
    assert (first.number, first.said, second.number, second.said) == (1, "What is a slope?", 2, "And a curve?")
    assert [r.final for r in first.records] == ["teacher", "USER"]
    spoke = first.message_of(first.records[0])
    assert spoke is not None and spoke == first.starts[0][1]
    assert first.message_of(first.records[1]) is None  # the hand-over sent nobody
    assert second.message_of(second.records[0]) not in (None, spoke)
    assert view.trace == second.records  # the newest turn's decisions
    line = row(second, second.records[1])
    assert line.startswith("2.2 model END: the director ended the turn · ") and line.endswith(" ms")
    detail = as_text(first, first.records[1])
    for part in ("== Attempt 1", "== Attempt 2", "✗ same_agent_twice: teacher just spoke", "== Prompt: system",
                 "== Prompt: user", "What is a slope?", "no message (USER)", "tokens: not reported"):
        assert part in detail, part


def _recorded(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    script = write_script(tmp_path, {"director": [pick("USER")],  # the first decision is the rule's
                                     "agents": {"reyes": [text("A derivative is a slope.")]}})
    data = str(tmp_path / "data")
    assert main(["run", "derivatives", "--model", script, "--say", "What is a derivative?", "--data-dir", data]) == 0
    capsys.readouterr()
    assert main(["sessions", "--data-dir", data]) == 0
    return capsys.readouterr().out.splitlines()[1].split()[0]


def test_the_trace_command_lists_details_and_exports_a_sessions_decisions(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    session = _recorded(tmp_path, capsys)
    data = str(tmp_path / "data")
    assert main(["trace", session, "--data-dir", data]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == 'turn 1 · "What is a derivative?"'
    assert lines[1].split()[:3] == ["1.1", "rule", "reyes:"]  # a clear question: the teacher, without a call
    assert lines[2].split()[:3] == ["1.2", "model", "USER:"]
    assert main(["trace", session[:12], "--turn", "1", "--data-dir", data]) == 0
    detail = capsys.readouterr().out
    assert "tokens: no model call" in detail and '== Attempt 1\nraw answer:\n{"next_agent": "USER"}' in detail
    assert "== Prompt: system" in detail and "message m1-reyes" in detail
    assert main(["trace", session, "--json", "--data-dir", data]) == 0
    turn = json.loads(capsys.readouterr().out)
    assert turn["turn"] == 1 and [d["final"] for d in turn["decisions"]] == ["reyes", "USER"]
    assert turn["decisions"][0]["messageId"] == "m1-reyes" and turn["decisions"][1]["attempts"][0]["guards"]
    assert main(["trace", session, "--turn", "3", "--data-dir", data]) == 2
    err = capsys.readouterr().err.strip()
    assert err.endswith("has no decisions in turn 3 (turns with decisions: 1)") and "\n" not in err
    assert main(["trace", "nope", "--data-dir", data]) == 2
    assert "nope" in capsys.readouterr().err
