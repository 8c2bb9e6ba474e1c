"""Running scenarios N times and turning the verdicts into pass rates (``maic-tui eval``)."""

from __future__ import annotations

import asyncio
import statistics
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from maic_tui.classroom import load_classroom
from maic_tui.classroom.models import Classroom
from maic_tui.evaluation.expectations import Verdict, check
from maic_tui.evaluation.scenario import Scenario, check_against, load_scenario, relative_to
from maic_tui.evaluation.stopping import StopRequest
from maic_tui.events import EVENT_TYPES, DoneEvent, Event, TraceRecord
from maic_tui.live.driver import TurnDriver
from maic_tui.live.lesson_parts import kind_lesson
from maic_tui.live.session import ClassroomSession
from maic_tui.llm import ModelOptions
from maic_tui.log.records import Record, SceneEventData
from maic_tui.orchestration.graph.conversation import HistoryEntry
from maic_tui.scenes.base import SceneChangeError
from maic_tui.scenes.live_state import SceneChange
from maic_tui.text_safety import one_line


@dataclass
class Tally:
    """One expectation of one turn of one scenario, over the repeats."""

    scenario: str
    turn: int
    name: str
    threshold: float
    passed: int = 0
    runs: int = 0
    failures: list[str] = field(default_factory=list)  # what was seen when it failed (first few)

    @property
    def rate(self) -> float:
        return self.passed / self.runs if self.runs else 0.0

    @property
    def ok(self) -> bool:
        return self.runs > 0 and self.rate >= self.threshold

    def add(self, verdict: Verdict) -> None:
        self.runs += 1
        self.passed += verdict.passed
        if not verdict.passed and len(self.failures) < 3:
            self.failures.append(verdict.detail)


@dataclass
class ScenarioRun:
    name: str
    path: Path
    scenario: Scenario
    model: str
    tallies: dict[tuple[int, str], Tally] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)  # runs that could not be played at all
    decisions: list[TraceRecord] = field(default_factory=list)  # every director decision of every run
    turns: int = 0  # turns played, over the runs
    played: int = 0  # runs tallied (fewer than asked when the eval was interrupted)


Progress = Callable[[str, int, int], None]  # scenario name, run number (1-based), runs


def prepare(name_or_path: str, model_override: str | None) -> ScenarioRun:
    path, scenario = load_scenario(name_or_path)
    check_against(path, scenario, load_classroom(relative_to(path, scenario.classroom)))
    model = model_override or (relative_to(path, scenario.model) if scenario.model else "demo")
    return ScenarioRun(path.stem, path, scenario, model)


@dataclass
class _Played:
    """What one run of a scenario showed, merged into its tallies in run order (so playing runs at once gives the
    same report as playing them one after another)."""

    verdicts: list[tuple[int, float, Verdict]] = field(default_factory=list)  # turn, threshold, verdict
    decisions: list[TraceRecord] = field(default_factory=list)
    turns: int = 0

    def into(self, run: ScenarioRun) -> None:
        for number, threshold, verdict in self.verdicts:
            tally = run.tallies.setdefault((number, verdict.name), Tally(run.name, number, verdict.name, threshold))
            tally.add(verdict)
        run.decisions += self.decisions
        run.turns += self.turns


async def _play_once(run: ScenarioRun, seed: int, options: ModelOptions, alone: bool = True) -> _Played:
    """One run of a scenario; ``alone``: no other run calls the server meanwhile (else the class is not warmed: on a
    one-slot server a warm-up would cut another run's answer short, live/warming.py)."""
    scenario = run.scenario
    classroom = load_classroom(relative_to(run.path, scenario.classroom))
    if scenario.rules is not None:
        routing = classroom.routing.model_copy(update={"rules": list(scenario.rules)})
        classroom = classroom.model_copy(update={"routing": routing})
    session = ClassroomSession(classroom, run.model, options.model_copy(update={"seed": seed, "pace": 0.0}))
    session.warming.enabled = alone
    start_where(session, scenario, classroom)
    driver = TurnDriver(classroom)
    waiting = waiting_step(session)
    driver.attach(session, with_lesson=waiting is not None)  # Q&A, unless the scene's kind reads the turns
    if waiting is not None:
        session.cursor.wait_at(*waiting)
    events: list[Event] = []
    problems: list[str] = []

    def seen(record: Record) -> None:
        if record.type in EVENT_TYPES:  # a turn's other records are the protocol's events
            events.append(cast(Event, record))

    driver.on_record, driver.on_problem_recorded = seen, problems.append  # the report keeps the English
    played = _Played()
    for number, turn in enumerate(scenario.turns, 1):
        events.clear()
        driver.submit(driver.read(turn.say))
        await driver.play()
        if problems:
            raise RuntimeError(problems[0])
        done = next((e for e in reversed(events) if isinstance(e, DoneEvent)), None)
        played.decisions += done.data.director_trace if done is not None else []
        played.turns += 1
        threshold = turn.expect.threshold if turn.expect.threshold is not None else scenario.threshold
        played.verdicts += [(number, threshold, v) for v in check(turn.expect, events, classroom, session.board)]
    return played


def waiting_step(session: ClassroomSession) -> tuple[int, int] | None:
    """The step of the scene the class is on where its kind reads the learner's replies (a project's), if any."""
    index = session.context.scene_index
    scenes = session.classroom.scenes
    part = kind_lesson(scenes[index].type) if 0 <= index < len(scenes) else None
    steps = session.cursor.scenes[index] if part is not None else []
    return next(((index, step.index) for step in steps if step.waits and part is not None and part.takes(step)),
                None)


def start_where(session: ClassroomSession, scenario: Scenario, classroom: Classroom) -> None:
    """The conversation before the scenario's turns, the scene the class is on and that scene's own records."""
    if scenario.scene is not None:
        index = next((i for i, scene in enumerate(classroom.scenes) if scene.id == scenario.scene), None)
        if index is None:
            raise ValueError(f"scene '{scenario.scene}' is not in the classroom")
        session.context.scene_index = index
    for said in scenario.history:
        agent = classroom.agent(said.who)
        if said.who == "learner":
            session.history.append(HistoryEntry(role="learner", text=said.text))
        elif said.who == "lesson":
            session.history.append(HistoryEntry(role="lesson", text=said.text))
        elif agent is not None:
            session.history.append(HistoryEntry(role="agent", text=said.text, agent_id=agent.id, name=agent.name))
        else:
            raise ValueError(f"history: '{said.who}' is neither learner, lesson nor an agent of the classroom")
    scenes = {scene.id: scene for scene in classroom.scenes}
    for number, worked in enumerate(scenario.worked):
        try:
            session.context.scene_states.change(scenes.get(worked.scene),
                                                [SceneChange(worked.verb, worked.target, worked.value)], worked.by)
        except SceneChangeError as exc:
            raise ValueError(f"worked[{number}]: {exc}") from None
    scene = session.context.scene_index
    kind = classroom.scenes[scene].type if 0 <= scene < len(classroom.scenes) else ""
    session.scene_events += [SceneEventData(scene=scene, kind=kind, name=event.name, data=event.data)
                             for event in scenario.events]


def run_scenarios(runs: list[ScenarioRun], repeat: int, options: ModelOptions,
                  progress: Progress | None = None, concurrency: int = 1, stop: StopRequest | None = None) -> None:
    """Play every scenario ``repeat`` times (seeds 0..repeat-1), tallying every expectation; up to ``concurrency``
    runs at once against the model server, with the same results as one after another. ``stop``, once requested,
    ends it early with KeyboardInterrupt: the runs played so far are tallied (``ScenarioRun.played``), the one it
    cut short is not."""
    stop = stop or StopRequest()
    plays = [(run, index) for run in runs for index in range(repeat)]
    outcomes: dict[int, _Played | str] = {}
    try:
        if concurrency <= 1:
            for number, (run, index) in enumerate(plays):
                stop.check()
                if progress is not None:
                    progress(run.name, index + 1, repeat)
                try:  # a run cut short raises KeyboardInterrupt here, so it is never tallied
                    outcomes[number] = stop.run(_play_once(run, index, options))
                except Exception as exc:  # a broken script or classroom: reported per scenario, never a traceback
                    outcomes[number] = _failure(exc)
        else:
            stop.run(_at_once(plays, repeat, options, progress, concurrency, outcomes, stop))
    finally:
        for number in sorted(outcomes):  # in play order, as one after another would tally them
            run, index = plays[number]
            _merge(run, index, outcomes[number])


async def _at_once(plays: list[tuple[ScenarioRun, int]], repeat: int, options: ModelOptions,
                   progress: Progress | None, concurrency: int, outcomes: dict[int, _Played | str],
                   stop: StopRequest) -> None:
    """``concurrency`` workers, each taking the next run as it finishes one (a bounded queue: nothing is built for
    runs not started). A task group, not gather: cancelled, it waits for every run to close before it returns."""
    queue = iter(enumerate(plays))

    async def worker() -> None:
        for number, (run, index) in queue:  # shared: each worker takes the next
            if stop.signum is not None:  # a run that absorbed the cancellation takes no other
                return
            try:
                played: _Played | str = await _play_once(run, index, options, alone=False)
            except Exception as exc:
                played = _failure(exc)
            finally:
                if progress is not None:
                    progress(run.name, index + 1, repeat)
            task = asyncio.current_task()
            if task is None or not task.cancelling():  # one cut short (that absorbed its cancellation) is not tallied
                outcomes[number] = played

    async with asyncio.TaskGroup() as group:
        for _ in range(min(concurrency, len(plays))):
            group.create_task(worker())


def _failure(exc: Exception) -> str:
    return one_line(str(exc).splitlines()[0] if str(exc) else repr(exc))


def _merge(run: ScenarioRun, index: int, outcome: _Played | str) -> None:
    run.played += 1
    if isinstance(outcome, str):
        run.errors.append(f"run {index + 1}: {outcome}")
    else:
        outcome.into(run)


def report(runs: list[ScenarioRun], repeat: int) -> dict[str, Any]:
    """The JSON report: every scenario, every expectation with its pass rate, and the overall verdict."""
    scenarios = []
    for run in runs:
        expectations = [{"turn": t.turn, "expectation": t.name, "passed": t.passed, "runs": t.runs,
                         "rate": round(t.rate, 4), "threshold": t.threshold, "ok": t.ok, "seen": t.failures}
                        for t in run.tallies.values()]
        scenarios.append({"scenario": run.name, "file": str(run.path), "description": run.scenario.description,
                          "model": run.model, "errors": run.errors,
                          "ok": not run.errors and all(e["ok"] for e in expectations),
                          "expectations": expectations})
    return {"repeat": repeat, "ok": all(s["ok"] for s in scenarios), "scenarios": scenarios, "summary": summary(runs)}


def summary(runs: list[ScenarioRun]) -> dict[str, Any]:
    """One model's figures over its runs: how often expectations held, and what its decisions cost."""
    tallies = [tally for run in runs for tally in run.tallies.values()]
    decisions = [decision for run in runs for decision in run.decisions]
    turns = sum(run.turns for run in runs)
    asked = [d.latency_ms for d in decisions if d.attempts]  # the decisions that asked the model
    used = [d.usage for d in decisions if d.usage is not None]
    rejected = sum(not v.passed for d in decisions for a in d.attempts for v in a.guards)
    return {
        "passRate": round(sum(t.passed for t in tallies) / max(1, sum(t.runs for t in tallies)), 4),
        "expectationsOk": sum(t.ok for t in tallies), "expectations": len(tallies), "turns": turns,
        "medianDecisionMs": round(statistics.median(asked), 1) if asked else None,
        "promptTokens": sum(u.prompt for u in used) if used else None,
        "completionTokens": sum(u.completion for u in used) if used else None,
        "fallbacksPerTurn": round(sum(d.path == "fallback" for d in decisions) / max(1, turns), 3),
        "interventionsPerTurn": round(rejected / max(1, turns), 3),
    }
