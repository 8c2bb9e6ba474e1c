"""WAV bytes: checked (a speech server may answer something that is not audio, or audio no voice makes: a rate
of 1 Hz, a thousand channels, an hour for one sentence), repaired (espeak-ng writing to a pipe cannot know its
length and says 2 GB), measured, and joined with pauses into one file (``class.wav``), converted to the first
part's rate and channels where they differ, piece by piece and written as it goes, after the whole file's size
was checked: every bound is checked before any conversion."""

from __future__ import annotations

import io
import struct
import wave
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import BinaryIO

RATES = (4_000, 192_000)  # Hz: telephone speech to studio sound; anything else is not a voice
MAX_CHANNELS = 8
MAX_SECONDS = 900.0  # one utterance (at most 4,000 characters): far above any voice's pace
MAX_CLASS_BYTES = 1 << 30  # class.wav's sound: hours of speech (a WAV file cannot exceed 4 GB at all)
_CHUNK = 1 << 16  # frames converted at a time


class NotAudio(ValueError):
    """Bytes that are not a PCM WAV file this plays, or sound out of bounds; the message says what they are."""


@dataclass(frozen=True, slots=True)
class Sound:
    channels: int
    width: int  # bytes per sample
    rate: int
    frames: bytes

    @property
    def seconds(self) -> float:
        return len(self.frames) / (self.channels * self.width * self.rate) if self.rate else 0.0

    def to_wav(self) -> bytes:
        out = io.BytesIO()
        with wave.open(out, "wb") as writer:
            writer.setnchannels(self.channels)
            writer.setsampwidth(self.width)
            writer.setframerate(self.rate)
            writer.writeframes(self.frames)
        return out.getvalue()


def read_wav(data: bytes) -> Sound:
    """The sound in ``data``; the data chunk runs to the end of the bytes whatever its header says."""
    if len(data) < 12 or data[:4] != b"RIFF" or data[8:12] != b"WAVE":
        start = data[:16].decode("utf-8", "replace")
        raise NotAudio(f"not a WAV file ({len(data)} bytes starting {start!r})")
    pos, fmt = 12, None
    while pos + 8 <= len(data):
        kind, size = data[pos:pos + 4], struct.unpack("<I", data[pos + 4:pos + 8])[0]
        body = pos + 8
        if kind == b"fmt ":
            fmt = _format(data[body:body + min(size, 16)])
        elif kind == b"data":
            if fmt is None:
                raise NotAudio("a WAV file with its sound before its format")
            end = min(len(data), body + size)
            frames = data[body:end]
            frame = fmt[0] * fmt[1]
            sound = Sound(fmt[0], fmt[1], fmt[2], frames[: len(frames) - len(frames) % frame])
            if sound.seconds > MAX_SECONDS:
                raise NotAudio(f"a WAV file of {sound.seconds:.0f} s for one sentence (at most {MAX_SECONDS:.0f} s)")
            return sound
        pos = body + size + (size % 2)
    raise NotAudio("a WAV file with no sound in it")


def _format(chunk: bytes) -> tuple[int, int, int]:
    """Channels, bytes per sample and rate of a ``fmt `` chunk, each within what a voice makes."""
    if len(chunk) < 16:
        raise NotAudio(f"a WAV file whose format is cut short ({len(chunk)} of 16 bytes)")
    code, channels, rate, _, _, bits = struct.unpack("<HHIIHH", chunk)
    if code not in (1, 0xFFFE) or bits not in (8, 16, 24, 32):
        raise NotAudio(f"a WAV file of a kind that is not played here (format {code}, {bits} bits)")
    if not 1 <= channels <= MAX_CHANNELS:
        raise NotAudio(f"a WAV file with {channels} channels (1 to {MAX_CHANNELS} are played)")
    if not RATES[0] <= rate <= RATES[1]:
        raise NotAudio(f"a WAV file at {rate} Hz ({RATES[0]} to {RATES[1]} Hz are played)")
    return channels, bits // 8, rate


def repaired(data: bytes) -> bytes:
    return read_wav(data).to_wav()


def _converted(sound: Sound, like: Sound) -> Iterator[bytes]:
    """``sound``'s frames at ``like``'s rate, channels and width (nearest sample of the first channel: speech, not
    music), a piece at a time."""
    if (sound.channels, sound.width, sound.rate) == (like.channels, like.width, like.rate):
        yield sound.frames
        return
    step = sound.channels * sound.width
    total = len(sound.frames) // step
    for begin in range(0, _frames_as(sound, like), _CHUNK):
        pieces = []
        for n in range(begin, min(_frames_as(sound, like), begin + _CHUNK)):
            start = min(total - 1, n * sound.rate // like.rate) * step
            pieces.append(_encode(_value(sound.frames[start:start + sound.width]), like.width) * like.channels)
        yield b"".join(pieces)


def _frames_as(sound: Sound, like: Sound) -> int:
    return len(sound.frames) // (sound.channels * sound.width) * like.rate // sound.rate


def _value(sample: bytes) -> float:
    if len(sample) == 1:
        return (sample[0] - 128) / 128
    return int.from_bytes(sample, "little", signed=True) / (1 << (8 * len(sample) - 1))


def _encode(value: float, width: int) -> bytes:
    if width == 1:
        return bytes([max(0, min(255, int(value * 128 + 128)))])
    top = (1 << (8 * width - 1)) - 1
    return max(-top - 1, min(top, int(value * top))).to_bytes(width, "little", signed=True)


def joined(parts: list[bytes], pause: float = 0.4) -> bytes:
    """The parts one after the other, ``pause`` seconds of silence between them."""
    out = io.BytesIO()
    write_joined([_given(part) for part in parts], out, pause)
    return out.getvalue()


def _given(data: bytes) -> Callable[[], bytes]:
    return lambda: data


def write_joined(parts: Sequence[Callable[[], bytes]], out: BinaryIO, pause: float = 0.4) -> int:
    """The WAV files ``parts`` gives (read one at a time) one after the other into ``out``, ``pause`` seconds of
    silence between them. The whole's size is checked before anything is converted (NotAudio above
    ``MAX_CLASS_BYTES``); then it is written a piece at a time. Returns the bytes of sound written."""
    first = read_wav(parts[0]()) if parts else Sound(1, 2, 22_050, b"")
    frame = first.channels * first.width
    silence = (b"\x80" if first.width == 1 else b"\x00") * (frame * int(first.rate * pause))
    size = len(silence) * max(0, len(parts) - 1)
    for part in parts:
        size += _frames_as(read_wav(part()), first) * frame
        if size > MAX_CLASS_BYTES:
            raise NotAudio(f"the whole class would be over {MAX_CLASS_BYTES >> 20} MB of sound at "
                           f"{first.rate} Hz")
    with wave.open(out, "wb") as writer:
        writer.setnchannels(first.channels)
        writer.setsampwidth(first.width)
        writer.setframerate(first.rate)
        writer.setnframes(size // frame)
        for number, part in enumerate(parts):
            if number:
                writer.writeframesraw(silence)
            for piece in _converted(read_wav(part()), first):
                writer.writeframesraw(piece)
    return size
