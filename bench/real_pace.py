"""Against the real llama.cpp server, at the default reading pace: does the class wait for its director?

Side by side in one run, on the same server and questions, with decisions made ahead off (the director decides once
the last message has been shown) and on (the default: it decides while the learner still reads):
  - the learner-visible gap between two speakers: from the moment the last word of one has been read at the pace it
    was shown at, to the first word of the next                              [median <= 0.3 s, p90 <= 1 s]
  - the same gap at a turn's end, to the hand-back to the learner (``done``)
  - the director's share of the critical path: the time the learner waited for decisions over the turn's wall
    time                                                                      [<= 10 %]
  - director calls per turn [<= 1], rule violations [0], turns with real speech, error events [0]
Then the director's prompt per decision as a session goes on: its tokens at turns 1, 10 and 30, and the tokens a
one-slot prompt cache (llama-cpp-python's) would not reuse from the prompt evaluated before it   [turn 30 <= 1.5x 1],
and over the whole session what each call reads anew (the transcript's window steps now and then: the max shows it)
"""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from bench.llama_server import llama_server
from bench.real_quality import _violations
from maic_tui.classroom import load_classroom
from maic_tui.events import AgentStartEvent, DoneEvent, ErrorEvent, Event, TextDeltaEvent
from maic_tui.live.session import ClassroomSession
from maic_tui.llm import DIRECTOR, ModelOptions
from maic_tui.llm.client import ModelClient
from maic_tui.llm.pace import READING_PACE
from maic_tui.orchestration.prompts.example import is_filler
from maic_tui.orchestration.routing.mentions import addressed

PACE = READING_PACE.chars_per_second  # the default: 250 words a minute
CLASSES = {
    "derivatives": ["What is a derivative?", "How do I differentiate x cubed?", "Why does that happen?",
                    "Can you show me on the board?", "What is the derivative of a constant?"],
    "car-free-city": ["Cars bring shops their customers, though.", "What about people who cannot walk far?",
                      "I think buses could replace most cars.", "Why would clean air matter more than shops?",
                      "So where do you stand, teacher?"],
}
LONG_SESSION = 30  # turns, for the director's prompt as a session goes on
MARKS = (1, 10, 30)


class _Counted:
    """A model whose calls are counted per caller, and the director's prompts kept in the order the server got them."""

    def __init__(self, model: Any, caller: str, seen: list[tuple[str, str]]) -> None:
        self.model, self.caller, self.seen = model, caller, seen

    async def astream(self, messages: Any, **kwargs: Any) -> AsyncIterator[Any]:
        self.seen.append((self.caller, "\n".join(str(m.content) for m in messages)))
        async for chunk in self.model.astream(messages, **kwargs):
            yield chunk


def _counting(seen: list[tuple[str, str]]) -> Any:
    original = ModelClient.model

    def counted(self: ModelClient, caller: str, name: str, schema: dict, cap: int = 1024,
                grammar_schema: dict | None = None) -> Any:
        return _Counted(original(self, caller, name, schema, cap, grammar_schema), caller, seen)

    return original, counted


def gaps(timed: list[tuple[float, Event]], pace: float) -> tuple[list[float], float | None]:
    """The silences the learner sees: between two speakers' words, and from the last word to the turn's end. A word
    is read from when it is shown until its characters have gone by at ``pace``."""
    between, read_until, speaker = [], None, None
    for moment, event in timed:
        if isinstance(event, TextDeltaEvent) and event.data.content:
            if read_until is not None and speaker is not None and event.data.message_id != speaker:
                between.append(max(0.0, moment - read_until))
            speaker = event.data.message_id
            read_until = max(moment, read_until or 0.0) + len(event.data.content) / pace
    end = timed[-1][0]
    return between, (max(0.0, end - read_until) if read_until is not None else None)


async def _class(url: str, folder: Path, name: str, ahead: bool) -> list[dict[str, Any]]:
    seen: list[tuple[str, str]] = []
    original, counted = _counting(seen)
    ModelClient.model = counted  # type: ignore[method-assign]
    room = load_classroom(name)
    session = ClassroomSession(room, "openai:smollm2", ModelOptions(base_url=url, pace=PACE), data_dir=folder)
    session.context.settings = replace(session.context.settings, decide_ahead=ahead)
    rows = []
    try:
        for question in CLASSES[name]:
            seen.clear()
            before = Counter(session.engine.foresight.outcomes)
            started = time.perf_counter()
            timed: list[tuple[float, Event]] = []
            async for event in session.turn(addressed(session.classroom.agents, question)):
                timed.append((time.perf_counter(), event))
            wall = time.perf_counter() - started
            events = [event for _, event in timed]
            done = events[-1]
            assert isinstance(done, DoneEvent)
            between, end = gaps(timed, PACE)
            owner = {e.data.message_id: e.data.agent_id for e in events if isinstance(e, AgentStartEvent)}
            speech: dict[str, str] = {}
            for e in events:
                if isinstance(e, TextDeltaEvent):
                    speech[e.data.message_id] = speech.get(e.data.message_id, "") + e.data.content
            trace = done.data.director_trace
            rows.append({
                "question": question, "wall": wall, "between": between, "end": end,
                "waited": sum((r.waited_ms or 0.0) for r in trace) / 1000,
                "calls": sum(1 for caller, _ in seen if caller == DIRECTOR),
                "ahead": sum(r.made_ahead for r in trace), "decisions": len(trace),
                "paths": [f"{r.path}:{r.final}{'*' if r.made_ahead else ''}" for r in trace],
                "speakers": [owner[m] for m in speech],
                "real_speech": any(not is_filler(text, "") for text in speech.values()),
                "errors": [e.data.message for e in events if isinstance(e, ErrorEvent)],
                "violations": _violations(room, question, events),
                "outcomes": session.engine.foresight.outcomes - before,
            })
    finally:
        ModelClient.model = original  # type: ignore[method-assign]
    return rows


async def _long_session(url: str, folder: Path) -> tuple[dict[int, tuple[float, float]], dict[str, list[int]]]:
    """Per marked turn: the director prompt's tokens per decision, and those a one-slot cache would evaluate anew;
    and over the whole session, the tokens each call (the director's, the agents') evaluates anew."""
    seen: list[tuple[str, str]] = []
    original, counted = _counting(seen)
    ModelClient.model = counted  # type: ignore[method-assign]
    session = ClassroomSession(load_classroom("derivatives"), "openai:smollm2", ModelOptions(base_url=url, pace=0.0),
                               data_dir=folder)
    questions = [q for name in CLASSES for q in CLASSES[name]]
    marked: dict[int, tuple[float, float]] = {}
    anew: dict[str, list[int]] = {"director": [], "agents": []}
    previous: list[int] = []
    try:
        for turn in range(1, LONG_SESSION + 1):
            seen.clear()
            question = questions[(turn - 1) % len(questions)]
            async for _ in session.turn(addressed(session.classroom.agents, question)):
                pass
            totals, fresh = [], []
            for caller, prompt in seen:
                ids = _token_ids(prompt)
                new = len(ids) - _common_start(previous, ids)
                if turn > 1:  # the session's first call reads the whole opening
                    anew["director" if caller == DIRECTOR else "agents"].append(new)
                if caller == DIRECTOR:
                    totals.append(len(ids))
                    fresh.append(new)
                previous = ids
            if turn in MARKS and totals:
                marked[turn] = (statistics.mean(totals), statistics.mean(fresh))
    finally:
        ModelClient.model = original  # type: ignore[method-assign]
    return marked, anew


def _token_ids(text: str) -> list[int]:
    """The prompt as the model's own tokenizer reads it (llama-cpp-python's server reports no usage while
    streaming)."""
    from llama_cpp import Llama  # type: ignore[import-not-found]

    from bench.llama_server import model_path

    global _TOKENIZER
    if _TOKENIZER is None:
        _TOKENIZER = Llama(model_path=str(model_path()), vocab_only=True, verbose=False)
    return list(_TOKENIZER.tokenize(text.encode()))


_TOKENIZER: Any = None


def _common_start(a: list[int], b: list[int]) -> int:
    """How many tokens ``b`` starts with that ``a`` also starts with: what a one-slot cache reuses."""
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def _report(title: str, rows: list[dict[str, Any]]) -> None:
    print(f"  {title}:")
    for row in rows:
        between = ", ".join(f"{g:.2f}" for g in row["between"]) or "-"
        end = f"{row['end']:.2f}" if row["end"] is not None else "-"
        print(f"    {row['wall']:6.1f} s  waited for the director {row['waited']:5.2f} s  gaps {between} s, at the end "
              f"{end} s  calls {row['calls']}  {'/'.join(row['paths'])}  {' -> '.join(row['speakers'])}  "
              f"errors={len(row['errors'])} violations={len(row['violations'])}  {row['question']}")
        for message in row["errors"] + row["violations"]:
            print(f"        ! {message}")
    between = [g for r in rows for g in r["between"]]
    ends = [r["end"] for r in rows if r["end"] is not None]
    shares = [r["waited"] / r["wall"] for r in rows if r["wall"]]
    gap_line = (f"median {statistics.median(between):.2f} s, p90 {pct(between, 0.9):.2f} s over {len(between)}"
                if between else "none (one speaker a turn)")
    print(f"    gap between speakers: {gap_line}; at a turn's end: median {statistics.median(ends):.2f} s, p90 "
          f"{pct(ends, 0.9):.2f} s; the director's share of the critical path: median {statistics.median(shares):.1%}, "
          f"at most {max(shares):.1%}")
    outcomes: Counter[str] = sum((r["outcomes"] for r in rows), Counter())
    possible = sum(outcomes.values())  # the decisions after an agent's message: the turn's first has nothing to read
    told = "; ".join(f"{reason} {count}" for reason, count in outcomes.most_common()) or "none"
    print(f"    director calls per turn {', '.join(str(r['calls']) for r in rows)}; decisions made ahead and taken "
          f"{sum(r['ahead'] for r in rows)} of the {possible} after an agent's message ({told}), of "
          f"{sum(r['decisions'] for r in rows)} decisions in all; real speech "
          f"{sum(r['real_speech'] for r in rows)}/{len(rows)}; errors {sum(len(r['errors']) for r in rows)}; "
          f"violations {sum(len(r['violations']) for r in rows)}")


async def _all(url: str, folder: Path) -> tuple[list[tuple[str, list[dict[str, Any]]]],
                                                tuple[dict[int, tuple[float, float]], dict[str, list[int]]]]:
    """Every run in one event loop: the HTTP client the model library keeps belongs to the loop it started in."""
    runs = []
    for name in CLASSES:  # off first, so a warmer server cannot flatter deciding ahead
        for ahead in (False, True):
            label = f"{name}, decisions made ahead {'on (default)' if ahead else 'off'}"
            runs.append((label, await _class(url, folder / f"{name}-{ahead}", name, ahead)))
    return runs, await _long_session(url, folder / "long")


def main() -> None:
    with tempfile.TemporaryDirectory() as folder, llama_server() as url:
        runs, (marked, anew) = asyncio.run(_all(url, Path(folder)))
    print(f"real server (llama.cpp, SmolLM2-135M), default settings, text shown at {PACE:g} characters/s:")
    for title, rows in runs:
        _report(title, rows)
    first = marked.get(1)
    print(f"  the director's prompt over a {LONG_SESSION}-turn session ('derivatives', shown at once), tokens per "
          "decision (of them not in a one-slot cache):")
    for turn, (total, fresh) in sorted(marked.items()):
        ratio = f" = {total / first[0]:.2f}x turn 1 ({fresh / first[1]:.2f}x)" if first else ""
        print(f"    turn {turn:2}: {total:6.0f} ({fresh:.0f}){ratio}")
    for caller, counts in anew.items():  # the transcript's window steps now and then: its cost shows in the max
        if counts:
            print(f"  tokens read anew per {caller} call over turns 2-{LONG_SESSION}: median "
                  f"{statistics.median(counts):.0f}, p90 {pct([float(c) for c in counts], 0.9):.0f}, max {max(counts)} "
                  f"({len(counts)} calls)")
