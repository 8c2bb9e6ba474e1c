"""Speech: the words a voice says, WAV bytes, the speaker's order and timing (with a provider and a player in
the test), the OpenAI-compatible provider against the fake speech server, and the faults that leave the text
going on."""

from __future__ import annotations

import asyncio
import io
import time
import wave
from pathlib import Path

import pytest

from maic_tui.speech.audio_out import AudioOut
from maic_tui.speech.providers import OpenAISpeech, SpeechError
from maic_tui.speech.speaker import Speaker
from maic_tui.speech.wav import NotAudio, joined, read_wav, repaired
from maic_tui.speech.words import Sentences, cut, speakable
from tests.fake_speech import fake_speech, tone


def test_markup_latex_and_code_are_spoken_as_words() -> None:
    said = speakable("The **derivative** is $\\frac{dy}{dx}$, see [the notes](http://x).\n```py\nx = 1\n```\n# Done")
    assert said == "The derivative is dy/dx, see the notes. (code) Done"
    assert "\\" not in speakable("Use \\sqrt{x} and \\alpha here") and "frac" not in speakable("\\frac{1}{2}")
    assert speakable("\x1b[31mred\x1b[0m") == "red"


def test_sentences_come_as_they_complete_and_long_ones_in_pieces() -> None:
    sentences = Sentences(limit=40)
    got: list[str] = []
    for char in "First one. Second one? A code block: ```x. y.``` ends. Last":
        got += sentences.feed(char)
    assert got == ["First one.", "Second one?", "A code block: (code) ends."]
    assert sentences.flush() == ["Last"]
    assert all(len(piece) <= 10 for piece in cut("a " * 30 + "b" * 25, 10))
    assert "".join(cut("x" * 25, 10)) == "x" * 25


def test_a_wav_from_a_pipe_is_repaired_and_parts_are_joined_with_pauses() -> None:
    wav = tone("hello", "nova")
    broken = wav[:40] + (0x7FFFFFFF).to_bytes(4, "little") + wav[44:]  # espeak-ng --stdout's "unknown length"
    assert read_wav(repaired(broken)).seconds == pytest.approx(0.25)
    with wave.open(io.BytesIO(joined([wav, tone("hi", "onyx")], pause=0.5))) as whole:
        assert whole.getnframes() / whole.getframerate() == pytest.approx(0.25 + 0.5 + 0.1)
    with pytest.raises(NotAudio, match="not a WAV file"):
        read_wav(b"<html>bad gateway</html>")


class Recorder:
    """A provider and a player for the speaker's tests: what was asked, and when."""

    name = "test"

    def __init__(self, synth_seconds: float = 0.05, play_seconds: float = 0.1, fail: bool = False) -> None:
        self.synth_seconds, self.play_seconds, self.fail = synth_seconds, play_seconds, fail
        self.asked: list[tuple[float, str, str]] = []
        self.played: list[tuple[float, str]] = []
        self.stopped = 0

    async def synthesize(self, text: str, voice: str) -> bytes:
        self.asked.append((time.monotonic(), text, voice))
        await asyncio.sleep(self.synth_seconds)
        if self.fail:
            raise SpeechError("the speech server answered 500: speech failed")
        return tone(text, voice)

    async def play(self, wav: bytes) -> None:
        self.played.append((time.monotonic(), read_wav(wav).frames[:8].hex()))
        try:
            await asyncio.sleep(self.play_seconds)
        except asyncio.CancelledError:
            self.stopped += 1
            raise


async def test_speech_starts_on_the_first_sentence_and_keeps_the_order() -> None:
    test = Recorder()
    speaker = Speaker(test, {"hale": "onyx", "kim": "nova"}, test)  # type: ignore[arg-type]
    speaker.message("m1", "hale")
    started = time.monotonic()
    speaker.text("m1", "Slopes are everywhere. Roads")
    await asyncio.sleep(0.02)
    assert [text for _, text, _ in test.asked] == ["Slopes are everywhere."]  # before the message is complete
    speaker.text("m1", " have them too.")
    speaker.end("m1")
    speaker.message("m2", "kim")
    speaker.text("m2", "Why?")
    speaker.end("m2")
    await asyncio.wait_for(speaker.drain(), 5)
    assert [(text, voice) for _, text, voice in test.asked] == [
        ("Slopes are everywhere.", "onyx"), ("Roads have them too.", "onyx"), ("Why?", "nova")]
    assert len(test.played) == 3 and test.played[0][0] - started < 0.2
    assert test.asked[1][0] < test.played[1][0] - 0.05  # the next one was made while the first played
    await speaker.close()


async def test_an_interruption_stops_the_sound_at_once_and_drops_the_queue() -> None:
    test = Recorder(play_seconds=5)
    speaker = Speaker(test, {"hale": "onyx"}, test)  # type: ignore[arg-type]
    speaker.message("m1", "hale")
    speaker.text("m1", "One. Two. Three. Four. ")
    await asyncio.sleep(0.2)
    assert speaker.speaking == "hale"
    speaker.interrupt()
    await asyncio.sleep(0.05)
    assert test.stopped == 1 and speaker.speaking is None and len(test.played) == 1
    speaker.message("m2", "hale")
    speaker.text("m2", "Next. ")
    await asyncio.sleep(0.2)
    assert test.played[-1] != test.played[0] and len(test.played) == 2  # "Next." and nothing of before
    await speaker.close()


async def test_a_failing_provider_is_one_notice_and_the_voice_goes_quiet(tmp_path: Path) -> None:
    test = Recorder(fail=True)
    notices: list[str] = []
    speaker = Speaker(test, {"hale": "onyx"}, test, AudioOut(tmp_path), notices.append)  # type: ignore[arg-type]
    speaker.message("m1", "hale")
    speaker.text("m1", "One. Two. Three. ")
    await asyncio.wait_for(speaker.drain(), 5)
    assert notices == ["voice off: the speech server answered 500: speech failed; the class goes on in text"]
    speaker.text("m1", "Four. ")
    assert len(test.asked) == 1 and test.played == []
    await speaker.close()


async def test_the_openai_provider_asks_for_wav_with_the_key_and_never_says_it() -> None:
    with fake_speech() as server:
        speech = OpenAISpeech(server.url, "tts-1", "sk-secret-123", timeout=2)
        wav = await speech.synthesize("Hello class.", "nova")
        assert read_wav(wav).seconds == pytest.approx(0.6)
        assert server.requests == [{"model": "tts-1", "voice": "nova", "input": "Hello class.",
                                    "response_format": "wav"}]
        assert server.headers[0]["Authorization"] == "Bearer sk-secret-123"
        for fault, words in ((dict(status=500), "answered 500"), (dict(body=b"<html>sk-secret-123</html>"),
                                                                   "not a WAV file"),
                             (dict(stall=3.0), "did not answer within 2 s")):
            for key, value in {"status": 200, "body": None, "stall": 0.0, **fault}.items():
                setattr(server, key, value)
            started = time.monotonic()
            with pytest.raises(SpeechError) as failed:
                await speech.synthesize("Hello.", "nova")
            assert words in str(failed.value) and "sk-secret-123" not in str(failed.value)
            assert "\n" not in str(failed.value) and time.monotonic() - started < 2.8
    with pytest.raises(SpeechError, match="cannot be reached"):
        await OpenAISpeech("http://127.0.0.1:9/v1", timeout=2).synthesize("Hi.", "nova")


def test_a_sentence_that_ends_where_the_text_stops_is_said_without_waiting_for_more() -> None:
    """Found in the app: the demo teacher draws for seconds after "…looks straight." and the voice waited."""
    sentences = Sentences()
    assert sentences.feed("The curve looks straight.") == ["The curve looks straight."]
    assert sentences.feed(" Take") == [] and sentences.flush() == ["Take"]
    assert Sentences().feed("Pi is 3.") == [] and Sentences().feed("Use e.g.") == []


async def test_muting_stops_the_sound_at_once_and_the_files_go_on(tmp_path: Path) -> None:
    test = Recorder(play_seconds=5)
    speaker = Speaker(test, {"hale": "onyx"}, test, AudioOut(tmp_path))  # type: ignore[arg-type]
    speaker.message("m1", "hale")
    speaker.text("m1", "One. Two. Three. ")
    await asyncio.sleep(0.2)
    assert speaker.speaking == "hale"
    speaker.toggle_mute()
    await asyncio.wait_for(speaker.drain(), 2)  # not 15 s of sound: the rest is written, not played
    assert test.stopped == 1 and len(test.played) == 1 and speaker.speaking is None
    assert sorted(p.name for p in tmp_path.glob("*.wav")) == ["0001-hale.wav", "0002-hale.wav", "0003-hale.wav"]
    await speaker.close()
