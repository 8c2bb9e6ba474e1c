"""A batch's run of one message's pieces of speech is one row on disk, and reading the log gives every piece back,
in order, with its own time; a run row that cannot be read is skipped with one line, like any record."""

from __future__ import annotations

import sqlite3
import time
from itertools import pairwise
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from maic_tui.events import AgentEndData, AgentEndEvent, TextDeltaData, TextDeltaEvent
from maic_tui.log.records import InterruptRecord, LearnerData, LearnerRecord, Record, SessionInfo
from maic_tui.log.store import DB_NAME, LogStore
from maic_tui.log.writer import LogWriter

_PIECE = st.text(st.characters(exclude_categories=("Cc", "Cs", "Cf")), min_size=1, max_size=6)
_RECORD = st.one_of(
    st.builds(lambda m, c: TextDeltaEvent(data=TextDeltaData(content=c, message_id=m)), st.sampled_from(["m1", "m2"]),
              _PIECE),
    st.builds(lambda m: AgentEndEvent(data=AgentEndData(message_id=m, agent_id="a")), st.sampled_from(["m1", "m2"])),
    st.just(InterruptRecord()),
)


def _writer(folder: Path, n: int) -> LogWriter:
    info = SessionInfo(id=f"s{n}-{time.time_ns()}", classroom="c", title="t", model="demo", started=time.time(),
                       classroom_toml="")
    return LogWriter(LogStore(folder), info)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(_RECORD, min_size=1, max_size=60))
def test_every_piece_comes_back_in_order_with_its_time(tmp_path: Path, records: list[Record]) -> None:
    log = _writer(tmp_path, len(records))
    log.record(LearnerRecord(data=LearnerData(text="hi")))
    for record in records:
        log.record(record)
    log.flush()
    log.close()
    written = [item.record for item in LogStore(tmp_path).load(log.session_id)[1]]
    assert written == [LearnerRecord(data=LearnerData(text="hi")), *records]
    with sqlite3.connect(tmp_path / DB_NAME) as db:
        rows = db.execute("SELECT COUNT(*) FROM records WHERE session_id = ?", (log.session_id,)).fetchone()[0]
    runs = sum(1 for a, b in pairwise(records)
               if isinstance(a, TextDeltaEvent) and isinstance(b, TextDeltaEvent)
               and a.data.message_id == b.data.message_id)
    assert rows <= len(records) + 1 - runs  # a run of pieces in one batch is one row


def test_a_stream_is_a_row_a_batch_and_replays_with_its_timing(tmp_path: Path) -> None:
    log = _writer(tmp_path, 0)
    for n in range(30):
        log.record(TextDeltaEvent(data=TextDeltaData(content=f"w{n} ", message_id="m1")))
        time.sleep(0.01)
    log.close()
    _, records, _ = LogStore(tmp_path).load(log.session_id)
    said = "".join(r.record.data.content for r in records)  # type: ignore[union-attr]
    assert said == "".join(f"w{n} " for n in range(30))
    times = [r.t for r in records]
    assert times == sorted(times) and times[-1] - times[0] >= 0.25  # each piece keeps its own moment
    with sqlite3.connect(tmp_path / DB_NAME) as db:
        rows = db.execute("SELECT type FROM records").fetchall()
    assert 2 <= len(rows) <= 10 and ("text_deltas",) in rows  # ~0.3 s of speech: a few 100 ms batches


def test_a_run_row_that_cannot_be_read_is_skipped_with_one_line(tmp_path: Path) -> None:
    log = _writer(tmp_path, 0)
    log.record(LearnerRecord(data=LearnerData(text="hi")))
    for n in range(5):
        log.record(TextDeltaEvent(data=TextDeltaData(content=f"w{n}", message_id="m1")))
    log.record(AgentEndEvent(data=AgentEndData(message_id="m1", agent_id="a")))
    log.close()
    with sqlite3.connect(tmp_path / DB_NAME) as db:
        bad = '{"type": "text_deltas", "data": {"messageId": "m1", "pieces": [[1, 2]]}}'  # a number for text
        db.execute("UPDATE records SET body = ? WHERE type = 'text_deltas'", (bad,))
    _, records, skipped = LogStore(tmp_path).load(log.session_id)
    assert [r.record.type for r in records] == ["learner", "agent_end"]
    assert len(skipped) == 1 and "each piece is [seconds, text]" in skipped[0]
