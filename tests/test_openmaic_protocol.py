"""Every event we emit fits OpenMAIC's own typed ``StatelessEvent``, so its clients can read our stream and
send the director state back."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from maic_tui.classroom.loader import sample_names
from maic_tui.cli import main
from tests.engine_helpers import act, items, pick, say
from tests.openmaic_protocol import STATELESS_EVENT, DirectorState


def _events(capsys: pytest.CaptureFixture[str], argv: list[str]) -> list[dict]:
    assert main(argv) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


@pytest.mark.parametrize("sample", sample_names())
def test_demo_turns_fit_openmaic_stateless_events(sample: str, capsys: pytest.CaptureFixture[str]) -> None:
    events = _events(capsys, ["demo", sample, "--json"])
    assert {e["type"] for e in events} >= {"agent_start", "text_delta", "agent_end", "done"}
    for event in events:
        STATELESS_EVENT.validate_python(event)


def test_actions_errors_and_the_director_state_fit_too(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    teacher = items(say("Here:"), act("wb_draw_text", content="slope", x=10, y=10), act("wb_open"))
    script = {"director": [pick("reyes"), pick("marcus"), pick("USER", prompt="And you?", options=["a", "b"])],
              "agents": {"reyes": [teacher], "marcus": [{"error": "boom after speech", "text": items(say("Hm"))[:-2]}]}}
    path = tmp_path / "s.json"
    path.write_text(json.dumps(script), encoding="utf-8")
    events = _events(capsys, ["run", "derivatives", "--model", f"script:{path}", "--say", "What is a slope?"])
    assert {e["type"] for e in events} >= {"action", "error", "cue_user", "done"}
    for event in events:
        STATELESS_EVENT.validate_python(event)
    state = DirectorState.model_validate(events[-1]["data"]["directorState"])
    reyes = state.agentResponses[0]
    assert [r.actionName for r in reyes.whiteboardActions] == ["wb_draw_text", "wb_open"]
    assert reyes.whiteboardActions[0].params["content"] == "slope" and reyes.whiteboardActions[0].agentId == "reyes"
