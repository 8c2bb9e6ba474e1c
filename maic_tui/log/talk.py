"""Talk statistics of one session or many (ARCHITECTURE.md, *The routing workbench*): who talks how much (words, by
role and by agent, the learner's share), agents per turn, how turns end, guard interventions and fallbacks per turn,
the director's median decision latency, and a lesson's score. Fed one record at a time, so a live session, a resumed
one, a replay and ``maic-tui stats`` count alike."""

from __future__ import annotations

import re
import statistics
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from maic_tui.classroom.models import Classroom
from maic_tui.events import AgentEndEvent, AgentStartEvent, DoneEvent, TextDeltaEvent
from maic_tui.log.records import LearnerRecord, LessonEndRecord, Record

LEARNER = "learner"
_WORD = re.compile(r"[^\W_]+(?:['’-][^\W_]+)*")


def words(text: str) -> int:
    return len(_WORD.findall(text))


@dataclass
class TalkStats:
    sessions: int = 0
    learner_turns: int = 0
    words_by_agent: Counter[str] = field(default_factory=Counter)  # agent id -> words spoken
    words_by_role: Counter[str] = field(default_factory=Counter)  # role (and "learner") -> words
    names: dict[str, str] = field(default_factory=dict)  # agent id -> name, for the table
    agents_per_turn: list[int] = field(default_factory=list)  # per engine turn
    endings: Counter[str] = field(default_factory=Counter)  # end reason -> turns
    interventions: int = 0  # director answers a guard rejected
    fallbacks: int = 0
    latencies_ms: list[float] = field(default_factory=list)  # decisions that asked the model
    scores: list[tuple[int, int]] = field(default_factory=list)  # a finished lesson's (score, max)
    _speakers: dict[str, str] = field(default_factory=dict)  # message id -> agent id, while it streams
    _speech: dict[str, list[str]] = field(default_factory=dict)  # message id -> its pieces, while it streams
    _roles: dict[str, str] = field(default_factory=dict)

    @classmethod
    def of(cls, classroom: Classroom) -> TalkStats:
        stats = cls(sessions=1)
        stats.learn(classroom)
        return stats

    def learn(self, classroom: Classroom) -> None:
        self._roles.update({agent.id: agent.role for agent in classroom.agents})
        self.names.update({agent.id: agent.name for agent in classroom.agents})

    def add(self, record: Record) -> None:
        match record:
            case LearnerRecord(data=said):
                self.learner_turns += 1
                self.words_by_role[LEARNER] += words(said.text)
            case AgentStartEvent(data=start):
                self._speakers[start.message_id] = start.agent_id
                self._speech[start.message_id] = []
            case TextDeltaEvent(data=delta):
                if delta.message_id in self._speech:  # counted when it ends: pieces split words
                    self._speech[delta.message_id].append(delta.content)
            case AgentEndEvent(data=end):
                agent = self._speakers.pop(end.message_id, end.agent_id)
                count = words("".join(self._speech.pop(end.message_id, [])))
                self.words_by_agent[agent] += count
                self.words_by_role[self._roles.get(agent, "agent")] += count
            case DoneEvent(data=done):
                self.agents_per_turn.append(done.total_agents)
                self.endings[done.end_reason] += 1
                for decision in done.director_trace:
                    self.interventions += sum(not v.passed for a in decision.attempts for v in a.guards)
                    self.fallbacks += decision.path == "fallback"
                    if decision.attempts:
                        self.latencies_ms.append(decision.latency_ms)
            case LessonEndRecord(data=end):
                self.scores.append((end.score, end.max_score))
            case _:
                pass

    def merge(self, other: TalkStats) -> TalkStats:
        return TalkStats(sessions=self.sessions + other.sessions,
                           learner_turns=self.learner_turns + other.learner_turns,
                           words_by_agent=self.words_by_agent + other.words_by_agent,
                           words_by_role=self.words_by_role + other.words_by_role,
                           names={**self.names, **other.names},
                           agents_per_turn=self.agents_per_turn + other.agents_per_turn,
                           endings=self.endings + other.endings, interventions=self.interventions + other.interventions,
                           fallbacks=self.fallbacks + other.fallbacks,
                           latencies_ms=self.latencies_ms + other.latencies_ms, scores=self.scores + other.scores)

    # --- reading -------------------------------------------------------------------------------------------

    @property
    def total_words(self) -> int:
        return sum(self.words_by_role.values())

    def share(self, count: int) -> float:
        return count / self.total_words if self.total_words else 0.0

    @property
    def turns(self) -> int:
        return len(self.agents_per_turn)

    def per_turn(self, count: int) -> float:
        return count / self.turns if self.turns else 0.0

    def as_dict(self) -> dict[str, Any]:
        return {
            "sessions": self.sessions, "learnerTurns": self.learner_turns, "turns": self.turns,
            "words": self.total_words,
            "shareByRole": {role: round(self.share(n), 4) for role, n in self.words_by_role.most_common()},
            "shareByAgent": {agent: round(self.share(n), 4) for agent, n in self.words_by_agent.most_common()},
            "learnerShare": round(self.share(self.words_by_role[LEARNER]), 4),
            "agentsPerTurn": round(statistics.mean(self.agents_per_turn), 3) if self.agents_per_turn else 0,
            "endings": dict(self.endings.most_common()),
            "guardInterventionsPerTurn": round(self.per_turn(self.interventions), 3),
            "fallbacksPerTurn": round(self.per_turn(self.fallbacks), 3),
            "medianDecisionMs": round(statistics.median(self.latencies_ms), 1) if self.latencies_ms else None,
            "scores": [{"score": s, "max": m} for s, m in self.scores],
        }

    def lines(self) -> list[str]:
        """The statistics as a short table of plain lines."""
        data = self.as_dict()
        out = [f"{self.sessions} session{'s' if self.sessions != 1 else ''}, {self.learner_turns} learner turns, "
               f"{self.turns} class turns, {self.total_words} words"]
        out.append("talk share by role: " + (", ".join(f"{role} {share:.0%}" for role, share
                                                        in data["shareByRole"].items()) or "nobody spoke"))
        out.append("by agent: " + (", ".join(f"{self.names.get(agent, agent)} {share:.0%}" for agent, share
                                             in data["shareByAgent"].items()) or "-"))
        out.append(f"agents per turn {data['agentsPerTurn']:.1f}; turns ended: "
                   + (", ".join(f"{reason} {n}" for reason, n in data["endings"].items()) or "-"))
        median = data["medianDecisionMs"]
        out.append(f"guard interventions {data['guardInterventionsPerTurn']:.2f} a turn, fallbacks "
                   f"{data['fallbacksPerTurn']:.2f} a turn, median decision "
                   + (f"{median:.0f} ms" if median is not None else "- (no model decisions)"))
        if self.scores:
            out.append("lesson scores: " + ", ".join(f"{s}/{m}" for s, m in self.scores))
        return out
