"""Every director path and routing guard, driven by the script model (ARCHITECTURE.md, *One learner turn*)."""

from __future__ import annotations

from pathlib import Path

import pytest

from maic_tui.orchestration.graph.conversation import TRANSCRIPT_STEP
from maic_tui.orchestration.graph.state import TurnSettings
from maic_tui.orchestration.routing.mentions import UnknownAgentError
from tests.engine_helpers import (
    AGENTS,
    assert_well_formed,
    classroom,
    done,
    kinds,
    pick,
    play,
    script_session,
    spoken,
    text,
)


async def test_model_path_event_order_and_cue_after_the_loop(tmp_path: Path) -> None:
    session = script_session(tmp_path, {"director": [pick("teacher"), pick("END")],
                                        "agents": {"teacher": [text("A slope is a rate.")]}})
    events = await play(session, "What is a slope?")
    assert kinds(events) == ["thinking:director", "thinking:agent_loading", "agent_start", "text_delta",
                             "agent_end", "thinking:director", "cue_user", "done"]
    data = done(events).data
    assert data.end_reason == "director_end" and data.cue_user_received and data.total_agents == 1
    assert events[-2].data.from_agent_id == "teacher"
    assert [r.path for r in data.director_trace] == ["model", "model"]
    assert [r.final for r in data.director_trace] == ["teacher", "END"]
    assert spoken(events) == "A slope is a rate."


async def test_user_decision_carries_prompt_and_options(tmp_path: Path) -> None:
    cue = pick("USER", prompt="Which one?", options=["the first", "the second", "the first"])
    session = script_session(tmp_path, {"director": [pick("teacher"), cue],
                                        "agents": {"teacher": [text("Pick one.")]}})
    events = await play(session, "Show me two ways?")
    cue_event = events[-2]
    assert cue_event.type == "cue_user"
    assert cue_event.data.prompt == "Which one?" and cue_event.data.options == ["the first", "the second"]
    assert done(events).data.end_reason == "cue_user"


async def test_end_before_any_answer_is_allowed_and_nobody_is_cued(tmp_path: Path) -> None:
    session = script_session(tmp_path, {"director": [pick("END")]})
    events = await play(session, "Bye!")
    assert kinds(events) == ["thinking:director", "done"]
    assert done(events).data.end_reason == "director_end"
    assert not done(events).data.cue_user_received


async def test_end_before_anyone_answered_a_question_is_rejected_and_the_teacher_answers(tmp_path: Path) -> None:
    session = script_session(tmp_path, {"director": [pick("END"), pick("END"), pick("END")],
                                        "agents": {"teacher": [text("Rise over run.")]}})
    events = await play(session, "What is a slope?")
    first = done(events).data.director_trace[0]
    assert (first.path, first.final) == ("fallback", "teacher")  # asked twice, END both times
    assert [g.rule for g in first.guards if not g.passed] == ["cue_before_answer", "cue_before_answer"]
    assert all("question" in (g.reason or "") for g in first.guards if not g.passed)
    assert done(events).data.director_trace[-1].final == "END"  # once answered, the turn may end


async def test_single_agent_needs_no_director_model(tmp_path: Path) -> None:
    room = classroom(agents=[AGENTS[0]])
    session = script_session(tmp_path, {"agents": {"teacher": [text("Hello."), text("Again.")]}}, room)
    for _ in range(2):
        events = await play(session, "Hi")
        assert kinds(events) == ["thinking:agent_loading", "agent_start", "text_delta", "agent_end", "cue_user",
                                 "done"]
        assert [r.path for r in done(events).data.director_trace] == ["single_agent", "single_agent"]
        assert done(events).data.end_reason == "cue_user"


async def test_discussion_trigger_opens_without_a_model_call(tmp_path: Path) -> None:
    room = classroom(session={"type": "discussion", "topic": "Cars in cities", "trigger_agent": "kim"})
    session = script_session(tmp_path, {"director": [pick("teacher"), pick("USER")],
                                        "agents": {"kim": [text("Ban them!")], "teacher": [text("Why?")]}}, room)
    events = await play(session, "Go on")
    trace = done(events).data.director_trace
    assert [r.path for r in trace] == ["trigger", "model", "model"]
    assert kinds(events)[0] == "thinking:agent_loading"
    assert spoken(events, "kim") == "Ban them!"


async def test_learner_names_who_answers_first(tmp_path: Path) -> None:
    session = script_session(tmp_path, {"director": [pick("END")], "agents": {"ta": [text("Sure.")]}})
    events = await play(session, "@Tom can you help?")
    assert done(events).data.director_trace[0].path == "trigger"
    assert spoken(events, "ta") == "Sure."
    with pytest.raises(UnknownAgentError, match="@nobody"):
        await play(session, "@nobody hello")


@pytest.mark.parametrize(
    ("first", "rule"),
    [
        (pick("ghost"), "unknown_agent"),
        (pick("kim"), "student_first"),
        (pick("USER"), "cue_before_answer"),
        ("I think the teacher", "parse"),
    ],
)
async def test_rejected_choice_is_reasked_with_the_reason(tmp_path: Path, first: str, rule: str) -> None:
    session = script_session(tmp_path, {"director": [first, pick("teacher"), pick("END")],
                                        "agents": {"teacher": [text("Here is why.")]}})
    events = await play(session, "Why is the sky blue?")
    record = done(events).data.director_trace[0]
    assert record.path == "model" and record.final == "teacher"
    failed = [g for g in record.guards if not g.passed]
    assert [g.rule for g in failed] == [rule] and failed[0].reason
    assert record.raw is not None and record.raw.count("---") == 1  # both answers kept
    assert done(events).data.director_trace[1].final == "END"


async def test_same_agent_twice_is_rejected(tmp_path: Path) -> None:
    session = script_session(tmp_path, {"director": [pick("teacher"), pick("teacher"), pick("kim"), pick("END")],
                                        "agents": {"teacher": [text("One.")], "kim": [text("Two.")]}})
    events = await play(session, "Tell me more")
    second = done(events).data.director_trace[1]
    assert [g.rule for g in second.guards if not g.passed] == ["same_agent_twice"]
    assert second.final == "kim"


async def test_two_rejections_fall_back_to_the_teacher_then_the_learner(tmp_path: Path) -> None:
    session = script_session(tmp_path, {"director": [pick("kim"), pick("lee"), "nonsense", "rubbish"],
                                        "agents": {"teacher": [text("Answer.")]}})
    events = await play(session, "What is a limit?")
    trace = done(events).data.director_trace
    assert [(r.path, r.final) for r in trace] == [("fallback", "teacher"), ("fallback", "USER")]
    assert done(events).data.end_reason == "cue_user"
    assert_well_formed(events)


async def test_guards_can_be_switched_off(tmp_path: Path) -> None:
    room = classroom(routing={"guards": ["unknown_agent"], "rules": []})
    session = script_session(tmp_path, {"director": [pick("kim"), pick("USER")],
                                        "agents": {"kim": [text("Me first!")]}}, room)
    events = await play(session, "What is a limit?")
    trace = done(events).data.director_trace
    assert trace[0].final == "kim" and {g.rule for g in trace[0].guards} == {"unknown_agent"}
    assert done(events).data.end_reason == "cue_user"


async def test_agent_name_is_accepted_for_its_id(tmp_path: Path) -> None:
    session = script_session(tmp_path, {"director": ['```json\n{"next_agent": "Ms. Hale"}\n```', "end"],
                                        "agents": {"teacher": [text("Yes.")]}})
    events = await play(session, "Question?")
    assert [r.final for r in done(events).data.director_trace] == ["teacher", "END"]


async def test_agent_turn_limit(tmp_path: Path) -> None:
    room = classroom(limits={"max_agent_turns": 2})
    session = script_session(tmp_path, {"director": [pick("teacher"), pick("kim")],
                                        "agents": {"teacher": [text("A.")], "kim": [text("B.")]}}, room)
    events = await play(session, "Explain?")
    data = done(events).data
    assert data.end_reason == "agent_turn_limit" and data.total_agents == 2
    assert data.director_trace[-1].path == "limit" and data.cue_user_received


async def test_director_budget(tmp_path: Path) -> None:
    settings = TurnSettings(max_director_calls=1)
    session = script_session(tmp_path, {"director": [pick("teacher")], "agents": {"teacher": [text("A.")]}},
                             settings=settings)
    events = await play(session, "Explain?")
    assert done(events).data.end_reason == "director_budget"
    assert done(events).data.director_trace[-1].path == "limit"


async def test_budget_counts_reasks(tmp_path: Path) -> None:
    settings = TurnSettings(max_director_calls=1)
    session = script_session(tmp_path, {"director": [pick("kim")], "agents": {"teacher": [text("A.")]}},
                             settings=settings)
    events = await play(session, "What now?")
    first = done(events).data.director_trace[0]
    assert first.path == "fallback" and first.final == "teacher"  # no call left for the re-ask
    assert done(events).data.end_reason == "director_budget"


async def test_two_empty_turns_end_the_turn(tmp_path: Path) -> None:
    session = script_session(tmp_path, {"director": [pick("kim"), pick("lee")],
                                        "agents": {"kim": ["[]"], "lee": ["  "]}})
    events = await play(session, "hello there")
    data = done(events).data
    assert data.end_reason == "consecutive_empty_turns" and not data.agent_had_content
    assert not data.cue_user_received


async def test_each_turn_starts_fresh(tmp_path: Path) -> None:
    session = script_session(tmp_path, {"director": [pick("teacher"), pick("END"), pick("teacher"), pick("END")],
                                        "agents": {"teacher": [text("One."), text("Two.")]}})
    await play(session, "first?")
    events = await play(session, "second?")
    data = done(events).data
    assert data.director_state.turn_count == 1 and data.director_trace[0].step == 1
    assert [e.role for e in session.history] == ["learner", "agent", "learner", "agent"]


async def test_user_first_with_guards_off_cues_without_agents(tmp_path: Path) -> None:
    room = classroom(routing={"guards": []})
    session = script_session(tmp_path, {"director": [pick("USER", prompt="Say more?")]}, room)
    events = await play(session, "hmm")
    assert kinds(events) == ["thinking:director", "cue_user", "done"]
    assert done(events).data.total_agents == 0 and done(events).data.end_reason == "cue_user"
    assert events[1].data.from_agent_id is None and events[1].data.prompt == "Say more?"


async def test_each_decision_reads_anew_only_what_was_said_since_the_one_before(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The director's system message is the class's opening and the conversation: each one starts with the one
    before (a prompt cache reuses it whole), except where the transcript's window steps on."""
    import maic_tui.orchestration.routing.director as director_module

    systems: list[str] = []
    original = director_module.director_messages

    def recording(*args: object, **kwargs: object) -> object:
        messages = original(*args, **kwargs)  # type: ignore[arg-type]
        systems.append(str(messages[0].content))
        return messages

    monkeypatch.setattr(director_module, "director_messages", recording)
    turns = 8  # more history than the transcript's window
    session = script_session(tmp_path, {"director": [pick("teacher"), pick("kim"), pick("END")] * turns,
                                        "agents": {"teacher": [text("Rise over run.")] * turns,
                                                   "kim": [text("So a flat road is zero?")] * turns}})
    for number in range(turns):
        await play(session, f"Question {number}?")
    assert len(systems) == 3 * turns
    stepped = [n for n in range(1, len(systems)) if not systems[n].startswith(systems[n - 1])]
    assert len(stepped) <= 3 * turns // TRANSCRIPT_STEP  # 24 messages in all: the window stepped at most 3 times
    assert all(len(systems[n]) > len(systems[n - 1]) for n in range(1, len(systems)) if n not in stepped)
    assert "Question 7?" in systems[-1] and "So a flat road is zero?" in systems[-1].split("Question 7?")[1]
