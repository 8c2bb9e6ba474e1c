"""Recorded sessions in one SQLite database in the data directory (ARCHITECTURE.md, *The log*).

WAL mode and a busy timeout let several app instances share the file: each writes only its own session's
rows, in short transactions. Records are appended by ``LogWriter`` (one writer thread per session).
"""

from __future__ import annotations

import json
import sqlite3
import time
import uuid
from collections.abc import Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from maic_tui.bad_input import BadInput, describe_path
from maic_tui.i18n import _
from maic_tui.log.delta_runs import RUN, expand
from maic_tui.log.progress import lesson_progress
from maic_tui.log.records import (
    ForkedFrom,
    LogError,
    SessionInfo,
    Timed,
    parse_learner_side,
    parse_record,
    record_json,
)
from maic_tui.text_safety import clean_tree, one_line

DB_NAME = "sessions.sqlite3"
BUSY_MS = 10_000
_SCHEMA = """
CREATE TABLE IF NOT EXISTS sessions (
    id TEXT PRIMARY KEY,
    classroom TEXT NOT NULL,
    title TEXT NOT NULL,
    model TEXT NOT NULL,
    started REAL NOT NULL,
    classroom_toml TEXT NOT NULL,
    forked_from TEXT,
    learner TEXT,
    simulated INTEGER
);
CREATE TABLE IF NOT EXISTS records (
    session_id TEXT NOT NULL REFERENCES sessions(id),
    seq INTEGER NOT NULL,
    t REAL NOT NULL,
    type TEXT NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (session_id, seq)
);
"""


_COLUMNS = {"sessions": {"id", "classroom", "title", "model", "started", "classroom_toml"},
            "records": {"session_id", "seq", "t", "type", "body"}}


class StoreError(BadInput):
    """A session that cannot be found or read; one line, in the interface's language (SQLite's own words stay
    English)."""


@dataclass(frozen=True, slots=True)
class SessionSummary:
    id: str
    classroom: str
    title: str
    started: float
    turns: int
    last_message: str
    model: str = ""
    lesson: str = ""  # how far its lesson got ("scene 3/4 · score 2/5", "lesson over · score 4/5"), or ""


def new_session_id() -> str:
    """Sortable by start time, unique across processes: ``20261130-101502-3f9a1c``."""
    return time.strftime("%Y%m%d-%H%M%S") + "-" + uuid.uuid4().hex[:6]


def connect(path: Path) -> sqlite3.Connection:
    path.parent.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(path, timeout=BUSY_MS / 1000, isolation_level=None)
    db.execute(f"PRAGMA busy_timeout = {BUSY_MS}")
    try:
        _refuse_foreign(db)  # before anything is changed: a database we refuse is left as it was
    except _ForeignSchema:
        db.close()
        raise
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("PRAGMA synchronous = NORMAL")  # WAL + NORMAL: a commit survives a killed process
    with transaction(db):  # (executescript would commit first, outside the lock)
        for statement in _SCHEMA.split(";"):
            if statement.strip():
                db.execute(statement)
        columns = {row[1] for row in db.execute("PRAGMA table_info(sessions)")}
        # a database written before sessions were forked, named learners or were simulated
        for later, kind in (("forked_from", "TEXT"), ("learner", "TEXT"), ("simulated", "INTEGER")):
            if columns and later not in columns:
                db.execute(f"ALTER TABLE sessions ADD COLUMN {later} {kind}")
    return db


def _refuse_foreign(db: sqlite3.Connection) -> None:
    """_ForeignSchema for an SQLite file that holds tables but not ours as we write them (an empty one becomes
    ours; one of ours from before forks, learners or simulations only lacks ``forked_from``, ``learner`` or
    ``simulated``, added on opening)."""
    tables = {str(name) for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if not tables:
        return
    for table, wanted in _COLUMNS.items():
        found = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
        if not wanted <= found:
            raise _ForeignSchema(table)


def _not_empty(id_or_prefix: str) -> None:
    """An empty id would be the start of every id: it names no session."""
    if not id_or_prefix.strip():
        raise StoreError(_("the session id is empty; give an id or its start (maic-tui sessions lists them)"))


class _ForeignSchema(sqlite3.DatabaseError):
    """The file is an SQLite database, but not one of ours (or of an older layout)."""


@contextmanager
def transaction(db: sqlite3.Connection) -> Iterator[None]:
    db.execute("BEGIN IMMEDIATE")  # take the write lock now: no upgrade deadlock between two writers
    try:
        yield
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


class LogStore:
    def __init__(self, folder: Path) -> None:
        self.folder = folder  # the data directory
        self.path = folder / DB_NAME

    def open(self) -> sqlite3.Connection:
        where = describe_path(self.path)
        try:
            return connect(self.path)
        except _ForeignSchema as exc:
            raise StoreError(_("{path}: not a maic-tui session database (its '{table}' table has other columns); "
                               "move it away or use another --data-dir").format(path=where, table=exc)) from None
        except (sqlite3.Error, OSError) as exc:
            raise StoreError(_("{path}: cannot open the session database: {error}; move it away or use another "
                               "--data-dir").format(path=where, error=exc)) from None

    def _failed(self, exc: sqlite3.Error) -> StoreError:
        return StoreError(_("{path}: cannot read the session database: {error}").format(
            path=describe_path(self.path), error=exc))

    def create(self, db: sqlite3.Connection, info: SessionInfo) -> None:
        """The session's row; called inside the transaction that writes its first records."""
        forked = info.forked_from.model_dump_json() if info.forked_from is not None else None
        db.execute("INSERT INTO sessions (id, classroom, title, model, started, classroom_toml, forked_from, learner, "
                   "simulated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                   (info.id, info.classroom, info.title, info.model, info.started, info.classroom_toml, forked,
                    info.learner, 1 if info.simulated else None))

    def add(self, info: SessionInfo, records: list[Timed]) -> None:
        """A whole session at once (a fork): its row and every record, in one transaction."""
        with closing(self.open()) as db:
            try:
                with transaction(db):
                    self.create(db, info)
                    db.executemany("INSERT INTO records VALUES (?, ?, ?, ?, ?)",
                                   [(info.id, seq, item.t, item.record.type, record_json(item.record))
                                    for seq, item in enumerate(records)])
            except sqlite3.Error as exc:
                raise StoreError(_("{path}: cannot record the session: {error}").format(
                    path=describe_path(self.path), error=exc)) from None

    def sessions(self, limit: int | None = None) -> list[SessionSummary]:
        """Every session (or the ``limit`` newest), newest first."""
        if not self.path.exists():
            return []
        with closing(self.open()) as db:
            try:
                rows = self._summaries(db, limit)
                summaries = []
                for id_, classroom, title, started, model, turns, last_body, classroom_toml in rows:
                    last = ""
                    if last_body:
                        try:
                            last = getattr(parse_record(last_body).data, "text", "")
                        except LogError:  # one unreadable record must not hide the session
                            last = _("(unreadable record)")
                    progress = lesson_progress(db, str(id_), str(classroom_toml))
                    summaries.append(SessionSummary(str(id_), str(classroom), str(title), float(started or 0),
                                                    int(turns), last, str(model),
                                                    progress.words() if progress is not None else ""))
            except sqlite3.Error as exc:
                raise self._failed(exc) from None
        return summaries

    @staticmethod
    def _summaries(db: sqlite3.Connection, limit: int | None) -> list[tuple[Any, ...]]:
        return db.execute("""
                SELECT s.id, s.classroom, s.title, s.started, s.model,
                       (SELECT COUNT(*) FROM records r WHERE r.session_id = s.id AND r.type = 'learner'),
                       (SELECT r.body FROM records r WHERE r.session_id = s.id AND r.type = 'learner'
                        ORDER BY r.seq DESC LIMIT 1),
                       s.classroom_toml
                FROM sessions s ORDER BY s.started DESC, s.id DESC LIMIT ?""", (-1 if limit is None else limit,)
                          ).fetchall()

    def find(self, db: sqlite3.Connection, id_or_prefix: str) -> str:
        _not_empty(id_or_prefix)
        rows = db.execute("SELECT id FROM sessions WHERE id LIKE ? ESCAPE '\\' ORDER BY id",
                          (id_or_prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%",)
                          ).fetchall()
        exact = [r[0] for r in rows if r[0] == id_or_prefix]
        if exact:
            return exact[0]
        if not rows:
            raise StoreError(_("no session '{id}' in {path} (maic-tui sessions lists them)").format(
                id=id_or_prefix, path=self.path))
        if len(rows) > 1:
            some = ", ".join([r[0] for r in rows[:3]] + (["…"] if len(rows) > 3 else []))
            raise StoreError(_("'{id}' matches {count} sessions ({some}); give more of the id").format(
                id=id_or_prefix, count=len(rows), some=some))
        return str(rows[0][0])

    def load(self, id_or_prefix: str) -> tuple[SessionInfo, list[Timed], list[str]]:
        """A session's header, its readable records in order, and one line per record that was skipped."""
        _not_empty(id_or_prefix)
        if not self.path.exists():
            raise StoreError(_("no session '{id}': no sessions recorded yet in {path}").format(
                id=id_or_prefix, path=describe_path(self.path.parent)))
        with closing(self.open()) as db:
            try:
                session_id = self.find(db, id_or_prefix)
                id_, classroom, title, model, started, toml, forked, learner, simulated = db.execute(
                    "SELECT id, classroom, title, model, started, classroom_toml, forked_from, learner, simulated "
                    "FROM sessions WHERE id = ?", (session_id,)).fetchone()
                rows = db.execute("SELECT seq, t, type, body FROM records WHERE session_id = ? ORDER BY seq",
                                  (session_id,)).fetchall()
            except sqlite3.Error as exc:
                raise self._failed(exc) from None
        try:
            info = SessionInfo.model_validate(clean_tree({"id": id_, "classroom": classroom, "title": title,
                                                          "model": model, "started": started,
                                                          "classroom_toml": toml,
                                                          "forked_from": json.loads(forked) if forked else None,
                                                          "learner": learner, "simulated": bool(simulated)}))
        except ValueError as exc:
            raise StoreError(_("{path}: session {id}: its header cannot be read ({error})").format(
                path=describe_path(self.path), id=session_id, error=one_line(str(exc).splitlines()[0]))) from None
        records: list[Timed] = []
        skipped: list[str] = []
        for seq, t, kind, body in rows:
            try:
                records += expand(body) if kind == RUN else [Timed(float(t), parse_record(body))]
            except (LogError, TypeError, ValueError) as exc:  # the others still replay
                skipped.append(_("{path}: session {id} record {number} skipped: {problem}").format(
                    path=describe_path(self.path), id=session_id, number=seq, problem=one_line(str(exc), 160)))
        return info, records, skipped

    def each_session(self, types: tuple[str, ...]) -> Iterator[tuple[SessionInfo, list[Timed], float]]:
        """Every session, oldest first, with its records of these learner-side types and its last record's time,
        for the gradebook, which reads thousands of sessions: two queries in all, only the records it needs, and
        their text not made inert (it shows none of it; see ``parse_learner_side``)."""
        if not self.path.exists():
            return
        marks = ", ".join("?" * len(types))
        with closing(self.open()) as db:
            try:
                heads = db.execute("""
                    SELECT s.id, s.classroom, s.title, s.model, s.started, s.classroom_toml, s.learner,
                           s.forked_from, s.simulated,
                           (SELECT r.t FROM records r WHERE r.session_id = s.id ORDER BY r.seq DESC LIMIT 1)
                    FROM sessions s ORDER BY s.started, s.id""").fetchall()
                rows = db.execute(f"SELECT session_id, t, type, body FROM records WHERE type IN ({marks}) "
                                  "ORDER BY session_id, seq", types).fetchall()
            except sqlite3.Error as exc:
                raise self._failed(exc) from None
        wanted: dict[str, list[Timed]] = {}
        for session_id, t, kind, body in rows:
            try:
                wanted.setdefault(str(session_id), []).append(Timed(float(t), parse_learner_side(str(kind), body)))
            except (LogError, TypeError, ValueError):  # the export of that session names it; here it is left out
                continue
        for id_, classroom, title, model, started, toml, learner, forked, simulated, last in heads:
            try:
                info = SessionInfo(id=str(id_), classroom=one_line(str(classroom), 200), title=one_line(str(title)),
                                   model=str(model), started=float(started or 0), classroom_toml=str(toml),
                                   learner=one_line(str(learner), 200) if learner else None,
                                   simulated=bool(simulated),
                                   forked_from=ForkedFrom.model_validate_json(forked) if forked else None)
            except ValueError:
                continue
            yield info, wanted.get(info.id, []), float(last or 0)

