"""Appends a session's records to the database from a writer thread, so the event loop never waits on disk.

Records are written in batches: a record waits at most ``FLUSH_SECONDS`` (100 ms), and ``done`` is written
at once (the turn is complete on disk before the learner can type again). A batch's run of one message's pieces of
speech is one row (``log/delta_runs.py``), so a stream costs a row per batch, not per token, and a killed process
still loses at most the last batch. Events arrive with secrets already redacted (the engine's stream never carries
one); the session's header, and any record that still holds a configured secret (a grader's comment, say), are
redacted here, so nothing recorded or exported has one.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections import deque
from collections.abc import Iterable
from contextlib import closing
from dataclasses import dataclass

from maic_tui.log.delta_runs import DeltaRun, rows_of
from maic_tui.log.records import Record, SessionInfo, Timed, record_json
from maic_tui.log.store import LogStore, transaction
from maic_tui.orchestration.graph.stream_redaction import redact_model
from maic_tui.redaction import redact, usable_secrets

FLUSH_SECONDS = 0.1
URGENT = ("done", "learner")  # written at once: the turn is on disk before the learner can type again


@dataclass(frozen=True, slots=True)
class _Flush:
    done: threading.Event


_STOP = object()


class LogWriter:
    """One session's writer. ``record`` never blocks; ``flush`` waits until everything so far is on disk."""

    def __init__(self, store: LogStore, info: SessionInfo, *, resume: bool = False,
                 secrets: Iterable[str] = ()) -> None:
        self.store = store
        self._secrets = secrets = usable_secrets(secrets)
        self._secrets_in_json = {form for secret in secrets for form in (secret, json.dumps(secret)[1:-1])}
        self.info = info.model_copy(update={"model": redact(info.model, secrets),
                                            "classroom_toml": redact(info.classroom_toml, secrets)})
        self.error: str | None = None  # the first write failure, for the caller to report once
        # What the writer has still to write. The event path only appends (a deque's append needs no lock) and
        # wakes the writer thread once a batch, not once a record: a wake per token was the recording's cost.
        self._pending: deque[object] = deque()
        self._wake = threading.Event()
        self._collecting = False  # the writer is gathering a batch: a new record need not wake it
        self._urgent = False  # a record to write at once (done, learner), a flush or the stop arrived
        store.open().close()  # fails here, in the caller, if the database cannot be opened
        # The session's row is written with its first record: opening the app and leaving leaves no trace.
        self._created = resume
        self._thread = threading.Thread(target=self._run, name=f"log-writer-{info.id}", daemon=True)
        self._thread.start()

    @property
    def session_id(self) -> str:
        return self.info.id

    @property
    def stored(self) -> bool:
        """The session is in the store (its first records were written, or it was resumed)."""
        return self._created

    def elapsed(self) -> float:
        return time.time() - self.info.started

    def record(self, record: Record) -> None:
        self._pending.append(Timed(self.elapsed(), record))
        if record.type in URGENT:
            self._urgent = True
            self._wake.set()
        elif not self._collecting:
            self._wake.set()

    def _send(self, item: object) -> None:
        self._pending.append(item)
        self._urgent = True
        self._wake.set()

    def flush(self, timeout: float = 5.0) -> None:
        done = threading.Event()
        self._send(_Flush(done))
        done.wait(timeout)

    def close(self) -> None:
        if self._thread.is_alive():
            self._send(_STOP)
            self._thread.join(10)

    # --- the writer thread ---------------------------------------------------------------------------

    def _run(self) -> None:
        with closing(self.store.open()) as db:
            while True:
                self._wake.wait()  # idle until the first record of a batch
                self._collecting = True
                deadline = time.monotonic() + FLUSH_SECONDS
                while not self._urgent and (left := deadline - time.monotonic()) > 0:
                    self._wake.clear()
                    if self._urgent:  # it came just before the clear: its wake is gone, not its urgency
                        break
                    self._wake.wait(left)
                # Cleared before the batch is taken: a record that comes after wakes the next batch.
                self._collecting = self._urgent = False
                self._wake.clear()
                batch = [self._pending.popleft() for _ in range(len(self._pending))]
                self._write(db, [item for item in batch if isinstance(item, Timed)])
                for item in batch:
                    if isinstance(item, _Flush):
                        item.done.set()
                if any(item is _STOP for item in batch):
                    return

    def _write(self, db: sqlite3.Connection, items: list[Timed]) -> None:
        """One batch, numbered after the highest record number stored, read inside the write lock: a record that
        cannot be read back, or another app appending to the same session, never makes two records collide."""
        if not items:
            return
        try:
            with transaction(db):
                if not self._created:
                    self.store.create(db, self.info)
                (last,) = db.execute("SELECT MAX(seq) FROM records WHERE session_id = ?", (self.info.id,)).fetchone()
                first = 0 if last is None else int(last) + 1
                rows = [(self.info.id, first + n, t, kind, body)
                        for n, (t, kind, body) in enumerate(rows_of(items, self._body, self._run_body))]
                db.executemany("INSERT INTO records VALUES (?, ?, ?, ?, ?)", rows)
            self._created = True
        except sqlite3.Error as exc:
            self.error = self.error or f"{self.store.path}: cannot record the session: {exc}"

    def _run_body(self, run: DeltaRun) -> str:
        body = run.json()
        if any(found in body for found in self._secrets_in_json):
            body = run.redacted(self._secrets).json()
        return body

    def _body(self, record: Record) -> str:
        """The record as stored, with the configured secrets replaced wherever a model or a grader put them
        (looked for in the JSON first: most records, the stream's pieces of speech, are clean already)."""
        body = record_json(record)
        if any(found in body for found in self._secrets_in_json):
            body = record_json(redact_model(record, self._secrets))
        return body
