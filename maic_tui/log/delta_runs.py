"""A message's pieces of speech stored as one row (type ``text_deltas``) instead of a row each: the writer makes a
run of each batch's consecutive ``text_delta`` records of one message, and the store gives the pieces back, each
with its own time, as the ``text_delta`` records they were; nothing that reads a log sees a run.

A run's body: ``{"type": "text_deltas", "data": {"messageId": "m3-reyes", "pieces": [[t, "Hel"], [t, "lo"]]}}``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from maic_tui.events import TextDeltaEvent, json_error
from maic_tui.i18n import _
from maic_tui.log.records import LogError, Record, Timed, parse_record
from maic_tui.redaction import redact
from maic_tui.text_safety import json_safe

RUN = "text_deltas"


@dataclass(frozen=True, slots=True)
class DeltaRun:
    message_id: str
    pieces: list[tuple[float, str]]

    def json(self) -> str:
        data = {"messageId": self.message_id, "pieces": [[t, text] for t, text in self.pieces]}  # t as the row keeps it
        return json_safe(json.dumps({"type": RUN, "data": data}, ensure_ascii=False, separators=(",", ":")))

    def redacted(self, secrets: tuple[str, ...]) -> DeltaRun:
        return DeltaRun(self.message_id, [(t, redact(text, secrets)) for t, text in self.pieces])


def rows_of(items: list[Timed], body: Callable[[Record], str],
            run_body: Callable[[DeltaRun], str]) -> Iterator[tuple[float, str, str]]:
    """(t, type, body) for each row of a batch: a run of one message's consecutive deltas is one row (a lone
    piece stays the record it is)."""
    run: list[Timed] = []
    for item in [*items, None]:
        record = item.record if item is not None else None
        if isinstance(record, TextDeltaEvent) and (not run or _message(run[0]) == record.data.message_id):
            run.append(item)  # type: ignore[arg-type]
            continue
        if len(run) == 1:
            yield run[0].t, "text_delta", body(run[0].record)
        elif run:
            pieces = [(piece.t, piece.record.data.content) for piece in run]  # type: ignore[union-attr]
            yield run[0].t, RUN, run_body(DeltaRun(_message(run[0]), pieces))
        run = [item] if isinstance(record, TextDeltaEvent) else []  # type: ignore[list-item]
        if item is not None and not isinstance(record, TextDeltaEvent):
            yield item.t, item.record.type, body(item.record)


def _message(item: Timed) -> str:
    return item.record.data.message_id  # type: ignore[union-attr]


def expand(body: str) -> list[Timed]:
    """A run's pieces as the ``text_delta`` records they were, each with its time (untrusted: every piece goes
    through ``parse_record``). Raises LogError."""
    try:
        raw: Any = json.loads(body)
    except (ValueError, RecursionError) as exc:
        raise LogError(_("not JSON: {error}").format(error=json_error(exc))) from None
    data = raw.get("data") if isinstance(raw, dict) else None
    pieces = data.get("pieces") if isinstance(data, dict) else None
    message_id = data.get("messageId") if isinstance(data, dict) else None
    if not isinstance(pieces, list) or not isinstance(message_id, str):
        raise LogError(_("bad text_deltas record: it needs 'messageId' and a list of 'pieces'"))
    found = []
    for piece in pieces:
        if (not isinstance(piece, list) or len(piece) != 2 or isinstance(piece[0], bool)
                or not isinstance(piece[0], int | float) or not isinstance(piece[1], str)):
            raise LogError(_("bad text_deltas record: each piece is [seconds, text]"))
        found.append(Timed(float(piece[0]), parse_record(
            {"type": "text_delta", "data": {"messageId": message_id, "content": piece[1]}})))
    return found
