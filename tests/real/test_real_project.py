"""Real-server tier (``make test-real``): one issue of the rain-garden project through to a verdict with
SmolLM2-135M: the role taken, the issue opened by its question agent (the rule, then the model speaking), the
work submitted and judged by the model. Whatever the small model answers, the verdict is a recorded structured
one (the model's, or after one re-ask the fallback that leaves the issue open), and every turn is well-formed."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from bench.llama_server import llama_server
from maic_tui.classroom import load_classroom
from maic_tui.live.lesson_player import LessonPlayer
from maic_tui.live.session import ClassroomSession
from maic_tui.llm import ModelOptions
from maic_tui.log.records import SceneEventRecord
from maic_tui.scenes.pbl.records import read_verdict
from tests.engine_helpers import lesson_reply

pytestmark = pytest.mark.real_server

WORK = "done: the downpipe by the gym floods the path, so the garden goes in that low spot, 3 m away from the wall"


@pytest.fixture(scope="module")
def server_url() -> Iterator[str]:
    with llama_server() as url:
        yield url


async def test_one_issue_goes_through_to_a_structured_verdict(server_url: str) -> None:
    options = ModelOptions(base_url=server_url, max_tokens=160, retries=1, timeout=120, pace=0.0)
    classroom = load_classroom("rain-garden")
    session = ClassroomSession(classroom, "openai:smollm2", options)
    player = LessonPlayer(session)
    project = next(i for i, scene in enumerate(classroom.scenes) if scene.type == "pbl")
    player.jump(project)
    records = [r async for r in player.play()]
    started = time.perf_counter()
    for reply in ("designer", WORK):
        records += [r async for r in lesson_reply(player, reply)]
    took = time.perf_counter() - started
    print(f"one issue, role to verdict, on SmolLM2-135M: {took:.1f} s")
    print("the project's records and the errors:", [r.data for r in records if r.type in ("error", "scene_event")])
    happened = [r.data for r in records if isinstance(r, SceneEventRecord)]
    assert [e.name for e in happened][:3] == ["role_chosen", "issue_opened", "submission"]
    verdicts = [read_verdict(e.data) for e in happened if e.name == "verdict"]
    assert len(verdicts) == 1 and verdicts[0] is not None and verdicts[0].issue == "site"
    done = [e for e in happened if e.name == "issue_done"]
    assert bool(done) == verdicts[0].complete  # a fallback never marks the issue done
    starts = sum(r.type == "agent_start" for r in records)
    assert starts == sum(r.type == "agent_end" for r in records) and starts >= 3
    errors = [r.data.message for r in records if r.type == "error"]  # type: ignore[union-attr]
    assert all("\n" not in m and not m.startswith("engine:") for m in errors), errors
