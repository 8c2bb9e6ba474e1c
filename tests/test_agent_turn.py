"""Agent generation: streaming through the parser, action checks, caps, model errors and interruption."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

from maic_tui.events import ActionEvent, AgentStartEvent, TextDeltaEvent
from maic_tui.orchestration.graph.state import TurnSettings
from maic_tui.whiteboard import Whiteboard
from tests.engine_helpers import (
    act,
    actions,
    assert_well_formed,
    classroom,
    done,
    items,
    kinds,
    learner_turn,
    pick,
    play,
    say,
    script_session,
    spoken,
    text,
)

ANSWER = items(say("Look: "), act("wb_draw_text", content="x ] y", x=10, y=10, elementId="note"),
               say('a "quoted" \\frac and ] bracket.'), act("wb_draw_latex", latex="\\frac{1}{2}", x=10, y=200))


async def _one_agent(tmp_path: Path, output: object, room=None, settings=None, agent: str = "teacher"):
    session = script_session(tmp_path, {"director": [pick(agent), pick("END")], "agents": {agent: [output]}},
                             room, settings)
    return session, await play(session, "Go on.")


async def test_speech_and_actions_keep_the_model_order_at_every_chunking(tmp_path: Path) -> None:
    expected = None
    for size in (1, 2, 3, 7, 64):
        session = script_session(tmp_path, {"chunk_size": size, "director": [pick("teacher"), pick("END")],
                                            "agents": {"teacher": [ANSWER]}})
        events = await play(session, "What?")
        order = [("a", e.data.action_name) if isinstance(e, ActionEvent) else ("t", "") for e in events
                 if isinstance(e, TextDeltaEvent | ActionEvent)]
        folded = [kind for i, kind in enumerate(order) if i == 0 or kind != order[i - 1]]
        result = (spoken(events), folded, session.board.state())
        assert folded == [("t", ""), ("a", "wb_draw_text"), ("t", ""), ("a", "wb_draw_latex")]
        assert spoken(events) == 'Look: a "quoted" \\frac and ] bracket.'
        expected = expected or result
        assert result == expected


async def test_exact_chunk_boundaries_inside_escapes(tmp_path: Path) -> None:
    chunks = ['[{"type":"text","content":"a\\', 'u00e9 \\"', 'b\\"]"}', ',{"type":"action","name":"wb_open"',
              ',"params":{}}]']
    _, events = await _one_agent(tmp_path, {"chunks": chunks})
    assert spoken(events) == 'aé "b"]'
    assert actions(events) == ["wb_open"]


async def test_reading_stops_when_the_array_closes(tmp_path: Path) -> None:
    entry = {"text": text("Done.") + " and then the model rambles on", "error": "never reached"}
    _, events = await _one_agent(tmp_path, entry)
    assert spoken(events) == "Done."
    assert "error" not in kinds(events)


async def test_runaway_output_is_cut(tmp_path: Path) -> None:
    endless = '[{"type":"text","content":"' + "la " * 400
    _session, events = await _one_agent(tmp_path, endless, settings=TurnSettings(output_char_cap=200))
    summary = done(events).data.director_state.agent_responses[0]
    assert "output cut at 200 characters" in summary.action_warnings
    assert 0 < len(spoken(events)) <= 260


async def test_rejected_actions_are_not_emitted_but_recorded(tmp_path: Path) -> None:
    output = items(say("Hm."), act("wb_draw_shape", shape="hexagon", x=1, y=1), act("wb_delete", elementId="zz"),
                   act("spotlight", elementId="missing"), act("play_video"),
                   act("wb_draw_text", content="ok", x=1, y=1))
    _, events = await _one_agent(tmp_path, output)
    assert actions(events) == ["wb_draw_text"]
    warnings = done(events).data.director_state.agent_responses[0].action_warnings
    assert warnings == ["wb_draw_shape: invalid_params: shape", "wb_delete: element_not_found: zz",
                        "spotlight: slide_element_not_found: missing", "play_video: unknown_action: play_video"]
    assert done(events).data.director_trace[0].action_warnings == warnings
    assert "error" not in kinds(events)


async def test_role_and_scene_filtering(tmp_path: Path) -> None:
    output = items(act("wb_draw_latex", latex="x", x=1, y=1), act("wb_draw_text", content="fine", x=1, y=300))
    _, events = await _one_agent(tmp_path, output, agent="lee")  # lee may only draw text
    assert actions(events) == ["wb_draw_text"]
    assert done(events).data.director_state.agent_responses[0].action_warnings == ["wb_draw_latex: not_allowed"]
    no_slides = classroom(scenes=[])
    _, events = await _one_agent(tmp_path, items(act("spotlight", elementId="t1"), say("Hi")), room=no_slides)
    warnings = done(events).data.director_state.agent_responses[0].action_warnings
    assert actions(events) == [] and "spotlight: not_allowed" in warnings
    _, events = await _one_agent(tmp_path, items(act("laser", elementId="t1"), say("Hi")))
    assert actions(events) == ["laser"]


async def test_per_agent_action_cap(tmp_path: Path) -> None:
    room = classroom(limits={"max_actions_per_agent": 2})
    output = items(*[act("wb_draw_text", content=f"n{i}", x=10, y=10 + 120 * i) for i in range(3)])
    _, events = await _one_agent(tmp_path, output, room=room)
    assert len(actions(events)) == 2
    warnings = done(events).data.director_state.agent_responses[0].action_warnings
    assert warnings[0].startswith("wb_draw_text: action_budget")


async def test_emitted_actions_replay_to_the_same_board(tmp_path: Path) -> None:
    code = items(act("wb_draw_code", language="python", code="a = 1\nb = 2", x=10, y=10, elementId="c"),
                 act("wb_edit_code", elementId="c", operation="insert_after", lineId="L1", content="x = 0"),
                 act("wb_draw_text", content="note", x=600, y=10))
    session, events = await _one_agent(tmp_path, code)
    replay = Whiteboard()
    for event in events:
        if isinstance(event, ActionEvent):
            assert replay.apply(event.data.action_name, event.data.params).ok
    assert replay.state() == session.board.state()
    assert done(events).data.director_state.whiteboard_ledger[1].params["newLineIds"] == ["L3"]


async def test_a_model_error_before_any_speech_ends_the_turn_with_one_error(tmp_path: Path) -> None:
    # Every agent shares the server: going on would fail again (or the fallback would resend the same agent).
    session = script_session(tmp_path, {"director": [pick("teacher"), pick("ta"), pick("END")],
                                        "agents": {"teacher": [{"error": "boom"}], "ta": [text("Still here.")]}})
    events = await play(session, "hello?")
    assert kinds(events) == ["thinking:director", "thinking:agent_loading", "agent_start", "error", "agent_end",
                             "done"]
    assert "boom" in next(e.data.message for e in events if e.type == "error")
    assert done(events).data.end_reason == "error" and spoken(events, "ta") == ""
    assert_well_formed(events)


async def test_model_error_mid_stream_keeps_what_was_said(tmp_path: Path) -> None:
    entry = {"text": '[{"type":"text","content":"Half an ans', "error": "connection reset"}
    session = script_session(tmp_path, {"director": [pick("teacher"), pick("END")], "agents": {"teacher": [entry]}})
    events = await play(session, "hello?")
    assert spoken(events) == "Half an ans"
    assert kinds(events)[2:6] == ["agent_start", "text_delta", "error", "agent_end"]
    assert done(events).data.end_reason == "director_end"
    assert session.history[-1].text == "Half an ans"


async def test_director_error_ends_the_turn_with_error(tmp_path: Path) -> None:
    session = script_session(tmp_path, {"director": [{"error": "server exploded"}]})
    events = await play(session, "hello?")
    assert kinds(events) == ["thinking:director", "error", "done"]
    assert done(events).data.end_reason == "error"
    exhausted = await play(session, "again?")
    assert "no more responses for the director" in exhausted[1].data.message


async def test_interrupt_stops_promptly_and_keeps_earlier_actions(tmp_path: Path) -> None:
    slow = {"chunks": [json.dumps([act("wb_draw_text", content="kept", x=10, y=10)])[:-1] + ",",
                       *[json.dumps(say(f"word {i} ")) + "," for i in range(40)],
                       json.dumps(act("wb_draw_text", content="never", x=10, y=300)) + "]"],
            "delay_ms": 50}
    session = script_session(tmp_path, {"director": [pick("teacher")], "agents": {"teacher": [slow]}})
    events: list = []
    stopped_at = 0.0

    async def consume() -> None:
        async for event in learner_turn(session, "Go slowly?"):
            events.append(event)
            if event.type == "text_delta" and "word 2" in event.data.content:
                nonlocal stopped_at
                stopped_at = time.perf_counter()
                session.interrupt()

    await asyncio.wait_for(consume(), timeout=5)
    assert time.perf_counter() - stopped_at < 0.2
    assert kinds(events)[-2:] == ["agent_end", "done"]
    assert done(events).data.end_reason == "interrupted"
    assert "cue_user" not in kinds(events)
    assert actions(events) == ["wb_draw_text"]
    assert [e.content for e in session.board.elements] == ["kept"]
    assert session.history[-1].interrupted
    assert_well_formed(events)
    assert isinstance(events[2], AgentStartEvent)


async def test_interrupt_during_the_director_call(tmp_path: Path) -> None:
    session = script_session(tmp_path, {"director": [{"chunks": ['{"next_agent"', ': "teacher"}'], "delay_ms": 500}]})
    turn = learner_turn(session, "Hello?")
    first = await turn.__anext__()
    assert first.type == "thinking"
    started = time.perf_counter()
    asyncio.get_running_loop().call_later(0.05, session.interrupt)
    rest = [event async for event in turn]
    assert time.perf_counter() - started < 0.3
    assert [e.type for e in rest] == ["done"] and rest[0].data.end_reason == "interrupted"


async def test_closing_a_turn_closes_its_run_at_once(tmp_path: Path) -> None:
    session = script_session(tmp_path, {"director": [{"chunks": ['{"next_agent"', ': "teacher"}'], "delay_ms": 500}]})
    turn = learner_turn(session, "Hello?")
    assert (await turn.__anext__()).type == "thinking"
    await turn.aclose()  # a client that fails (a closed pipe) closes the turn it was reading
    assert session._in_turn is False  # ended now, not when the garbage collector finalizes the run


async def test_a_bug_inside_the_graph_still_ends_the_turn_properly(tmp_path: Path, monkeypatch) -> None:
    import maic_tui.orchestration.routing.director as director

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("prompt builder exploded")

    session = script_session(tmp_path, {"director": [pick("teacher"), pick("END")],
                                        "agents": {"teacher": [text("Fine.")]}})
    monkeypatch.setattr(director, "director_messages", broken)
    events = await play(session, "Go on.")
    assert kinds(events) == ["thinking:director", "error", "done"]
    assert "prompt builder exploded" in next(e.data.message for e in events if e.type == "error")
    assert done(events).data.end_reason == "error"
    assert_well_formed(events)
    monkeypatch.undo()
    assert done(await play(session, "Again.")).data.end_reason == "director_end"  # the session goes on


async def test_an_agent_that_speaks_only_a_placeholder_is_an_empty_turn(tmp_path: Path) -> None:
    session = script_session(tmp_path, {"director": [pick("teacher"), pick("ta"), pick("END")],
                                        "agents": {"teacher": [text("<speech>")], "ta": [text("Real words.")]}})
    events = await play(session, "hello?")
    trace = done(events).data.director_trace
    assert any("placeholder" in w for record in trace for w in record.action_warnings)
    assert spoken(events, "ta") == "Real words."
    assert_well_formed(events)
