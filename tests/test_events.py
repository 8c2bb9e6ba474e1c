"""The event protocol: camelCase wire form, round trips, clear errors."""

from __future__ import annotations

import json

import pytest

from maic_tui.events import (
    EVENT_TYPES,
    ActionData,
    ActionEvent,
    AgentEndData,
    AgentEndEvent,
    AgentStartData,
    AgentStartEvent,
    AgentTurnSummary,
    CueUserData,
    CueUserEvent,
    DirectorState,
    DoneData,
    DoneEvent,
    ErrorData,
    ErrorEvent,
    EventDecodeError,
    GuardVerdict,
    TextDeltaData,
    TextDeltaEvent,
    ThinkingData,
    ThinkingEvent,
    TraceRecord,
    WhiteboardActionRecord,
    from_json,
    to_json,
)

EXAMPLES = [
    ThinkingEvent(data=ThinkingData(stage="director")),
    ThinkingEvent(data=ThinkingData(stage="agent_loading", agent_id="t")),
    AgentStartEvent(data=AgentStartData(message_id="m1", agent_id="t", agent_name="T", agent_avatar="🧑",
                                        agent_color="#123456")),
    TextDeltaEvent(data=TextDeltaData(content='He said "hi"\n', message_id="m1")),
    ActionEvent(data=ActionData(action_id="a1", action_name="wb_draw_text", params={"x": 1, "elementId": "t1"},
                                agent_id="t", message_id="m1")),
    ErrorEvent(data=ErrorData(message="model server unreachable")),
    AgentEndEvent(data=AgentEndData(message_id="m1", agent_id="t")),
    CueUserEvent(data=CueUserData(from_agent_id="t", prompt="Which?", options=["A", "B"])),
    DoneEvent(data=DoneData(
        total_actions=1, total_agents=1, agent_had_content=True, cue_user_received=True, end_reason="cue_user",
        director_state=DirectorState(
            turn_count=1,
            agent_responses=[AgentTurnSummary(agent_id="t", agent_name="T", content_preview="Hi",
                                              action_count=1, whiteboard_actions=[WhiteboardActionRecord(
                                                  action_name="wb_draw_text", agent_id="t", agent_name="T",
                                                  params={"content": "x"})])],
            whiteboard_ledger=[WhiteboardActionRecord(action_name="wb_draw_text", agent_id="t", agent_name="T",
                                                      params={"x": 1})],
        ),
        director_trace=[TraceRecord(step=1, path="model", candidates=["t"], raw='{"next_agent":"t"}',
                                    parsed={"next_agent": "t"}, guards=[GuardVerdict(rule="unknown_agent",
                                                                                     passed=True)],
                                    final="t", latency_ms=12.5)],
    )),
]


def test_every_event_type_has_an_example() -> None:
    assert {e.type for e in EXAMPLES} == set(EVENT_TYPES) and len(EVENT_TYPES) == 8


@pytest.mark.parametrize("event", EXAMPLES, ids=lambda e: e.type)
def test_round_trip(event: object) -> None:
    line = to_json(event)  # type: ignore[arg-type]
    assert "\n" not in line
    assert from_json(line) == event
    assert from_json(line.encode()) == event


def test_wire_form_is_camel_case() -> None:
    wire = json.loads(to_json(EXAMPLES[2]))
    assert wire == {"type": "agent_start", "data": {"messageId": "m1", "agentId": "t", "agentName": "T",
                                                     "agentAvatar": "🧑", "agentColor": "#123456"}}
    done = json.loads(to_json(EXAMPLES[-1]))["data"]
    assert {"totalActions", "totalAgents", "agentHadContent", "cueUserReceived", "endReason", "directorState",
            "directorTrace"} <= set(done)
    assert set(done["directorState"]) == {"turnCount", "agentResponses", "whiteboardLedger"}
    assert done["directorTrace"][0]["latencyMs"] == 12.5


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('{"type":"teleport","data":{}}', "unknown event type 'teleport'"),
        ('{"data":{}}', "unknown event type None"),
        ("not json", "not JSON"),
        ("[1, 2]", "must be a JSON object"),
        ('{"type":"text_delta","data":{"content":"x"}}', "bad text_delta event: data.messageId"),
        ('{"type":"done","data":{"totalActions":0,"totalAgents":0,"agentHadContent":false,'
         '"cueUserReceived":false,"endReason":"bored"}}', "bad done event: data.endReason"),
        ('{"type":"cue_user","data":{"options":["only one"]}}', "bad cue_user event: data.options"),
    ],
)
def test_bad_lines_are_clear_errors(line: str, message: str) -> None:
    with pytest.raises(EventDecodeError) as info:
        from_json(line)
    assert message in str(info.value) and "\n" not in str(info.value)
