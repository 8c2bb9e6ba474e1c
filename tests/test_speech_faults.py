"""A speech server that misbehaves (issue 54): broken or out-of-bounds WAVs, answers too large or trickling, an
error that echoes the key, a folder that is not ours, a full disk. Each is one line and the command ends."""

from __future__ import annotations

import asyncio
import io
import json
import os
import resource
import struct
import subprocess
import sys
import time
import wave
from pathlib import Path

import pytest

from maic_tui.cli import main
from maic_tui.speech.providers import OpenAISpeech, SpeechError
from maic_tui.speech.speaker import Speaker
from maic_tui.speech.wav import MAX_CLASS_BYTES, NotAudio, joined, read_wav, write_joined
from tests.fake_speech import fake_speech, tone, wav_header

CUT_FORMAT = b"RIFF" + struct.pack("<I", 30) + b"WAVEfmt " + struct.pack("<I", 16) + b"\x01\x00\x01\x00\x40\x1f"
KEY = "sk-proj-SECRETKEY0123456789abc"


@pytest.fixture
def session(capsys: pytest.CaptureFixture[str]) -> str:
    """A recorded session of two turns (the demo model: no server needed)."""
    assert main(["run", "derivatives", "--say", "What is a derivative?", "--say", "Why?"]) == 0
    capsys.readouterr()
    assert main(["sessions"]) == 0
    return capsys.readouterr().out.splitlines()[1].split()[0]


def _export(ident: str, folder: Path, url: str) -> int:
    return main(["export", ident, "--audio", str(folder), "--voice", "openai", "--voice-url", url])


@pytest.mark.parametrize("body", [CUT_FORMAT, wav_header(0xFFFFFFFF, 64) + bytes(64),
                                  wav_header(16_000, 64, channels=0) + bytes(64)])
def test_a_malformed_wav_is_one_line_and_export_and_run_end(body: bytes, session: str, tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    with fake_speech() as server:
        server.body = body
        started = time.monotonic()
        assert _export(session, tmp_path / "out", server.url) == 1
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "the speech server's answer is a WAV file" in err, err
        assert main(["run", "derivatives", "--say", "Why?", "--voice", "openai", "--voice-url", server.url,
                     "--audio-out", str(tmp_path / "run")]) == 0
        assert time.monotonic() - started < 20
    said = capsys.readouterr()
    assert '"type": "done"' in said.out.replace('":"', '": "') and "voice off: the speech server's answer" in said.err


async def test_a_provider_that_raises_anything_is_one_notice_and_drain_ends() -> None:
    class Broken:
        name = "broken"

        async def synthesize(self, text: str, voice: str) -> bytes:
            raise struct.error("unpack requires a buffer of 16 bytes")

    notices: list[str] = []
    speaker = Speaker(Broken(), {"hale": "onyx"}, None, None, notices.append)
    speaker.message("m1", "hale")
    speaker.text("m1", "One. Two. ")
    await asyncio.wait_for(speaker.drain(), 5)
    assert notices == ["voice off: the voice failed (unpack requires a buffer of 16 bytes); the class goes on in "
                       "text"]
    await speaker.close()


@pytest.mark.parametrize("send_length", [True, False])
async def test_an_answer_larger_than_the_cap_is_refused_without_reading_it_all(send_length: bool) -> None:
    with fake_speech() as server:
        server.huge, server.send_length = 200 << 20, send_length
        started = time.monotonic()
        with pytest.raises(SpeechError, match="larger than 32 MB"):
            await OpenAISpeech(server.url, timeout=30).synthesize("Hello.", "nova")
        assert time.monotonic() - started < 10  # 200 MB were offered; at most 32 were read


async def test_a_body_that_trickles_is_cut_at_the_whole_calls_deadline() -> None:
    with fake_speech() as server:
        server.trickle = 0.2  # each byte well within any per-read timeout
        started = time.monotonic()
        with pytest.raises(SpeechError, match="did not answer within 1 s"):
            await OpenAISpeech(server.url, timeout=1).synthesize("Hello.", "nova")
        assert time.monotonic() - started < 2


def test_rates_and_sizes_are_bounded_before_any_conversion() -> None:
    with pytest.raises(NotAudio, match="at 1 Hz"):
        read_wav(wav_header(1, 400_000) + bytes(400_000))
    with pytest.raises(NotAudio, match="for one sentence"):
        read_wav(wav_header(4_000, 8_000_000) + bytes(8_000_000))  # 1,000 s
    # Each part within bounds, the whole at 192 kHz not: refused before a byte is converted or written.
    long_part = wav_header(4_000, 3_200_000, bits=8) + bytes(3_200_000)  # 800 s at 4 kHz: 307 MB at 192 kHz
    assert MAX_CLASS_BYTES < 4 * 800 * 192_000 * 2
    out = io.BytesIO()
    started = time.monotonic()
    with pytest.raises(NotAudio, match="the whole class would be over 1024 MB"):
        write_joined([lambda: tone("Hi.", "nova", 192_000)] + [lambda: long_part] * 4, out)
    assert out.getvalue() == b"" and time.monotonic() - started < 5
    with wave.open(io.BytesIO(joined([tone("Hello.", "nova"), tone("Hi.", "onyx", 8_000)], 0.5))) as whole:
        assert whole.getframerate() == 16_000
        assert whole.getnframes() / 16_000 == pytest.approx(0.3 + 0.5 + 0.15, abs=0.001)


def test_a_class_of_mixed_rates_with_one_at_1_hz_is_one_line(session: str, tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    with fake_speech() as server:
        server.rates = [192_000, 1]
        assert _export(session, tmp_path / "out", server.url) == 1
    err = capsys.readouterr().err
    assert "at 1 Hz" in err and err.count("\n") == 1 and not (tmp_path / "out" / "class.wav").exists()


def test_the_folder_keeps_what_no_run_wrote_and_no_link_is_written_through(session: str, tmp_path: Path,
                                                                           capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "podcast"
    folder.mkdir()
    (folder / "0001-my-interview.wav").write_bytes(b"mine")
    with fake_speech() as server:
        assert _export(session, folder, server.url) == 2
        assert "0001-my-interview.wav, which no earlier run wrote" in capsys.readouterr().err
        assert (folder / "0001-my-interview.wav").read_bytes() == b"mine"
        (folder / "0001-my-interview.wav").rename(folder / "my-interview.wav")
        assert _export(session, folder, server.url) == 0
        first = sorted(p.name for p in folder.iterdir())
        assert _export(session, folder, server.url) == 0  # an earlier run's files are replaced, the user's kept
        assert sorted(p.name for p in folder.iterdir()) == first and "my-interview.wav" in first
        outside = tmp_path / "elsewhere.txt"
        outside.write_text("keep", encoding="utf-8")
        for name in ("index.jsonl", "class.wav"):
            (folder / name).unlink()
            (folder / name).symlink_to(outside)
            capsys.readouterr()
            assert _export(session, folder, server.url) == 2
            assert "is a symbolic link" in capsys.readouterr().err
            assert outside.read_text(encoding="utf-8") == "keep"
            (folder / name).unlink()
            (folder / name).write_text("", encoding="utf-8")


def test_a_full_disk_is_one_line_naming_the_file_with_what_was_written(session: str, tmp_path: Path) -> None:
    folder = tmp_path / "podcast"
    with fake_speech() as server:
        server.rates = [8_000, 8_000, 192_000]  # the third file is far larger than the disk lets a file be

        def small_disk() -> None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (200_000, 200_000))

        done = subprocess.run([sys.executable, "-m", "maic_tui", "export", session, "--audio", str(folder),
                               "--voice", "openai", "--voice-url", server.url], preexec_fn=small_disk,
                              capture_output=True, text=True, timeout=120, env=os.environ.copy())
    index = [json.loads(line) for line in (folder / "index.jsonl").read_text(encoding="utf-8").splitlines()]
    third = next(folder.glob("0003-*.wav"), None)
    assert done.returncode == 1 and "internal error" not in done.stderr, done.stderr
    assert third is None and [entry["file"] for entry in index] == sorted(p.name for p in folder.glob("0*.wav"))
    assert len(index) == 2 and done.stderr.count("\n") == 1
    assert f"cannot write {folder}/0003-" in done.stderr and "File too large" in done.stderr
    assert f"2 utterances written before it ({index[0]['file']}, {index[1]['file']}, listed in index.jsonl)" \
        in done.stderr


async def test_a_server_echoing_the_key_after_padding_shows_no_part_of_it() -> None:
    with fake_speech() as server:
        for padding in (0, 60, 125, 140, 280):
            server.echo_after = padding
            with pytest.raises(SpeechError) as failed:
                await OpenAISpeech(server.url, api_key=KEY, timeout=5).synthesize("Hello.", "nova")
            line = str(failed.value)
            assert "answered 500" in line and not any(KEY[:n] in line for n in range(6, len(KEY) + 1)), line
