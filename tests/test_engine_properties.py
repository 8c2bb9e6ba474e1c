"""Whatever the models say, every learner turn is a well-formed event stream (property-based)."""

from __future__ import annotations

import asyncio
import json
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from maic_tui.events import ActionEvent
from maic_tui.whiteboard import Whiteboard
from tests.engine_helpers import AGENTS, assert_well_formed, play, script_session

IDS = [a["id"] for a in AGENTS]
names = st.sampled_from([*IDS, "USER", "END", "nobody", "Ms. Hale", "user"])
director_answers = st.one_of(
    names.map(lambda n: json.dumps({"next_agent": n})),
    st.text(max_size=40),
    names.map(lambda n: f"I pick {n}"),
)
fragments = st.sampled_from([
    '[', ']', '{', '}', ',', '"', ':', '{"type":"text","content":"', 'hello ', '\\', '\\u00e9', '"}',
    '{"type":"action","name":"wb_draw_text","params":{"content":"x","x":10,"y":10}}',
    '{"type":"action","name":"wb_delete","params":{"elementId":"text_1"}}',
    '{"type":"action","name":"wb_clear","params":{}}', '```json\n', 'prose ', '\x1b[31m',
])
agent_outputs = st.one_of(st.lists(fragments, max_size=12).map("".join), st.text(max_size=60))
entries = st.one_of(
    agent_outputs,
    st.builds(lambda t, e: {"text": t, "error": e}, agent_outputs, st.sampled_from(["reset", "boom"])),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(director=st.lists(director_answers, max_size=16),
       agents=st.fixed_dictionaries({i: st.lists(entries, max_size=4) for i in IDS}),
       chunk=st.integers(1, 9), message=st.sampled_from(["What is x?", "ok", "@kim hi", "@Tom go"]))
def test_any_model_output_gives_a_well_formed_turn(director: list, agents: dict, chunk: int, message: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        session = script_session(Path(folder), {"chunk_size": chunk, "director": director, "agents": agents})
        replay = Whiteboard()  # a client applying every emitted action, across turns
        for _ in range(2):
            events = asyncio.run(play(session, message))
            assert_well_formed(events)
            for event in events:
                if isinstance(event, ActionEvent):
                    assert replay.apply(event.data.action_name, event.data.params).ok
                if event.type in ("text_delta", "error"):
                    text = event.data.content if event.type == "text_delta" else event.data.message
                    assert "\x1b" not in text
        assert replay.state()["elements"] == session.board.state()["elements"]
