"""A real ``maic-tui serve`` for tests: started on a free port, waited for, its tab processes found, stopped."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from tests.browser import free_port

START_SECONDS = 60


@dataclass
class Served:
    process: subprocess.Popen[bytes]
    port: int

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def tabs(self) -> list[int]:
        """The pids of the apps this server runs (its children)."""
        found = []
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                except OSError:
                    continue
                if fields[1] == str(self.process.pid) and fields[0] != "Z":
                    found.append(int(entry.name))
        return found

    def wait_for_tabs(self, count: int, seconds: float = 30) -> list[int]:
        deadline = time.monotonic() + seconds
        while len(tabs := self.tabs()) != count:
            assert time.monotonic() < deadline, f"{len(tabs)} tab apps, not {count}"
            time.sleep(0.1)
        return tabs


def alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def _wait_for_http(url: str, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        assert process.poll() is None, "maic-tui serve exited"
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except urllib.error.HTTPError:
            return  # it answers (a full server answers 503)
        except OSError:
            time.sleep(0.3)
    raise AssertionError("maic-tui serve did not answer")


@contextmanager
def serving(tmp_path: Path, *args: str) -> Iterator[Served]:
    port = free_port()
    env = {**os.environ, "MAIC_DATA_DIR": str(tmp_path / "data"), "MAIC_CONFIG": str(tmp_path / "config.toml")}
    process = subprocess.Popen([sys.executable, "-m", "maic_tui", "serve", *args, "--port", str(port)], env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    served = Served(process, port)
    try:
        _wait_for_http(served.url + "/", process)
        yield served
    finally:
        tabs = served.tabs()
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(5)
        for pid in tabs:  # a test never leaves an app behind, even when it failed
            if alive(pid):
                os.kill(pid, 9)
