"""When learning records go out by themselves: the app's "export records" key, each session's end when
``[records] auto = true``, and the queue sent at the next start. Each says what happened in one line; nothing here
raises, since a class must never fail because its records could not go out."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from maic_tui.bad_input import BadInput
from maic_tui.files import write_atomically
from maic_tui.i18n import _, ngettext
from maic_tui.learning.config import RecordsConfig, lrs_credentials, records_config, web_address
from maic_tui.learning.export import records_folder, session_statements, statements_json
from maic_tui.learning.lrs import Lrs, LrsError, Sent
from maic_tui.learning.outbox import Outbox, file_name
from maic_tui.text_safety import one_line

Progress = Callable[[int, int], None]


def configured_lrs(config: RecordsConfig, endpoint: str | None = None, timeout: float | None = None) -> Lrs | None:
    """The LRS to send to: ``endpoint`` (``--lrs``) else ``[records] lrs``; None when neither names one."""
    url = endpoint or config.lrs
    if url is None:
        return None
    if endpoint is not None:
        try:
            web_address(endpoint, "--lrs")
        except ValueError as exc:
            raise BadInput(str(exc)) from None
    return Lrs(url, lrs_credentials(config), timeout if timeout is not None else config.timeout, config.batch)


def sent_words(sent: Sent, lrs: Lrs) -> str:
    # one msgid for every count: the English says "1 statements" as it always has; a language's forms differ
    count = sent.stored + sent.known
    if sent.known:
        return ngettext("{count} statements sent to LRS {name} ({known} it had already)",
                        "{count} statements sent to LRS {name} ({known} it had already)", count).format(
            count=count, name=lrs.name, known=sent.known)
    return ngettext("{count} statements sent to LRS {name}", "{count} statements sent to LRS {name}", count).format(
        count=count, name=lrs.name)


@dataclass(frozen=True, slots=True)
class Exported:
    path: Path | None  # where the statements were written (None: they could not be)
    line: str  # what happened, for a toast or a terminal


def export_records(data_dir: Path, session_id: str, progress: Progress | None = None) -> Exported:
    """The app's key: the session's statements written beside the session, and sent when an LRS is configured
    (queued when it is away)."""
    try:
        config = records_config()
        found = session_statements(data_dir, session_id)
        folder = records_folder(data_dir)
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{file_name(found.info.id)}.xapi.json"
        write_atomically(path, statements_json(found.statements), mode=0o600)
    except (BadInput, OSError) as exc:
        return Exported(None, _("learning records not written: {problem}").format(problem=one_line(str(exc), 200)))
    count = len(found.statements)
    line = ngettext("{count} learning records written to {path}", "{count} learning records written to {path}",
                    count).format(count=count, path=one_line(str(path), 200))
    lrs = configured_lrs(config)
    if lrs is None:
        return Exported(path, line)
    try:
        return Exported(path, f"{line}; {sent_words(lrs.send(found.statements, progress), lrs)}")
    except LrsError as exc:
        queued = _queue(data_dir, found.info.id, found.statements)
        return Exported(path, "; ".join([line, str(exc), queued]))


def at_session_end(data_dir: Path, session_id: str, timeout: float | None = None,
                   stopped: Callable[[], bool] | None = None) -> str | None:
    """With ``[records] auto = true`` and an LRS: the ended session's statements queued, then the queue sent;
    ``stopped()`` true (a stop signal) ends the sending at once, and what was not sent waits in the queue."""
    try:
        config = records_config()
        lrs = configured_lrs(config, timeout=timeout)
        if not config.auto or lrs is None:
            return None
        if stopped is not None:
            lrs.stopped = stopped
        Outbox(data_dir).put(session_id, session_statements(data_dir, session_id).statements)
    except (BadInput, OSError) as exc:
        return _("learning records not queued: {problem}").format(problem=one_line(str(exc), 200))
    return _flush(data_dir, lrs)


def at_start(data_dir: Path, timeout: float | None = None) -> str | None:
    """Statements an LRS missed before, sent now; None when nothing waits (or no LRS is configured)."""
    try:
        outbox = Outbox(data_dir)
        if not outbox.pending():
            return None
        lrs = configured_lrs(records_config(), timeout=timeout)
    except (BadInput, OSError) as exc:
        return _("learning records waiting: {problem}").format(problem=one_line(str(exc), 200))
    if lrs is None:
        return None
    return _flush(data_dir, lrs)


def _flush(data_dir: Path, lrs: Lrs) -> str:
    flushed = Outbox(data_dir).flush(lrs)
    words = [*flushed.unreadable]
    if flushed.sessions:
        words.append(ngettext("learning records of {count} session ({statements} statements) sent to LRS {name}",
                              "learning records of {count} sessions ({statements} statements) sent to LRS {name}",
                              flushed.sessions).format(count=flushed.sessions, statements=flushed.statements,
                                                       name=lrs.name))
    if flushed.problem is not None:
        words.append(ngettext("{problem}; the records of {count} session wait and go on the next start",
                              "{problem}; the records of {count} sessions wait and go on the next start",
                              flushed.waiting).format(problem=flushed.problem, count=flushed.waiting))
    return "; ".join(words)


def _queue(data_dir: Path, session_id: str, found: list[dict[str, object]]) -> str:
    try:
        Outbox(data_dir).put(session_id, found)
    except OSError as exc:
        return _("not queued either: {problem}").format(problem=one_line(str(exc), 120))
    return _("queued, sent on the next start")
