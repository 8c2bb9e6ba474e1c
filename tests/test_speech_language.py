"""What the voices speak (issue 53): each agent's espeak-ng voice speaks the class's language (zh as Mandarin,
``cmn``), ``speech_language`` in the classroom or ``[voice] language`` in the config speaks another (OpenMAIC
#344), an agent's own voice keeping its variant. Through files (``--audio-out``), against a stand-in espeak-ng
that says which voice it was asked for (espeak-ng itself: tests/real/test_real_espeak.py)."""

from __future__ import annotations

import json
import sys
import wave
from pathlib import Path

import pytest

from maic_tui.classroom.models import Agent
from maic_tui.classroom.voices import assign, espeak_language
from maic_tui.cli import main

SAMPLES = Path(__file__).parents[1] / "sample_classrooms"

# A stand-in for espeak-ng: a WAV of 10 ms of silence per character of the text on stdin, its voice logged.
STAND_IN = """\
import io, sys, wave
voice = sys.argv[sys.argv.index("-v") + 1]
text = sys.stdin.read()
with open(sys.argv[0] + ".log", "a", encoding="utf-8") as log:
    log.write(voice + "\\n")
out = io.BytesIO()
with wave.open(out, "wb") as sound:
    sound.setnchannels(1); sound.setsampwidth(2); sound.setframerate(22050)
    sound.writeframes(b"\\0\\0" * 220 * len(text))
sys.stdout.buffer.write(out.getvalue())
"""


@pytest.fixture
def espeak(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The stand-in's log: one voice per sentence it was asked to speak."""
    from maic_tui.live import voice

    program = tmp_path / "espeak-ng"
    program.write_text(f"#!{sys.executable}\n{STAND_IN}", encoding="utf-8")
    program.chmod(0o755)
    monkeypatch.setattr(voice, "find_espeak", lambda: str(program))
    return Path(f"{program}.log")


def spoken(folder: Path) -> list[dict[str, str]]:
    index = [json.loads(line) for line in (folder / "index.jsonl").read_text(encoding="utf-8").splitlines()]
    for entry in index:  # each file decodes, as long as its words
        with wave.open(str(folder / entry["file"]), "rb") as sound:
            assert sound.getnframes() == 220 * len(entry["text"]) > 0
    return index


def test_espeak_ng_names_chinese_as_mandarin_and_keeps_other_codes() -> None:
    assert [espeak_language(code) for code in ("zh", "zh-Hans", "zh-TW", "zh-HK", "ja", "ar", "pt-BR", "es")] == [
        "cmn", "cmn", "cmn", "yue", "ja", "ar", "pt-br", "es"]
    teacher = Agent.model_validate({"id": "t", "name": "T", "role": "teacher", "persona": "p",
                                    "avatar": "T", "color": "#000000", "voice": {"espeak": "en+f2"}})
    student = Agent.model_validate({"id": "s", "name": "S", "role": "student", "persona": "p", "avatar": "S",
                                    "color": "#ffffff"})
    assert assign([teacher, student], "espeak", "zh") == {"t": "en+f2", "s": "cmn+m3"}  # its own, as written
    assert assign([teacher, student], "espeak", "en", "zh") == {"t": "cmn+f2", "s": "cmn+m3"}  # asked to speak zh
    assert assign([teacher, student], "openai", "en", "zh")["t"] != assign([teacher, student], "espeak", "en")["t"]


def test_the_chinese_class_is_spoken_in_mandarin(tmp_path: Path, espeak: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "audio"
    assert main(["run", "derivatives-zh", "--say", "什么是导数？", "--voice", "espeak", "--audio-out", str(out)]) == 0
    index = spoken(out)
    assert len({e["agentId"] for e in index}) >= 2 and all(e["voice"].startswith("cmn+") for e in index)
    assert "导数就是曲线在某一点的斜率" in "".join(e["text"] for e in index)
    assert espeak.read_text(encoding="utf-8").split() == [e["voice"] for e in index]  # what espeak-ng was asked


def test_a_classrooms_speech_language_and_the_config_speak_another(
        tmp_path: Path, espeak: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    text = (SAMPLES / "derivatives-zh.toml").read_text(encoding="utf-8")
    heard_in_english = tmp_path / "zh-heard-in-en.toml"
    heard_in_english.write_text(text.replace('language = "zh"', 'language = "zh"\nspeech_language = "en"', 1),
                                encoding="utf-8")
    out = tmp_path / "a"
    assert main(["run", str(heard_in_english), "--say", "什么是导数？", "--voice", "espeak",
                 "--audio-out", str(out)]) == 0
    assert {e["voice"].split("+")[0] for e in spoken(out)} == {"en"}
    # the listener's [voice] language wins over the file's: the English class (own voices en+…) heard in Spanish
    config = tmp_path / "config.toml"
    config.write_text('[voice]\nlanguage = "es"\n', encoding="utf-8")
    monkeypatch.setenv("MAIC_CONFIG", str(config))
    out = tmp_path / "b"
    assert main(["run", "derivatives", "--say", "What is a derivative?", "--voice", "espeak",
                 "--audio-out", str(out)]) == 0
    index = spoken(out)
    assert index and all(e["voice"].startswith("es+") for e in index)
    assert {e["voice"] for e in index} == {f"es+{e['voice'].split('+')[1]}" for e in index}  # variants kept
    capsys.readouterr()


def test_a_classrooms_speech_language_is_written_back_as_it_was_read() -> None:
    from maic_tui.classroom.loader import load_classroom, load_classroom_text
    from maic_tui.classroom.toml_writer import classroom_toml

    heard_in_english = load_classroom("derivatives-zh").model_copy(update={"speech_language": "en"})
    again = load_classroom_text(classroom_toml(heard_in_english), "written")
    assert again == heard_in_english and again.speech_language == "en"
