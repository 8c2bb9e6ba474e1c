"""Every director decision of a session, grouped by the engine turn that took it: what the trace inspector, its
detail view and ``maic-tui trace`` show (ARCHITECTURE.md, *The routing workbench*). Headless: fed by records."""

from __future__ import annotations

from dataclasses import dataclass, field

from maic_tui.events import TraceRecord
from maic_tui.i18n import _
from maic_tui.text_safety import one_line, terminal_safe

NOT_AN_AGENT = ("USER", "END")


@dataclass
class TurnDecisions:
    """One engine turn's decisions: a learner's message answered, or a turn the lesson opened."""

    number: int  # the learner turn it belongs to (0: before the learner's first message)
    said: str  # the learner's message ("" for a turn the lesson opened)
    records: list[TraceRecord] = field(default_factory=list)
    starts: list[tuple[str, str]] = field(default_factory=list)  # (agent id, message id) of each agent that spoke
    done: bool = False

    def message_of(self, record: TraceRecord) -> str | None:
        """The message the decision produced: the n-th decision that sent an agent is the n-th agent to speak."""
        if record.final in NOT_AN_AGENT:
            return None
        sent = [r for r in self.records if r.final not in NOT_AN_AGENT]
        index = next((i for i, r in enumerate(sent) if r.step == record.step), None)
        if index is None or index >= len(self.starts) or self.starts[index][0] != record.final:
            return None
        return self.starts[index][1]

    @property
    def heading(self) -> str:
        said = f'"{one_line(self.said, 50)}"' if self.said else _("the lesson")
        return _("turn {number} · {said}").format(number=self.number, said=said)


class SessionDecisions:
    """The decisions of a whole session, newest last."""

    def __init__(self) -> None:
        self.turns: list[TurnDecisions] = []
        self.learner_turns = 0
        self._said = ""
        self.version = 0  # bumped on every change, so a view redraws only when something changed

    def learner(self, text: str) -> None:
        self.learner_turns += 1
        self._said = terminal_safe(text)

    def _open(self) -> TurnDecisions:
        if not self.turns or self.turns[-1].done:
            self.turns.append(TurnDecisions(self.learner_turns, self._said))
            self._said = ""  # the lesson's turns after it are the lesson's
        return self.turns[-1]

    def thinking(self) -> None:
        """The engine started a turn (or goes on with one)."""
        self._open()

    def decided(self, record: TraceRecord) -> None:
        """A decision as it is taken (live)."""
        turn = self._open()
        turn.records = [r for r in turn.records if r.step != record.step] + [record]
        self.version += 1

    def agent_started(self, agent_id: str, message_id: str) -> None:
        if self.turns and not self.turns[-1].done:
            self.turns[-1].starts.append((agent_id, message_id))

    def finished(self, records: list[TraceRecord]) -> None:
        """The turn's ``done``: its trace is the final word on its decisions."""
        turn = self._open()
        turn.records, turn.done = list(records), True
        self.version += 1

    def rows(self) -> list[tuple[TurnDecisions, TraceRecord]]:
        return [(turn, record) for turn in self.turns for record in turn.records]

    def of_turn(self, number: int) -> list[TurnDecisions]:
        return [turn for turn in self.turns if turn.number == number]

    @property
    def latest(self) -> list[TraceRecord]:
        """The decisions of the newest turn."""
        return list(self.turns[-1].records) if self.turns else []
