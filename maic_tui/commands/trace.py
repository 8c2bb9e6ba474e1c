"""``maic-tui trace ID [--turn N] [--json]``: a recorded session's director decisions, headless. Without ``--turn``,
one line a decision grouped by turn (as the app's trace inspector lists them); with it, each decision of that
learner turn in full (as the inspector's Enter shows one)."""

from __future__ import annotations

import json
from typing import TextIO

from maic_tui.bad_input import BadInput
from maic_tui.commands.archive import warn_skipped
from maic_tui.i18n import _
from maic_tui.paths import data_dir
from maic_tui.room.decision_detail import as_text, row, why
from maic_tui.room.decisions import TurnDecisions
from maic_tui.room.replay import open_recorded
from maic_tui.text_safety import one_line


def _as_json(turn: TurnDecisions) -> str:
    decisions = [record.model_dump(mode="json", by_alias=True) | {"why": why(record),
                                                                  "messageId": turn.message_of(record)}
                 for record in turn.records]
    return json.dumps({"turn": turn.number, "said": turn.said, "decisions": decisions}, ensure_ascii=False)


def print_trace(session: str, turn: int | None, as_json: bool, folder: str | None, out: TextIO,
                err: TextIO | None = None) -> int:
    recorded = open_recorded(data_dir(folder), session)
    warn_skipped(recorded.skipped, err)
    decisions = recorded.rebuilt.view.decisions
    turns = [t for t in decisions.turns if t.records]
    if turn is not None:
        turns = [t for t in turns if t.number == turn]
        if not turns:
            numbers = sorted({t.number for t in decisions.turns if t.records})
            known = (_("turns with decisions: {turns}").format(turns=", ".join(map(str, numbers))) if numbers
                     else _("no decisions recorded"))
            raise BadInput(_("session {id} has no decisions in turn {turn} ({known})").format(
                id=one_line(recorded.info.id), turn=turn, known=known))
    for item in turns:
        if as_json:
            out.write(_as_json(item) + "\n")
        elif turn is None:
            out.write(item.heading + "\n" + "".join(f"  {row(item, record)}\n" for record in item.records))
        else:
            out.write("\n\n".join(as_text(item, record) for record in item.records) + "\n")
    if not turns and not as_json:
        out.write(_("No director decisions recorded in session {id}.").format(id=one_line(recorded.info.id)) + "\n")
    return 0
