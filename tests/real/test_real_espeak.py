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
