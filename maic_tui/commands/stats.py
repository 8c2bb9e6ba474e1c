"""``maic-tui stats ID... [--json]``: talk statistics over recorded sessions (README, *Routing QA*)."""

from __future__ import annotations

import json
import sys
from typing import TextIO

from maic_tui.commands.archive import warn_skipped
from maic_tui.log.talk import TalkStats
from maic_tui.paths import data_dir
from maic_tui.room.replay import open_recorded
from maic_tui.text_safety import one_line


def print_stats(sessions: list[str], as_json: bool, folder: str | None, out: TextIO, err: TextIO | None = None) -> int:
    """Each session counted once, however many of the ids given name it."""
    where, warnings = data_dir(folder), err or sys.stderr
    total = TalkStats()
    counted: set[str] = set()
    for session in sessions:
        recorded = open_recorded(where, session)
        if recorded.info.id in counted:
            warnings.write(f"maic-tui: warning: {one_line(session, 60)} is session {one_line(recorded.info.id)} "
                           "again; counted once\n")
            continue
        counted.add(recorded.info.id)
        warn_skipped(recorded.skipped, warnings)
        total = total.merge(recorded.rebuilt.view.talk)
    if as_json:
        out.write(json.dumps(total.as_dict(), ensure_ascii=False) + "\n")
    else:
        out.write("\n".join(total.lines()) + "\n")
    return 0
