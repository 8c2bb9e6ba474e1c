"""Untrusted text is inert on every headless surface: loading, `run`, `demo`, `validate`, `sessions`, exports,
`replay --headless` and error lines all get the same hostile strings, and nothing they print can act."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from maic_tui.classroom import load_classroom
from maic_tui.cli import main
from maic_tui.text_safety import EscapeFilter, one_line, terminal_safe
from tests.hostile import (
    HOSTILE,
    LINK,
    MARKUP,
    assert_inert,
    assert_inert_bytes,
    hostile_classroom,
    hostile_script,
    toml_string,
)


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in [*_strings(k), *_strings(v)]]
    if isinstance(value, list):
        return [s for item in value for s in _strings(item)]
    return []


def _cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "maic_tui.cli", *args], capture_output=True, timeout=120,
                          check=False, stdin=subprocess.DEVNULL, cwd=cwd)


@pytest.mark.parametrize("text", HOSTILE)
def test_every_hostile_string_is_inert_and_keeps_its_words(text: str) -> None:
    safe = terminal_safe(text)
    assert_inert(safe)
    assert terminal_safe(safe) == safe  # cleaning twice changes nothing
    if text in (MARKUP, LINK):
        assert safe == text  # markup is text: shown literally, never dropped
    assert "31m" not in safe and "2J" not in safe  # whole sequences go, parameters too


@pytest.mark.parametrize("text", HOSTILE)
def test_streamed_pieces_are_cleaned_like_the_whole(text: str) -> None:
    for cut in range(len(text) + 1):
        stream = EscapeFilter()
        assert stream.feed(text[:cut]) + stream.feed(text[cut:]) == terminal_safe(text)


def test_one_line_folds_and_cuts() -> None:
    assert one_line("a\n\tb  c", 5) == "a b c"
    assert one_line("x" * 50, 10) == "x" * 9 + "…"
    assert one_line("\ud800lone surrogate") == "lone surrogate"  # a UTF-8 terminal could not even be sent it


def test_a_hostile_classroom_loads_with_every_string_inert(tmp_path: Path) -> None:
    room = load_classroom(hostile_classroom(tmp_path))
    strings = _strings(room.model_dump())
    assert strings and all(terminal_safe(s) == s for s in strings)
    assert room.agents[0].name == f"{MARKUP} 0" and room.agents[1].name.startswith(LINK)
    assert "\n" not in room.title


def test_run_output_is_inert_json(tmp_path: Path) -> None:
    room, script = hostile_classroom(tmp_path), hostile_script(tmp_path)
    done = _cli("run", str(room), "--model", f"script:{script}", "--say", "first?", "--data-dir", str(tmp_path))
    assert done.returncode == 0, done.stderr
    assert_inert_bytes(done.stdout)
    events = [json.loads(line) for line in done.stdout.decode().splitlines()]
    for event in events:
        for text in _strings(event):
            assert_inert(text)
    cue = next(e for e in events if e["type"] == "cue_user")["data"]
    assert MARKUP in cue["options"] and MARKUP in cue["prompt"]  # literal, not dropped
    assert MARKUP in "".join(e["data"]["content"] for e in events if e["type"] == "text_delta")


def test_c1_controls_in_names_never_reach_run_output_raw(tmp_path: Path) -> None:
    room = tmp_path / "c1.toml"
    room.write_text(load_classroom_text_with_name("Mx. \u009b2JOdd\u009d0;t\u009c"), encoding="utf-8")
    done = _cli("run", str(room), "--say", "hello", "--data-dir", str(tmp_path))
    assert done.returncode == 0, done.stderr
    assert_inert_bytes(done.stdout)
    assert "Mx. Odd" in done.stdout.decode()


def load_classroom_text_with_name(name: str) -> str:
    return f"""title = "C1"
[[agents]]
id = "t"
name = {toml_string(name)}
role = "teacher"
persona = "Calm."
avatar = "T"
color = "#123456"
"""


def test_demo_transcript_sessions_export_and_replay_are_inert(tmp_path: Path) -> None:
    room, script = hostile_classroom(tmp_path), hostile_script(tmp_path)
    data = ["--data-dir", str(tmp_path / "data")]
    assert _cli("run", str(room), "--model", f"script:{script}", "--say", LINK, *data).returncode == 0
    demo = _cli("demo", str(room), "--pace", "0", *data)
    assert demo.returncode == 0, demo.stderr
    assert_inert_bytes(demo.stdout)
    assert MARKUP in demo.stdout.decode()
    listing = _cli("sessions", *data)
    assert listing.returncode == 0 and b"[link=https://evil.example]" in listing.stdout
    assert_inert_bytes(listing.stdout)
    session_id = listing.stdout.decode().splitlines()[-1].split()[0]  # the older one: the hostile run
    markdown = _cli("export", session_id, "--format", "md", *data)
    assert markdown.returncode == 0 and markdown.stdout
    assert_inert_bytes(markdown.stdout)
    log = tmp_path / "s.jsonl"
    exported = _cli("export", session_id, "--format", "jsonl", "-o", str(log), *data)
    assert exported.returncode == 0
    assert_inert_bytes(log.read_bytes())
    replayed = _cli("replay", str(log), "--headless")
    assert replayed.returncode == 0, replayed.stderr
    assert_inert_bytes(replayed.stdout)
    assert MARKUP in replayed.stdout.decode()


def test_a_hostile_log_replays_inert(tmp_path: Path) -> None:
    room_text = load_classroom_text_with_name("Ms. T")
    header = {"type": "session", "data": {"id": "\x1b]0;PWNED-TITLE\x07id", "classroom": "c", "title": HOSTILE[5],
                                          "model": "demo", "started": 0, "classroomToml": room_text}}
    records = [
        {"type": "learner", "data": {"text": HOSTILE[4]}, "t": 0},
        {"type": "agent_start", "data": {"messageId": "m1-t", "agentId": "t", "agentName": HOSTILE[2],
                                         "agentAvatar": "\x1b[2J", "agentColor": "#123456"}, "t": 0.1},
        {"type": "text_delta", "data": {"messageId": "m1-t", "content": " ".join(HOSTILE)}, "t": 0.2},
        {"type": "agent_end", "data": {"messageId": "m1-t", "agentId": "t"}, "t": 0.3},
        {"type": "cue_user", "data": {"prompt": HOSTILE[3], "options": [HOSTILE[6], HOSTILE[2]]}, "t": 0.4},
    ]
    log = tmp_path / "hostile.jsonl"
    log.write_text("\n".join(json.dumps(x) for x in [header, *records]) + "\n", encoding="utf-8")
    replayed = _cli("replay", str(log), "--headless")
    assert replayed.returncode == 0, replayed.stderr
    assert_inert_bytes(replayed.stdout)
    assert b"id" in replayed.stdout.splitlines()[0]


def test_error_lines_quoting_hostile_names_are_inert(tmp_path: Path) -> None:
    bad_key = tmp_path / "key.toml"
    bad_key.write_text(load_classroom_text_with_name("Ms. T") + '"\\u001b]0;PWNED-TITLE\\u0007k" = 1\n',
                       encoding="utf-8")
    checked = _cli("validate", str(bad_key), "derivatives.toml-\x1b]0;PWNED-TITLE\x07")
    assert checked.returncode == 2
    assert_inert_bytes(checked.stderr + checked.stdout)
    assert b"unknown key" in checked.stderr and b"no such classroom" in checked.stderr
    missing = _cli("run", "nowhere/\x1b]52;c;ZXZpbA==\x07.toml", "--say", "hi")
    assert missing.returncode == 2 and missing.stderr.count(b"\n") == 1
    assert_inert_bytes(missing.stderr)


def test_the_same_checks_in_process(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", str(hostile_classroom(tmp_path))]) == 0
    out, _ = capsys.readouterr()
    assert out.endswith(": ok\n")
