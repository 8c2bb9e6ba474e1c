"""Appends a session's records to the database from a writer thread, so the event loop never waits on disk.

Records are written in batches: a record waits at most ``FLUSH_SECONDS`` (100 ms), and ``done`` is written
at once (the turn is complete on disk before the learner can type again). Events arrive with secrets already
redacted (the engine's stream never carries one); the session's header, and any record that still holds a
configured secret (a grader's comment, say), are redacted here, so nothing recorded or exported has one.
"""

from __future__ import annotations

import json
import queue
import sqlite3
import threading
import time
from collections.abc import Iterable
from contextlib import closing
from dataclasses import dataclass

from maic_tui.log.records import Record, SessionInfo, Timed, record_json
from maic_tui.log.store import LogStore, transaction
from maic_tui.orchestration.stream_redaction import redact_model
from maic_tui.redaction import redact, usable_secrets

FLUSH_SECONDS = 0.1


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
        self._queue: queue.Queue[object] = queue.Queue()
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
        self._queue.put(Timed(self.elapsed(), record))

    def flush(self, timeout: float = 5.0) -> None:
        done = threading.Event()
        self._queue.put(_Flush(done))
        done.wait(timeout)

    def close(self) -> None:
        if self._thread.is_alive():
            self._queue.put(_STOP)
            self._thread.join(10)

    # --- the writer thread ---------------------------------------------------------------------------

    def _run(self) -> None:
        with closing(self.store.open()) as db:
            pending: list[Timed] = []
            waiters: list[threading.Event] = []
            deadline: float | None = None
            while True:
                timeout = None if deadline is None else max(0.0, deadline - time.monotonic())
                try:
                    item = self._queue.get(timeout=timeout)
                except queue.Empty:
                    item = None
                stop = item is _STOP
                if isinstance(item, Timed):
                    pending.append(item)
                    deadline = deadline or time.monotonic() + FLUSH_SECONDS
                elif isinstance(item, _Flush):
                    waiters.append(item.done)
                urgent = isinstance(item, Timed) and item.record.type in ("done", "learner")
                if item is None or stop or waiters or urgent or time.monotonic() >= (deadline or 0):
                    self._write(db, pending)
                    pending, deadline = [], None
                    for waiter in waiters:
                        waiter.set()
                    waiters = []
                if stop:
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
                db.executemany("INSERT INTO records VALUES (?, ?, ?, ?, ?)",
                               [(self.info.id, first + n, item.t, item.record.type, self._body(item.record))
                                for n, item in enumerate(items)])
            self._created = True
        except sqlite3.Error as exc:
            self.error = self.error or f"{self.store.path}: cannot record the session: {exc}"

    def _body(self, record: Record) -> str:
        """The record as stored, with the configured secrets replaced wherever a model or a grader put them
        (looked for in the JSON first: most records, the stream's pieces of speech, are clean already)."""
        body = record_json(record)
        if any(found in body for found in self._secrets_in_json):
            body = record_json(redact_model(record, self._secrets))
        return body
