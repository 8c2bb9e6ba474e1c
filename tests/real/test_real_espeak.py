"""Real tier: espeak-ng from apt speaks a lesson for real. WAV files that decode, one voice per agent, durations
that grow with the text, and a class.wav that holds them all."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from maic_tui.cli import main
from maic_tui.speech.wav import read_wav

pytestmark = pytest.mark.real_server


def test_espeak_speaks_a_class_and_its_recording(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert shutil.which("espeak-ng"), ".ci/run installs espeak-ng for this tier"
    out = tmp_path / "live"
    assert main(["run", "derivatives", "--say", "What is a derivative?", "--say", "Why does it matter?",
                 "--voice", "espeak", "--audio-out", str(out)]) == 0
    index = [json.loads(line) for line in (out / "index.jsonl").read_text(encoding="utf-8").splitlines()]
    agents = {e["agentId"] for e in index}
    assert len(agents) >= 2 and len({e["voice"] for e in index}) == len(agents)
    assert all(e["voice"].startswith("en+") for e in index)
    timed = sorted((len(e["text"]), read_wav((out / e["file"]).read_bytes()).seconds) for e in index)
    assert all(seconds > 0.3 for _, seconds in timed)
    short, long_ = timed[0], timed[-1]
    assert long_[0] > 2 * short[0] and long_[1] > 1.5 * short[1]  # longer text, longer speech
    capsys.readouterr()
    assert main(["sessions"]) == 0
    ident = capsys.readouterr().out.splitlines()[1].split()[0]
    again = tmp_path / "export"
    assert main(["export", ident, "--audio", str(again), "--voice", "espeak"]) == 0
    whole = read_wav((again / "class.wav").read_bytes())
    parts = [read_wav(p.read_bytes()).seconds for p in sorted(again.glob("[0-9]*.wav"))]
    assert len(parts) == len(index) and whole.seconds == pytest.approx(sum(parts) + 0.4 * (len(parts) - 1), abs=0.05)


def _heard(folder: Path) -> list[tuple[str, str, float]]:
    """Each utterance's voice, text and length in seconds, its WAV decoded by the standard library."""
    import wave

    index = [json.loads(line) for line in (folder / "index.jsonl").read_text(encoding="utf-8").splitlines()]
    heard = []
    for entry in index:
        with wave.open(str(folder / entry["file"]), "rb") as sound:
            heard.append((entry["voice"], entry["text"], sound.getnframes() / sound.getframerate()))
    return heard


def test_espeak_speaks_the_chinese_class_in_mandarin_and_in_english_when_asked(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert shutil.which("espeak-ng"), ".ci/run installs espeak-ng for this tier"
    mandarin = tmp_path / "cmn"
    assert main(["run", "derivatives-zh", "--say", "什么是导数？", "--voice", "espeak",
                 "--audio-out", str(mandarin)]) == 0
    heard = _heard(mandarin)
    assert heard and all(voice.startswith("cmn+") and seconds > 0.5 for voice, _, seconds in heard)
    # The same sentences in an English voice spell out each character ("Chinese letter"): far longer.
    text = (Path(__file__).parents[2] / "sample_classrooms" / "derivatives-zh.toml").read_text(encoding="utf-8")
    english = tmp_path / "en.toml"
    english.write_text(text.replace('language = "zh"', 'language = "zh"\nspeech_language = "en"', 1),
                       encoding="utf-8")
    assert main(["run", str(english), "--say", "什么是导数？", "--voice", "espeak",
                 "--audio-out", str(tmp_path / "en")]) == 0
    spelt = _heard(tmp_path / "en")
    assert [t for _, t, _ in spelt] == [t for _, t, _ in heard] and all(v.startswith("en+") for v, _, _ in spelt)
    assert sum(s for _, _, s in spelt) > 1.3 * sum(s for _, _, s in heard)
    capsys.readouterr()
