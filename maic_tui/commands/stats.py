"""``maic-tui stats ID... [--json]``: talk statistics over recorded sessions (README, *Routing QA*)."""

from __future__ import annotations

import json
from typing import TextIO

from maic_tui.log.talk import TalkStats
from maic_tui.paths import data_dir
from maic_tui.room.replay import open_recorded


def print_stats(sessions: list[str], as_json: bool, folder: str | None, out: TextIO) -> int:
    where = data_dir(folder)
    total = TalkStats()
    for session in sessions:
        total = total.merge(open_recorded(where, session).rebuilt.view.talk)
    if as_json:
        out.write(json.dumps(total.as_dict(), ensure_ascii=False) + "\n")
    else:
        out.write("\n".join(total.lines()) + "\n")
    return 0
