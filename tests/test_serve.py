"""``maic-tui serve``: the classroom app in a browser through textual-serve. A real server, a real headless
Chromium: the class list (every agent's colour) and the composer (its border) must appear on the page."""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path

import pytest

from maic_tui.classroom import load_classroom
from maic_tui.cli import main
from maic_tui.colors import readable_on
from maic_tui.serve.serve_command import app_command, public_url
from maic_tui.tui.themes import load_themes
from tests.browser import chromium_page
from tests.png import colours_in, read_png
from tests.serving import serving

START_SECONDS = 60


async def test_the_served_class_shows_its_class_list_and_composer_in_a_browser(tmp_path: Path) -> None:
    with serving(tmp_path, "derivatives", "--theme", "chalkboard") as server:
        theme = {spec.name: spec for spec in load_themes()[0]}["chalkboard"]
        agents = [readable_on(a.color, theme.background).lower() for a in load_classroom("derivatives").agents]
        async with chromium_page(server.url + "/") as page:
            deadline = time.monotonic() + START_SECONDS
            while True:
                width, _, rows = read_png(await page.screenshot())
                class_list = colours_in(rows, width, (0.0, 0.0, 0.3, 0.6))
                composer = colours_in(rows, width, (0.2, 0.75, 0.6, 1.0))
                if all(class_list[c] > 20 for c in agents) and composer[theme.primary.lower()] > 200:
                    break  # every agent's name in its colour on the left, the composer's border below
                assert time.monotonic() < deadline, "the class never appeared in the browser"
                await asyncio.sleep(1)


def test_each_tab_runs_the_app_with_the_same_settings_but_never_the_key_on_its_command_line() -> None:
    words = app_command("water-cycle", {"model": "openai:m", "base_url": "http://h/v1", "api_key": "sk-secret",
                                        "theme": "paper", "pace": None})
    assert words[:4] == [sys.executable, "-m", "maic_tui", "water-cycle"]
    assert words[4:] == ["--model", "openai:m", "--base-url", "http://h/v1", "--theme", "paper"]
    assert "sk-secret" not in " ".join(words)


def test_the_public_address_is_the_lan_address_when_listening_everywhere() -> None:
    assert public_url("127.0.0.1", 8000, None) == "http://127.0.0.1:8000"
    assert public_url("::1", 8000, None) == "http://[::1]:8000"
    assert public_url("0.0.0.0", 8000, "https://class.example/") == "https://class.example"
    lan = public_url("0.0.0.0", 8001, None)
    assert lan.startswith("http://") and lan.endswith(":8001") and "0.0.0.0" not in lan


def test_a_port_in_use_or_a_bad_model_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["serve", "--port", str(port)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"127.0.0.1:{port}" in err and "Traceback" not in err
    assert main(["serve", "--model", "nonsense"]) == 2
    assert "unknown model" in capsys.readouterr().err
