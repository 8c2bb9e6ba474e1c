"""Decisions the class's rules take without asking the director model (issue 28): a clear question in a Q&A class
goes to the teacher (or the assistant without one); the model is offered only the choices the guards would accept,
in the prompt and in the JSON schema; every rule switches off per classroom; token usage reaches the trace."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from maic_tui.classroom.models import Classroom
from maic_tui.live.session import ClassroomSession
from maic_tui.llm import ModelOptions
from maic_tui.orchestration.routing.guards import RoutingView, acceptable
from tests.engine_helpers import AGENTS, classroom, done, pick, play, script_session, spoken, text
from tests.fake_openai import Reply, fake_openai


def ruled(**overrides: Any) -> Classroom:
    """The test class with every routing rule on."""
    return classroom(routing={"rules": ["teacher_first", "guarded_choices"]}, **overrides)


async def test_a_clear_question_goes_to_the_teacher_without_a_director_call(tmp_path: Path) -> None:
    # the director's script holds only the decision that must be asked: after the teacher's answer
    session = script_session(tmp_path, {"director": [pick("USER")], "agents": {"teacher": [text("A limit is…")]}},
                             ruled())
    events = await play(session, "What is a limit?")
    trace = done(events).data.director_trace
    assert trace[0].path == "rule" and trace[0].final == "teacher" and trace[0].raw is None
    assert trace[0].reason == "a clear question: the teacher answers it first" and trace[0].latency_ms == 0
    assert [r.path for r in trace] == ["rule", "model"] and trace[1].final == "USER"
    assert spoken(events, "teacher") == "A limit is…" and events[0].type == "thinking"
    assert not any(e.type == "thinking" and e.data.stage == "director" for e in events[:2])  # no wait for it


async def test_without_a_teacher_the_assistant_answers_first(tmp_path: Path) -> None:
    room = ruled(agents=[a for a in AGENTS if a["role"] != "teacher"])
    session = script_session(tmp_path, {"director": [pick("USER")], "agents": {"ta": [text("Here's how.")]}}, room)
    trace = done(await play(session, "how does it work")).data.director_trace
    assert (trace[0].path, trace[0].final, trace[0].reason) == ("rule", "ta", "a clear question: the assistant "
                                                                              "answers it first")


@pytest.mark.parametrize(("message", "overrides"), [
    ("hmm, ok", {}),  # not a clear question: the director decides
    ("What is a limit?", {"routing": {"rules": ["guarded_choices"]}}),  # teacher_first switched off
    ("What is a limit?", {"routing": {"rules": []}}),
    ("What is a limit?", {"session": {"type": "discussion", "topic": "Limits", "trigger_agent": None}}),
])
async def test_the_director_is_asked_where_the_rule_does_not_apply(tmp_path: Path, message: str,
                                                                   overrides: dict[str, Any]) -> None:
    room = classroom(**({"routing": {}} | overrides))
    session = script_session(tmp_path, {"director": [pick("ta"), pick("USER")], "agents": {"ta": [text("Well…")]}},
                             room)
    trace = done(await play(session, message)).data.director_trace
    assert [(r.path, r.final) for r in trace] == [("model", "ta"), ("model", "USER")]


async def test_a_learner_who_names_an_agent_still_picks_who_answers(tmp_path: Path) -> None:
    session = script_session(tmp_path, {"director": [pick("USER")], "agents": {"kim": [text("Me!")]}}, ruled())
    trace = done(await play(session, "@kim what is a limit?")).data.director_trace
    assert (trace[0].path, trace[0].final) == ("trigger", "kim")


def test_the_choices_offered_are_those_the_guards_accept() -> None:
    from maic_tui.events import AgentTurnSummary

    room = ruled()
    before = RoutingView(room, "What is a limit?", ())
    # nobody has taught yet: no student first, no hand-back to the learner, and a question is not left unanswered
    assert acceptable(before) == ["teacher", "ta"]
    assert acceptable(RoutingView(room, "Thanks, bye", ())) == ["teacher", "ta", "kim", "lee", "END"]
    answer = AgentTurnSummary(agent_id="teacher", agent_name="Ms. Hale", content_preview="A limit…", action_count=0)
    taught = RoutingView(room, "What is a limit?", (answer,))
    assert acceptable(taught) == ["ta", "kim", "lee", "USER", "END"]  # not the teacher again
    unguarded = room.model_copy(update={"routing": room.routing.model_copy(update={"guards": []})})
    assert acceptable(RoutingView(unguarded, "What is a limit?", ())) == ["teacher", "ta", "kim", "lee", "USER",
                                                                          "END"]


async def test_the_model_is_offered_only_what_the_guards_accept_in_the_prompt_and_the_schema() -> None:
    replies = [Reply(text("A limit is where it heads."), usage=(900, 12, 0)),
               Reply(pick("kim"), usage=(1210, 9, 870)), Reply(text("So it never gets there?")),
               Reply(pick("USER"), usage=(1260, 7, 1200))]
    with fake_openai(*replies) as server:
        session = ClassroomSession(ruled(), "openai:fake-model",
                                   ModelOptions(base_url=server.url, retries=0, timeout=5.0, structured="json_schema",
                                                pace=0.0))
        events = await play(session, "What is a limit?")
    trace = done(events).data.director_trace
    assert [(r.path, r.final) for r in trace] == [("rule", "teacher"), ("model", "kim"), ("model", "USER")]
    # four calls for three decisions and two agents: the first decision took none
    assert len(server.requests) == 4 and "response_format" in server.requests[1]
    enum = server.requests[1]["response_format"]["json_schema"]["schema"]["properties"]["next_agent"]["enum"]
    assert enum == ["ta", "kim", "lee", "USER", "END"] == trace[1].candidates
    assert server.requests[1]["messages"][-1]["content"].endswith("Choose next_agent from: ta, kim, lee, USER, END.")
    assert server.requests[1]["stream_options"] == {"include_usage": True}
    later = server.requests[3]["response_format"]["json_schema"]["schema"]["properties"]["next_agent"]["enum"]
    assert later == ["teacher", "ta", "lee", "USER", "END"] == trace[2].candidates  # each decision its own choices
    usage = trace[1].usage
    assert usage is not None and (usage.prompt, usage.completion, usage.cached) == (1210, 9, 870)
    assert trace[0].usage is None  # no call, no tokens


def debate(**overrides: Any) -> Classroom:
    """The test class as a discussion Kim opens, with the discussion's rounds on."""
    return classroom(session={"type": "discussion", "topic": "Limits", "trigger_agent": "kim"},
                     routing={"rules": ["discussion_rounds"]}, **overrides)


async def test_a_discussion_round_is_the_opener_one_more_student_the_teacher_then_the_learner(tmp_path: Path) -> None:
    # one director answer in the script: a second call would find the director's list used up and fail the turn
    script = {"director": [pick("lee")], "agents": {"kim": [text("Ban them!")], "lee": [text("Not so fast.")],
                                                    "teacher": [text("Both have a point. Sam, where do you stand?")]}}
    events = await play(script_session(tmp_path, script, debate()), "Cars are noisy.")
    trace = done(events).data.director_trace
    assert [(r.path, r.final) for r in trace] == [("trigger", "kim"), ("model", "lee"), ("rule", "teacher"),
                                                  ("rule", "USER")]
    assert trace[2].reason == "a discussion round: two students spoke; the teacher sums up"
    assert trace[3].reason == "a discussion round: the students were answered; the learner has the floor"
    assert trace[2].raw is None and trace[3].raw is None and not any(e.type == "error" for e in events)
    cue = [e for e in events if e.type == "cue_user"]
    assert len(cue) == 1 and cue[0].data.from_agent_id == "teacher"  # type: ignore[union-attr]


async def test_the_teacher_answering_the_opener_hands_the_floor_back(tmp_path: Path) -> None:
    script = {"director": [pick("teacher")], "agents": {"kim": [text("Ban them!")], "teacher": [text("Why?")]}}
    trace = done(await play(script_session(tmp_path, script, debate()), "Cars are noisy.")).data.director_trace
    assert [(r.path, r.final) for r in trace] == [("trigger", "kim"), ("model", "teacher"), ("rule", "USER")]


@pytest.mark.parametrize(("room", "director"), [
    (classroom(session={"type": "discussion", "topic": "Limits", "trigger_agent": "kim"}, routing={"rules": []}),
     ["lee", "teacher", "USER"]),  # switched off
    (classroom(routing={"rules": ["discussion_rounds"]}), ["kim", "lee", "teacher", "USER"]),  # Q&A has no rounds
])
async def test_without_a_discussion_round_the_director_decides_every_step(tmp_path: Path, room: Classroom,
                                                                         director: list[str]) -> None:
    script = {"director": [pick(a) for a in director],
              "agents": {"kim": [text("Ban them!")], "lee": [text("No.")], "teacher": [text("Hm.")]}}
    trace = done(await play(script_session(tmp_path, script, room), "Cars are noisy.")).data.director_trace
    assert [(r.path, r.final) for r in trace][-3:] == [("model", "lee"), ("model", "teacher"), ("model", "USER")]


def _turn(agent_id: str, said: str = "Something.") -> Any:
    from maic_tui.events import AgentTurnSummary

    return AgentTurnSummary(agent_id=agent_id, agent_name=agent_id.title(), content_preview=said, action_count=0)


@pytest.mark.parametrize(("spoken", "expected"), [
    ((), None),  # the trigger or the director opens
    (("kim",), None),  # one more voice: the director picks it
    (("kim", "lee"), "teacher"),
    (("kim", "lee", "teacher"), "USER"),
    (("kim", "ta"), "USER"),  # the assistant answered the student
    (("teacher", "kim"), None),  # the teacher opened: nobody has answered the student yet
    (("teacher", "kim", "lee"), "teacher"),
    (("kim", ""), None),  # a turn that said nothing is no voice
    (("ta", "kim", "lee"), "teacher"),  # the assistant's opening answered no student
])
def test_where_a_discussion_round_stands(spoken: tuple[str, ...], expected: str | None) -> None:
    from maic_tui.orchestration.routing.guards import discussion_round

    turns = tuple(_turn(a) if a else _turn("lee", "") for a in spoken)
    assert discussion_round(RoutingView(debate(), "Cars are noisy.", turns)) == expected


def test_a_discussion_without_its_teacher_is_summed_up_by_the_assistant() -> None:
    from maic_tui.orchestration.routing.guards import discussion_round

    room = debate(agents=[a for a in AGENTS if a["role"] != "teacher"])
    assert discussion_round(RoutingView(room, "Cars are noisy.", (_turn("kim"), _turn("lee")))) == "ta"
    students = debate(agents=[a for a in AGENTS if a["role"] == "student"])
    assert discussion_round(RoutingView(students, "Cars are noisy.", (_turn("kim"), _turn("lee")))) is None


async def test_after_the_teacher_asks_the_learner_a_question_only_the_learner_may_have_the_floor(
        tmp_path: Path) -> None:
    script = {"director": [pick("kim"), pick("lee"), pick("USER")],
              "agents": {"teacher": [text("Bring the power down. Can you guess the derivative of x to the fifth?")]}}
    room = classroom(routing={"rules": ["teacher_first"]})
    events = await play(script_session(tmp_path, script, room), "How do I differentiate x cubed?")
    trace = done(events).data.director_trace
    assert [(r.path, r.final) for r in trace] == [("rule", "teacher"), ("fallback", "USER")]
    assert "teacher asked the learner a question; the learner has the floor now: choose USER" in trace[1].reason
    assert [v.passed for v in trace[1].guards if v.rule == "floor_after_question"] == [False, False]
    assert spoken(events, "kim") == "" and spoken(events, "lee") == ""
    switched_off = classroom(routing={"rules": ["teacher_first"], "guards": ["unknown_agent", "same_agent_twice"]})
    script["agents"]["kim"] = [text("x to the fourth!")]
    trace = done(await play(script_session(tmp_path, script, switched_off), "How?")).data.director_trace
    assert [(r.path, r.final) for r in trace][:2] == [("rule", "teacher"), ("model", "kim")]


@pytest.mark.parametrize(("speaker", "said", "expected"), [
    ("teacher", "Bring the power down. Can you guess the derivative of x to the fifth?", True),
    ("ta", "Which one would a speed camera measure?", True),
    ("ta", "Which one would a speed camera measure?\n", True),
    ("teacher", "Is it clear? Good. Now the power rule.", False),  # the question is not where it ends
    ("teacher", "What do you think, Kim?", False),  # put to a student by name
    ("teacher", "Lee, why would that be?", False),
    ("kim", "Can I ask something?", False),  # a student's question is not the teacher's
    ("teacher", "", False),
])
def test_who_asked_the_learner(speaker: str, said: str, expected: bool) -> None:
    from maic_tui.orchestration.routing.director_answer import Decision
    from maic_tui.orchestration.routing.guards import asked_the_learner, check

    view = RoutingView(classroom(), "How?", (_turn(speaker, said[:100]),), said)
    assert asked_the_learner(view) is expected
    verdict = next(v for v in check(Decision("kim"), view) if v.rule == "floor_after_question")
    assert verdict.passed is not expected and next(
        v for v in check(Decision("USER"), view) if v.rule == "floor_after_question").passed


async def test_step_mode_shows_the_guard_against_a_student_after_the_teachers_question(tmp_path: Path) -> None:
    from maic_tui.orchestration.routing.manual import QueuedPicks

    script = {"director": [], "agents": {"teacher": [text("Which one would a speed camera measure?")],
                                         "lee": [text("Does it still work if the car stops dead?")]}}
    session = script_session(tmp_path, script, classroom(routing={"rules": ["teacher_first"]}))
    session.context.picker = QueuedPicks(["teacher", "lee", "USER"])
    trace = done(await play(session, "Why does it matter?")).data.director_trace
    pick_lee = next(r for r in trace if r.final == "lee")
    assert pick_lee.path == "manual"
    assert [(v.rule, v.passed) for v in pick_lee.guards if v.rule == "floor_after_question"] == [
        ("floor_after_question", False)]


async def test_the_demo_gives_the_learner_the_floor_after_its_teachers_question(tmp_path: Path) -> None:
    from maic_tui.classroom.loader import load_classroom

    session = ClassroomSession(load_classroom("derivatives"), "demo", ModelOptions(pace=0))
    trace = done(await play(session, "What is a derivative?")).data.director_trace
    assert [r.final for r in trace] == ["reyes", "priya", "theo", "USER"]  # theo's question ends the class's part
    assert all(v.passed for r in trace for v in r.guards)
