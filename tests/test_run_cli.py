"""``maic-tui run``: one JSON event per line, one done per learner turn, the README's exit codes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from maic_tui.cli import main
from maic_tui.events import DoneEvent, from_json
from tests.engine_helpers import pick, text


def _events(out: str) -> list:
    return [from_json(line) for line in out.splitlines()]


def test_run_prints_wire_events_for_each_turn(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "water-cycle", "--say", "Why does it rain?", "--say", "What is evaporation?"]) == 0
    events = _events(capsys.readouterr().out)
    dones = [i for i, e in enumerate(events) if isinstance(e, DoneEvent)]
    assert len(dones) == 2 and dones[-1] == len(events) - 1
    assert all(e.data.end_reason == "cue_user" for e in events if isinstance(e, DoneEvent))


def test_run_with_a_script(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "s.json"
    script.write_text(json.dumps({"director": [pick("reyes"), pick("END")],
                                  "agents": {"reyes": [text("Scripted answer.")]}}))
    assert main(["run", "derivatives", "--model", f"script:{script}", "--say", "hi"]) == 0
    out = capsys.readouterr().out
    speech = "".join(e.data.content for e in _events(out) if e.type == "text_delta")
    assert speech == "Scripted answer." and out.count('"type":"done"') == 1
    assert '"endReason":"director_end"' in out  # camelCase wire form


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["run", "derivatives", "--say", "hi", "--model", "gpt"], "unknown model"),
        (["run", "derivatives", "--say", "hi", "--model", "script:/nope.json"], "cannot read script"),
        (["run", "derivatives", "--say", "@nobody hi"], "no agent called '@nobody'"),
        (["run", "no-such-class", "--say", "hi"], "no-such-class"),
        (["run", "derivatives"], "--say"),
        (["run", "derivatives", "--say", "hi", "--pace", "-2"], "--pace"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args: list[str], words: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(args) == 2
    captured = capsys.readouterr()
    assert words in captured.err and "Traceback" not in captured.err
    assert captured.out == ""


def test_bad_config_file_is_bad_input(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "config.toml"
    config.write_text('modle = "demo"\n')
    monkeypatch.setenv("MAIC_CONFIG", str(config))
    assert main(["run", "derivatives", "--say", "hi"]) == 2
    assert "unknown setting 'modle'" in capsys.readouterr().err


def test_environment_and_config_choose_the_model(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from maic_tui.settings import resolve_settings

    config = tmp_path / "config.toml"
    config.write_text('model = "openai:from-file"\nbase_url = "http://file"\ntimeout = 9\n')
    env = {"MAIC_CONFIG": str(config), "OPENAI_API_KEY": "sk-env", "MAIC_BASE_URL": "http://env"}
    spec, options = resolve_settings({"base_url": None}, env)
    assert (spec, options.base_url, options.api_key, options.timeout) == ("openai:from-file", "http://env", "sk-env", 9)
    spec, options = resolve_settings({"model": "demo", "base_url": "http://flag"}, env)
    assert (spec, options.base_url) == ("demo", "http://flag")
    assert "sk-env" not in repr(options)


def test_run_works_as_a_subprocess_without_a_terminal() -> None:
    run = subprocess.run([sys.executable, "-m", "maic_tui.cli", "run", "python-loops", "--say", "hello"],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert _events(run.stdout)[-1].type == "done"


def test_a_reader_that_goes_away_is_not_an_error() -> None:
    process = subprocess.Popen([sys.executable, "-m", "maic_tui.cli", "run", "derivatives", "--pace", "400", "--say",
                                "What is a derivative?"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdout is not None and process.stderr is not None
    assert process.stdout.readline().startswith(b'{"type":')
    process.stdout.close()  # like `| head -1`
    assert process.wait(timeout=60) == 0
    assert process.stderr.read() == b""
