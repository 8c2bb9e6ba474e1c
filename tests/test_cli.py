"""The command line and the headless demo: events, exit codes, no tracebacks, safe terminal output."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from maic_tui.classroom import load_classroom, sample_names
from maic_tui.cli import main
from maic_tui.events import ActionEvent, AgentEndEvent, AgentStartEvent, DoneEvent, TextDeltaEvent, from_json
from maic_tui.text_safety import terminal_safe
from maic_tui.whiteboard import Whiteboard


@pytest.mark.parametrize("name", sample_names())
def test_demo_json_is_a_well_formed_event_stream(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", name, "--json"]) == 0
    events = [from_json(line) for line in capsys.readouterr().out.splitlines()]
    classroom = load_classroom(name)
    turns = len(classroom.demo.answers) + (1 if classroom.demo.opening else 0)
    assert sum(isinstance(e, DoneEvent) for e in events) == turns
    assert isinstance(events[-1], DoneEvent)
    open_messages: set[str] = set()
    replay = Whiteboard()
    for event in events:
        if isinstance(event, AgentStartEvent):
            open_messages.add(event.data.message_id)
        elif isinstance(event, TextDeltaEvent | ActionEvent):
            assert event.data.message_id in open_messages
            # every consumer replaying the events reaches the same board
            if isinstance(event, ActionEvent) and event.data.action_name.startswith("wb_"):
                assert replay.apply(event.data.action_name, event.data.params).ok
        elif isinstance(event, AgentEndEvent):
            open_messages.remove(event.data.message_id)
        elif isinstance(event, DoneEvent):
            assert not open_messages
    assert not any(e.type == "error" for e in events)
    assert replay.elements  # every sample's demo uses the board


def test_demo_speech_matches_the_material(capsys: pytest.CaptureFixture[str]) -> None:
    main(["demo", "python-loops", "--json"])
    events = [from_json(line) for line in capsys.readouterr().out.splitlines()]
    spoken = "".join(e.data.content for e in events if isinstance(e, TextDeltaEvent))
    material = load_classroom("python-loops")
    for turn in material.demo.opening:
        for step in turn.steps:
            if step.say:
                assert step.say in spoken


def test_demo_readable_transcript(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "python-loops", "--pace", "0"]) == 0
    out = capsys.readouterr().out
    assert "💻 Dr. Grace Lin: Hi Robin." in out
    assert "✎ code edited [squares]" in out and "🙋 Robin: Why does range(1, 5) stop at 4?" in out
    assert "── Whiteboard ──" in out and "L5: # range end is exclusive" in out


def test_demo_of_a_broken_file_is_one_line_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    broken = tmp_path / "broken.toml"
    broken.write_text("title = ")
    assert main(["demo", str(broken)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"{broken}: not valid TOML")


def test_negative_pace_is_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--pace", "-1"]) == 2
    assert "--pace" in capsys.readouterr().err


def test_console_script_runs_without_a_terminal(tmp_path: Path) -> None:
    broken = tmp_path / "x.toml"
    broken.write_text('title = "x"\n[[agents]]\nid = "a"\n')
    run = subprocess.run([sys.executable, "-m", "maic_tui.cli", "validate", str(broken)],
                         capture_output=True, text=True, timeout=60, check=False)
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert f"{broken}: agents[0].name: required field is missing" in run.stderr
    ok = subprocess.run([sys.executable, "-m", "maic_tui.cli", "demo", "water-cycle"], capture_output=True,
                        text=True, timeout=60, check=False, stdin=subprocess.DEVNULL)
    assert ok.returncode == 0 and "Mr. Rivera" in ok.stdout


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("\x1b[31mred\x1b[0m", "red"),
        ("\x1b]8;;http://x\x07link\x1b]8;;\x07", "link"),
        ("\x1b]0;title\x1b\\after", "after"),
        ("bell\x07 back\x08 nul\x00", "bell back nul"),
        ("[bold red]kept literally[/]", "[bold red]kept literally[/]"),
        ("line\n\ttab", "line\n\ttab"),
        ("\x9b2J csi", " csi"),  # a C1 CSI goes whole, parameters too
    ],
)
def test_terminal_safe(raw: str, shown: str) -> None:
    assert terminal_safe(raw) == shown


def test_printed_transcript_strips_escape_sequences(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "evil.toml"
    path.write_text(
        'title = "x"\n[[agents]]\nid = "t"\nname = "T"\nrole = "teacher"\npersona = "p"\navatar = "T"\n'
        'color = "#000000"\n[[demo.opening]]\nagent = "t"\n'
        'steps = [{ say = "hi \\u001b[2J\\u001b]0;pwned\\u0007 there" }]\n'
    )
    assert main(["demo", str(path), "--pace", "0"]) == 0
    out = capsys.readouterr().out
    # Streaming splits the sequences across deltas; what matters is that no control byte reaches the terminal.
    assert not any(ord(c) < 32 and c not in "\n\t" for c in out)
    assert "T: hi " in out and "there" in out


def test_demo_is_deterministic(capsys: pytest.CaptureFixture[str]) -> None:
    timing = re.compile(r'"(latencyMs|waitedMs)":[0-9.]+')  # wall-clock times are the one thing allowed to differ
    main(["demo", "derivatives", "--json"])
    first = capsys.readouterr().out
    main(["demo", "derivatives", "--json"])
    assert timing.sub("", capsys.readouterr().out) == timing.sub("", first)
    spotlight = [from_json(line) for line in first.splitlines() if '"spotlight"' in line]
    assert spotlight and spotlight[0].data.params == {"elementId": "goals", "dimOpacity": 0.5}  # type: ignore[union-attr]
