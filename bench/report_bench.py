"""The gradebook (issue 36; goal in brackets): ``maic-tui report`` over 2,000 recorded sessions, every bundled
sample's lesson played with answers right, wrong and partly right on the demo model and copied to 2,000, timed as
the command a teacher runs (a new process, CSV to a file), median of 3                                  [< 2 s]
"""

from __future__ import annotations

import contextlib
import io
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from maic_tui.classroom import load_classroom
from maic_tui.classroom.loader import sample_names
from maic_tui.cli import main as cli
from maic_tui.log.store import DB_NAME
from tests.records_helpers import answer  # the answers the records tests give: right, wrong, partly right

SESSIONS = 2000


def _play_samples(data_dir: Path) -> None:
    for name in sample_names():
        room = load_classroom(name)
        waits = sum(step.kind in ("pause", "discussion") for scene in room.scenes for step in scene.script)
        questions = [q for scene in room.scenes for q in scene.graded()]
        for mode in ("right", "wrong", "partly"):
            replies = ["go on"] * waits + [answer(q, mode, n) for n, q in enumerate(questions)]
            with contextlib.redirect_stdout(io.StringIO()):
                cli(["run", name, "--lesson", "--pace", "0", "--data-dir", str(data_dir),
                     *[arg for reply in replies for arg in ("--say", reply)]])


def _copy_to(data_dir: Path, total: int) -> int:
    """The played sessions copied under new ids until there are ``total``; the records a database holds then."""
    with sqlite3.connect(data_dir / DB_NAME) as db:
        played = [row[0] for row in db.execute("SELECT id FROM sessions ORDER BY id")]
        for n in range(total - len(played)):
            source, copy = played[n % len(played)], f"bench-{n:05d}"
            db.execute("INSERT INTO sessions SELECT ?, classroom, title, model, started + ?, classroom_toml, "
                       "forked_from, learner FROM sessions WHERE id = ?", (copy, n, source))
            db.execute("INSERT INTO records SELECT ?, seq, t, type, body FROM records WHERE session_id = ?",
                       (copy, source))
        return int(db.execute("SELECT COUNT(*) FROM records").fetchone()[0])


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        data_dir = Path(os.environ.get("REPORT_BENCH_DIR") or folder)
        os.environ.setdefault("MAIC_CONFIG", str(data_dir / "config.toml"))
        _play_samples(data_dir)
        records = _copy_to(data_dir, SESSIONS)
        times = []
        for _ in range(3):
            start = time.perf_counter()
            subprocess.run([sys.executable, "-m", "maic_tui", "report", "--data-dir", str(data_dir), "-o",
                            str(data_dir / "grades.csv")], check=True, stdout=subprocess.DEVNULL)
            times.append(time.perf_counter() - start)
        rows = (data_dir / "grades.csv").read_bytes().count(b"\r\n") - 1
    print(f"report: {rows:,} sessions ({records:,} records) in {statistics.median(times):.2f} s "
          f"(median of 3, a new process each; goal < 2 s)")


if __name__ == "__main__":
    main()
