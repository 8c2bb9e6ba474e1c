"""`maic-tui eval --concurrency N` against a server that answers concurrently (the tests' fake OpenAI server, a fixed
0.2 s per answer, as a loaded model server takes): the same scenarios at N=1 and N=4, measured side by side in one run.
Target (issue 27): a clear speed-up at N=4, the same pass rates."""

from __future__ import annotations

import io
import json
import tempfile
import time
from pathlib import Path

from maic_tui.evaluation.eval_command import run_eval
from maic_tui.orchestration.prompts.director_request import DIRECTS
from tests.fake_openai import Reply, fake_openai

SCENARIOS = ["rule1-teacher-first", "rule5-question-to-teacher", "greeting", "off-topic"]
REPEAT = 2
DELAY = 0.2


def _answer(body: dict[str, object]) -> Reply:
    director = DIRECTS in json.dumps(body.get("messages"))
    text = '{"next_agent": "USER"}' if director else '[{"type": "text", "content": "A slope is a rate."}]'
    return Reply(text=text, stall=DELAY)


def _timed(url: str, concurrency: int, folder: Path) -> tuple[float, dict]:
    report = folder / f"report-{concurrency}.json"
    flags = {"model": ["openai:fake-model"], "base_url": url, "api_key": "bench", "structured_output": None,
             "timeout": None}
    started = time.perf_counter()
    run_eval(SCENARIOS, flags, REPEAT, str(report), io.StringIO(), io.StringIO(), concurrency)
    return time.perf_counter() - started, json.loads(report.read_text(encoding="utf-8"))


def main() -> None:
    with tempfile.TemporaryDirectory() as folder, fake_openai() as server:
        server.answer = _answer
        _timed(server.url, 1, Path(folder))  # warm-up: imports, the structured-output probe
        sequential, one = _timed(server.url, 1, Path(folder))
        concurrent, four = _timed(server.url, 4, Path(folder))
    rates = [[e["rate"] for s in r["scenarios"] for e in s["expectations"]] for r in (one, four)]
    print(f"eval, {len(SCENARIOS)} scenarios x {REPEAT} runs, {DELAY:g} s an answer (fake server, concurrent):")
    print(f"  --concurrency 1  {sequential:6.2f} s")
    print(f"  --concurrency 4  {concurrent:6.2f} s   speed-up {sequential / concurrent:.2f}x   "
          f"same pass rates: {rates[0] == rates[1]}   most requests at once: {server.most_in_flight}")
