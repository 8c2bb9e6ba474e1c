"""``run --voice``: each agent's speech written as it is spoken (``--audio-out``), one voice per agent, against the
fake speech server (espeak-ng is spoken for real in tests/real/test_real_espeak.py); faults are one line and the
text goes on."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from maic_tui.classroom import load_classroom
from maic_tui.cli import main
from maic_tui.speech.wav import read_wav
from tests.fake_speech import fake_speech

QUESTION = "What is a derivative?"


def spoken_text(records: list[dict[str, object]]) -> dict[str, str]:
    """Each agent's words in the run's own records."""
    said: dict[str, str] = {}
    agents = {}
    for record in records:
        data = record.get("data")
        if not isinstance(data, dict):
            continue
        if record["type"] == "agent_start":
            agents[data["messageId"]] = data["agentId"]
        elif record["type"] == "text_delta":
            who = agents[data["messageId"]]
            said[who] = said.get(who, "") + str(data["content"])
    return said


def test_each_utterance_is_a_file_in_its_agents_own_voice(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-never-written")
    out = tmp_path / "audio"
    with fake_speech() as server:
        assert main(["run", "derivatives", "--say", QUESTION, "--voice", "openai", "--voice-url", server.url,
                     "--audio-out", str(out)]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    index = [json.loads(line) for line in (out / "index.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [entry["file"] for entry in index] == [f"{n:04d}-{e['agentId']}.wav" for n, e in enumerate(index, 1)]
    assert sorted(p.name for p in out.glob("*.wav")) == [entry["file"] for entry in index]
    room = load_classroom("derivatives")
    own = {a.id: a.voice.openai for a in room.agents}  # type: ignore[union-attr]
    assert all(entry["voice"] == own[entry["agentId"]] for entry in index) and len(index) >= 2
    said = spoken_text(records)
    for agent, words in said.items():
        assert " ".join(e["text"] for e in index if e["agentId"] == agent) == " ".join(words.split())
    for entry in index:  # a file that decodes, as long as its words
        sound = read_wav((out / entry["file"]).read_bytes())
        assert sound.seconds == pytest.approx(0.05 * len(entry["text"]), abs=0.01) and entry["sceneId"] is None
    assert all("sk-never-written" not in p.read_text(encoding="utf-8", errors="replace") for p in out.iterdir())


def test_a_speech_server_that_fails_is_one_line_and_the_text_goes_on(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    with fake_speech() as server:
        server.status = 503
        assert main(["run", "derivatives", "--say", QUESTION, "--voice", "openai", "--voice-url", server.url,
                     "--audio-out", str(tmp_path / "audio")]) == 0
    captured = capsys.readouterr()
    voice_lines = [line for line in captured.err.splitlines() if "voice off" in line]
    assert voice_lines == ["maic-tui: voice off: the speech server answered 503: speech failed; the class goes "
                           "on in text"]
    assert any(json.loads(line)["type"] == "done" for line in captured.out.splitlines())


def test_the_apps_voice_flag_is_remembered_and_audio_out_needs_a_voice(tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    from maic_tui.cli.flags import voice_settings
    from maic_tui.cli.table import app_parser

    with fake_speech() as server:
        app_args = app_parser().parse_args(["derivatives", "--voice", "openai", "--voice-url", server.url])
        assert voice_settings(app_args, remember=True).provider == "openai"  # what the app opens with
        config = Path(str(__import__("os").environ["MAIC_CONFIG"])).read_text(encoding="utf-8")
        assert '[voice]\nprovider = "openai"' in config
        assert main(["run", "derivatives", "--say", "hi", "--voice-url", server.url, "--audio-out",
                     str(tmp_path / "a")]) == 0  # the remembered voice speaks
        assert (tmp_path / "a" / "index.jsonl").read_text(encoding="utf-8")
    capsys.readouterr()
    assert main(["run", "derivatives", "--say", "hi", "--voice", "off", "--audio-out", str(tmp_path / "b")]) == 2
    assert capsys.readouterr().err.strip() == ("maic-tui: --audio-out needs a voice: --voice espeak (offline) or "
                                               "--voice openai")


def test_a_headless_commands_voice_flag_is_for_that_run_only(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    import os

    config = Path(os.environ["MAIC_CONFIG"])
    with fake_speech() as server:
        assert main(["run", "derivatives", "--say", "hi", "--voice", "openai", "--voice-url", server.url,
                     "--audio-out", str(tmp_path / "once")]) == 0
        assert (tmp_path / "once" / "index.jsonl").read_text(encoding="utf-8")  # it spoke, this once
    assert not config.exists() or "voice" not in config.read_text(encoding="utf-8")  # no default changed
    capsys.readouterr()
    assert main(["run", "derivatives", "--say", "hi"]) == 0
    assert "voice" not in capsys.readouterr().err  # a later run stays quiet: no player looked for


def test_espeak_missing_is_one_line_saying_how_to_install_it(monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    from maic_tui.live import voice

    monkeypatch.setattr(voice, "find_espeak", lambda: None)
    assert main(["run", "derivatives", "--say", "hi", "--voice", "espeak"]) == 0
    lines = [line for line in capsys.readouterr().err.splitlines() if "espeak" in line]
    assert lines == ["maic-tui: voice off: espeak-ng is not installed: apt install espeak-ng (Debian, Ubuntu) or "
                     "brew install espeak-ng (macOS)"]


def test_a_recorded_session_is_rendered_as_files_and_one_class_wav(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "derivatives", "--say", QUESTION, "--say", "Why?"]) == 0
    capsys.readouterr()
    assert main(["sessions"]) == 0
    ident = capsys.readouterr().out.splitlines()[1].split()[0]
    out = tmp_path / "podcast"
    with fake_speech() as server:
        assert main(["export", ident, "--audio", str(out), "--voice", "openai", "--voice-url", server.url]) == 0
    index = [json.loads(line) for line in (out / "index.jsonl").read_text(encoding="utf-8").splitlines()]
    assert capsys.readouterr().out == f"wrote {len(index)} utterances and {out / 'class.wav'}\n"
    parts = sum(read_wav((out / e["file"]).read_bytes()).seconds for e in index)
    whole = read_wav((out / "class.wav").read_bytes()).seconds
    assert whole == pytest.approx(parts + 0.4 * (len(index) - 1), abs=0.01) and len(index) >= 4
    with fake_speech() as server:
        server.status = 500
        assert main(["export", ident, "--audio", str(tmp_path / "x"), "--voice", "openai", "--voice-url",
                     server.url]) == 1
    assert capsys.readouterr().err.startswith("maic-tui: the speech server answered 500: speech failed; 0 "
                                              "utterances written to")


def test_a_lesson_speaks_its_script_lines_with_their_scene_and_no_sound_device_is_one_notice(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    from maic_tui.live import voice

    broken = (sys.executable, "-c", "import sys; sys.stderr.write('no sound card\\n'); sys.exit(1)")
    monkeypatch.setattr(voice, "find_player", lambda: broken)
    out = tmp_path / "lesson"
    with fake_speech() as server:
        assert main(["run", "water-cycle", "--lesson", "--say", "go on", "--say", "b", "--voice", "openai",
                     "--voice-url", server.url, "--audio-out", str(out)]) == 0
    index = [json.loads(line) for line in (out / "index.jsonl").read_text(encoding="utf-8").splitlines()]
    scenes = [entry["sceneId"] for entry in index]
    assert scenes[0] == "loop" and None not in scenes and len(set(scenes)) >= 2
    notices = [line for line in capsys.readouterr().err.splitlines() if "no sound" in line]
    assert len(notices) == 1 and notices[0].endswith("could not play sound: no sound card; the class goes on in text")
