"""Step mode without a screen: `run --pick` forces decisions in order across turns, a pick stands where a guard
objects (and the objection is recorded), the tester may ask the director's proposal first; `run --resume` goes on
with a recorded session."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from maic_tui.cli import main
from maic_tui.events import TraceRecord
from maic_tui.orchestration.routing.picking import DecisionRequest
from tests.engine_helpers import done, pick, play, script_session, text


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[dict[str, object]], str]:
    code = main(["run", *args, "--pace", "0"])
    out, err = capsys.readouterr()
    return code, [json.loads(line) for line in out.splitlines()], err


def _traces(events: list[dict[str, object]]) -> list[list[TraceRecord]]:
    return [[TraceRecord.model_validate(r) for r in e["data"]["directorTrace"]]  # type: ignore[index]
            for e in events if e["type"] == "done"]


def _speakers(events: list[dict[str, object]]) -> list[str]:
    return [e["data"]["agentId"] for e in events if e["type"] == "agent_start"]  # type: ignore[index]


def test_a_pick_stands_where_a_guard_objects_and_the_objection_is_recorded(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = str(tmp_path)
    code, events, _ = _run(capsys, "derivatives", "--say", "What is a derivative?", "--pick", "juno",
                           "--pick", "user", "--data-dir", data)
    assert code == 0
    (trace,) = _traces(events)
    assert _speakers(events) == ["juno"]  # a student first, as the tester asked, where the rule says the teacher
    first, second = trace
    assert (first.path, first.final, second.path, second.final) == ("manual", "juno", "manual", "USER")
    objection = [v for v in first.guards if not v.passed]
    assert [v.rule for v in objection] == ["student_first"]
    assert first.reason is not None and first.reason.startswith("picked by the tester; student_first objected")
    assert first.attempts == [] and first.proposal is None  # the director was not asked
    assert events[-2]["type"] == "cue_user"


def test_picks_run_in_order_across_turns_then_the_director_decides(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, events, _ = _run(capsys, "derivatives", "--say", "What is a derivative?", "--say", "And x squared?",
                           "--pick", "theo", "--pick", "END", "--pick", "lena", "--data-dir", str(tmp_path))
    assert code == 0
    first, second = _traces(events)
    assert [(r.path, r.final) for r in first] == [("manual", "theo"), ("manual", "END")]
    assert (second[0].path, second[0].final) == ("manual", "lena")
    assert all(r.path != "manual" for r in second[1:])  # the picks ran out: the director decides again
    assert _speakers(events)[:2] == ["theo", "lena"]


def test_a_pick_not_in_the_class_is_one_line_and_records_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, events, err = _run(capsys, "derivatives", "--say", "Hi?", "--pick", "zoe", "--data-dir", str(tmp_path))
    assert code == 2 and events == []
    assert err.strip() == ("maic-tui: --pick zoe: not in this class; choose one of reyes, theo, juno, priya, "
                           "marcus, lena, USER or END")
    assert main(["sessions", "--data-dir", str(tmp_path)]) == 0
    assert "No sessions recorded yet" in capsys.readouterr().out


async def test_the_tester_may_see_the_proposal_then_pick_or_let_it_stand(tmp_path: Path) -> None:
    session = script_session(tmp_path, {"director": [pick("teacher"), pick("teacher"), pick("kim")],
                                        "agents": {"teacher": [text("A rate.")], "lee": [text("Like a hill?")]}})
    seen: list[DecisionRequest] = []

    async def tester(request: DecisionRequest) -> str | None:
        seen.append(request)
        if request.step == 3:
            return "END"  # without asking
        proposal = await request.propose()
        if request.step == 1:
            assert (proposal.final, proposal.path) == ("teacher", "model")
            return None  # accept it
        assert (proposal.final, proposal.path) == ("kim", "model")  # the repeat was rejected, the re-ask taken
        assert proposal.verdicts and all(v.passed for v in proposal.verdicts)
        return "lee"

    session.context.picker = tester
    events = await play(session, "What is a slope?")
    trace = done(events).data.director_trace
    assert seen[0].choices == ("teacher", "ta", "kim", "lee", "USER", "END")  # in class-list order
    assert [(r.path, r.final) for r in trace] == [("model", "teacher"), ("manual", "lee"), ("manual", "END")]
    second = trace[1]
    assert second.proposal == "kim" and len(second.attempts) == 2
    assert second.reason == "picked by the tester; the director proposed kim"
    assert [v.rule for v in second.attempts[0].guards if not v.passed] == ["same_agent_twice"]


def test_run_resume_goes_on_with_a_recorded_session(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = str(tmp_path)
    assert _run(capsys, "derivatives", "--say", "What is a derivative?", "--data-dir", data)[0] == 0
    assert main(["sessions", "--data-dir", data]) == 0
    session = capsys.readouterr().out.splitlines()[1].split()[0]
    code, events, _ = _run(capsys, "--resume", session, "--say", "why?", "--data-dir", data)
    assert code == 0 and events[-1]["type"] == "done"
    first_id = next(e["data"]["messageId"] for e in events if e["type"] == "agent_start")  # type: ignore[index]
    assert not first_id.startswith("m1-")  # the message numbering goes on
    assert main(["sessions", "--data-dir", data]) == 0
    rows = capsys.readouterr().out.splitlines()[1:]
    assert len(rows) == 1 and rows[0].split()[0] == session and "why?" in rows[0]
    assert main(["run", "derivatives", "--resume", session, "--say", "x", "--data-dir", data]) == 2
    assert "one of them" in capsys.readouterr().err
