"""``maic-tui export ID --format xapi [--lrs URL]`` and ``maic-tui report``: learning records written, sent to an
LRS, and gathered into a gradebook (README, *Learning records*)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TextIO

from maic_tui.bad_input import BadInput
from maic_tui.files import check_target, emit
from maic_tui.i18n import _, ngettext
from maic_tui.learning.config import records_config
from maic_tui.learning.delivery import configured_lrs, sent_words
from maic_tui.learning.export import session_statements, statements_json
from maic_tui.learning.gradebook import as_csv, as_json, as_markdown, gradebook
from maic_tui.learning.lrs import LrsError
from maic_tui.paths import data_dir
from maic_tui.text_safety import one_line

EXIT_LRS = 1  # the records are fine; the LRS did not take them


def export_xapi(session: str, fmt: str, folder: str | None, output: str | None, learner: str | None,
                lrs_url: str | None, out: TextIO, err: TextIO | None = None) -> int:
    err = err or sys.stderr
    if fmt != "xapi":
        raise BadInput(_("--lrs sends learning records: give --format xapi with it"))
    target = check_target(Path(output), "export") if output is not None else None
    config = records_config()
    lrs = configured_lrs(config, lrs_url) if lrs_url is not None else None  # checks the URL before any work
    found = session_statements(data_dir(folder), session, learner)
    for line in found.skipped:
        err.write(_("maic-tui: warning: {problem}").format(problem=line) + "\n")
    if target is not None or lrs is None:  # with --lrs alone, only what the LRS said
        # one msgid for every count: the English says "1 statements" as it always has; a language's forms differ
        emit(statements_json(found.statements), target, out,
             ngettext("wrote {count} statements to {path}", "wrote {count} statements to {path}",
                      len(found.statements)), 0o600, len(found.statements))
    if lrs is None:
        return 0

    def progress(done: int, total: int) -> None:
        if total > lrs.batch:  # only when there is more than one batch
            err.write(_("maic-tui: sent {done} of {total} statements").format(done=done, total=total) + "\n")

    try:
        sent = lrs.send(found.statements, progress)
    except LrsError as exc:
        err.write(f"maic-tui: {exc}\n")
        return EXIT_LRS
    out.write(f"{sent_words(sent, lrs)}\n")
    return 0


def print_report(classroom: str | None, fmt: str, folder: str | None, output: str | None, out: TextIO,
                 err: TextIO | None = None, every_kind: bool = False) -> int:
    target = check_target(Path(output), "report") if output is not None else None
    rows = gradebook(data_dir(folder), classroom, every_kind)
    if not rows:
        said = _("maic-tui: no recorded sessions of classroom '{classroom}'").format(
            classroom=one_line(classroom, 80)) if classroom is not None else _("maic-tui: no recorded sessions")
        (err or sys.stderr).write(said + "\n")
    emit({"csv": as_csv, "json": as_json, "md": as_markdown}[fmt](rows), target, out,
         ngettext("wrote {count} rows to {path}", "wrote {count} rows to {path}", len(rows)), count=len(rows))
    return 0
