"""Checking one turn's events against a scenario's expectations: one verdict per expectation given."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import pairwise

from maic_tui.classroom.models import Classroom
from maic_tui.evaluation.scenario import Expect
from maic_tui.events import AgentStartEvent, DoneEvent, ErrorEvent, Event, TextDeltaEvent, TraceRecord
from maic_tui.orchestration.routing.director_answer import END, USER
from maic_tui.whiteboard import Whiteboard

_REEXPLAIN = re.compile(r"\b(re-?explain|explain\b.{0,20}\bagain|repeat (the|your|that) explanation)", re.I)


@dataclass(frozen=True, slots=True)
class Verdict:
    name: str  # e.g. "first_role=teacher"
    passed: bool
    detail: str  # what was seen, for the report


@dataclass(frozen=True, slots=True)
class TurnFacts:
    """What a turn showed, gathered once from its events."""

    speakers: list[str]  # agent ids in speaking order
    speech: dict[str, str]  # message id -> text
    order: list[str]  # message ids in speaking order
    done: DoneEvent | None
    errors: list[str]

    @classmethod
    def of(cls, events: Sequence[Event]) -> TurnFacts:
        speakers, speech, errors, order = [], {}, [], []
        done = None
        for event in events:
            if isinstance(event, AgentStartEvent):
                speakers.append(event.data.agent_id)
                speech[event.data.message_id] = ""
                order.append(event.data.message_id)
            elif isinstance(event, TextDeltaEvent):
                speech[event.data.message_id] = speech.get(event.data.message_id, "") + event.data.content
            elif isinstance(event, ErrorEvent):
                errors.append(event.data.message)
            elif isinstance(event, DoneEvent):
                done = event
        return cls(speakers, speech, order, done, errors)


def check(expect: Expect, events: Sequence[Event], classroom: Classroom, board: Whiteboard) -> list[Verdict]:
    return list(_verdicts(expect, TurnFacts.of(events), classroom, board))


def _verdicts(expect: Expect, facts: TurnFacts, classroom: Classroom, board: Whiteboard) -> Iterator[Verdict]:
    roles = {agent.id: agent.role for agent in classroom.agents}
    speakers = facts.speakers
    first = speakers[0] if speakers else None
    seen = " → ".join(speakers) or "nobody spoke"
    trace = facts.done.data.director_trace if facts.done else []
    if expect.first_role is not None:
        got = roles.get(first or "", "nobody")
        yield Verdict(f"first_role={expect.first_role}", got == expect.first_role, f"first: {first} ({got})")
    if expect.no_student_first:
        yield Verdict("no_student_first", roles.get(first or "") != "student", f"first: {first}")
    if expect.first_speaker is not None:
        yield Verdict(f"first_speaker={expect.first_speaker}", first == expect.first_speaker, seen)
    for agent in expect.must_speak:
        yield Verdict(f"speaks:{agent}", agent in speakers, seen)
    for agent in expect.must_not_speak:
        yield Verdict(f"silent:{agent}", agent not in speakers, seen)
    if expect.no_repeat:
        twice = [a for a, b in pairwise(speakers) if a == b]
        yield Verdict("no_repeat", not twice, seen)
    if expect.distinct_speakers:
        yield Verdict("distinct_speakers", len(set(speakers)) == len(speakers), seen)
    if expect.no_same_role_twice:
        several_roles = len(set(roles.values())) > 1
        same = [a for a, b in pairwise(speakers) if roles.get(a) == roles.get(b)]
        yield Verdict("no_same_role_twice", not (several_roles and same), seen)
    if expect.max_agents is not None:
        yield Verdict(f"max_agents={expect.max_agents}", len(speakers) <= expect.max_agents, f"{len(speakers)} spoke")
    if expect.min_agents is not None:
        yield Verdict(f"min_agents={expect.min_agents}", len(speakers) >= expect.min_agents, f"{len(speakers)} spoke")
    if expect.end_reason is not None:
        got = facts.done.data.end_reason if facts.done else "no done event"
        yield Verdict(f"end_reason={expect.end_reason}", got == expect.end_reason, f"ended: {got}")
    if expect.no_error:
        yield Verdict("no_error", not facts.errors and facts.done is not None,
                      facts.errors[0] if facts.errors else "no errors")
    if expect.no_fallback:
        paths = [record.path for record in trace]
        yield Verdict("no_fallback", "fallback" not in paths, "paths: " + ", ".join(paths))
    rejected = {verdict.rule for record in trace for verdict in record.guards if not verdict.passed}
    for guard in expect.guard_caught:
        yield Verdict(f"guard_caught:{guard}", guard in rejected, "rejected by: " + (", ".join(sorted(rejected))
                                                                                     or "none"))
    if expect.board_not_empty:
        yield Verdict("board_not_empty", bool(board.elements), f"{len(board.elements)} elements")
    if expect.brief_instructions is not None:
        lengths = [len(text) for text in _instructions(trace)]
        longest = max(lengths, default=0)
        yield Verdict(f"brief_instructions<={expect.brief_instructions}", longest <= expect.brief_instructions,
                      f"longest instruction {longest} chars")
    if expect.no_reexplain:
        asked = [text for text in _instructions(trace) if _REEXPLAIN.search(text)]
        yield Verdict("no_reexplain", not asked, asked[0][:60] if asked else "no re-explanations asked")
    if expect.no_impersonation:
        names = [re.escape(agent.name) for agent in classroom.agents]
        pattern = re.compile(rf"^\s*\[?(?:{'|'.join(names)})\]?:", re.MULTILINE)
        found = [text for text in facts.speech.values() if pattern.search(text)]
        yield Verdict("no_impersonation", not found, found[0][:60] if found else "each spoke for themselves")
    for step, allowed in sorted(expect.decision.items(), key=lambda item: int(item[0])):
        got = next((record.final for record in trace if record.step == int(step)), "no such decision")
        yield Verdict(f"decision{step} in {'/'.join(allowed)}", got in allowed, f"decision {step}: {got}")
    if expect.not_end_after_question:
        ended = [record for record in trace if record.final == END and _after_question(record, trace, facts)]
        yield Verdict("not_end_after_question", not ended,
                      "ended right after a question to the learner" if ended else "no question left unanswered")


def _after_question(end: TraceRecord, trace: Sequence[TraceRecord], facts: TurnFacts) -> bool:
    """The decision to end came right after an agent's message that ended with a question."""
    spoke = sum(1 for record in trace if record.step < end.step and record.final not in (USER, END))
    if spoke == 0 or spoke > len(facts.order):
        return False
    return facts.speech.get(facts.order[spoke - 1], "").rstrip().endswith("?")


def _instructions(trace: Sequence[TraceRecord]) -> list[str]:
    return [str((record.parsed or {}).get("instruction") or "") for record in trace]
