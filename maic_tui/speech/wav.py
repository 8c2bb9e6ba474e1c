"""WAV bytes: checked (a speech server may answer something that is not audio), repaired (espeak-ng writing to
a pipe cannot know its length and says 2 GB), measured, and joined with pauses into one file (``class.wav``),
converted to the first part's rate and channels where they differ."""

from __future__ import annotations

import io
import struct
import wave
from dataclasses import dataclass


class NotAudio(ValueError):
    """Bytes that are not a PCM WAV file; the message says what they look like."""


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
            code, channels, rate, _, _, bits = struct.unpack("<HHIIHH", data[body:body + 16])
            if code not in (1, 0xFFFE) or bits not in (8, 16, 24, 32) or not channels or not rate:
                raise NotAudio(f"a WAV file of a kind that is not played here (format {code}, {bits} bits)")
            fmt = (channels, bits // 8, rate)
        elif kind == b"data":
            if fmt is None:
                raise NotAudio("a WAV file with its sound before its format")
            end = min(len(data), body + size)
            frames = data[body:end]
            frame = fmt[0] * fmt[1]
            return Sound(fmt[0], fmt[1], fmt[2], frames[: len(frames) - len(frames) % frame])
        pos = body + size + (size % 2)
    raise NotAudio("a WAV file with no sound in it")


def repaired(data: bytes) -> bytes:
    return read_wav(data).to_wav()


def _converted(sound: Sound, like: Sound) -> bytes:
    """``sound``'s frames at ``like``'s rate, channels and width (nearest sample: speech, not music)."""
    if (sound.channels, sound.width, sound.rate) == (like.channels, like.width, like.rate):
        return sound.frames
    samples = _mono(sound)
    count = int(len(samples) * like.rate / sound.rate)
    picked = [samples[min(len(samples) - 1, int(n * sound.rate / like.rate))] for n in range(count)]
    return b"".join(_encode(value, like.width) * like.channels for value in picked)


def _mono(sound: Sound) -> list[float]:
    step = sound.channels * sound.width
    values = []
    for start in range(0, len(sound.frames), step):
        sample = sound.frames[start:start + sound.width]
        if sound.width == 1:
            values.append((sample[0] - 128) / 128)
        else:
            values.append(int.from_bytes(sample, "little", signed=True) / (1 << (8 * sound.width - 1)))
    return values


def _encode(value: float, width: int) -> bytes:
    if width == 1:
        return bytes([max(0, min(255, int(value * 128 + 128)))])
    top = (1 << (8 * width - 1)) - 1
    return max(-top - 1, min(top, int(value * top))).to_bytes(width, "little", signed=True)


def joined(parts: list[bytes], pause: float = 0.4) -> bytes:
    """The parts one after the other, ``pause`` seconds of silence between them."""
    sounds = [read_wav(part) for part in parts]
    if not sounds:
        return Sound(1, 2, 22_050, b"").to_wav()
    first = sounds[0]
    frame = first.channels * first.width
    silence = (b"\x80" if first.width == 1 else b"\x00") * (frame * int(first.rate * pause))
    pieces: list[bytes] = []
    for number, sound in enumerate(sounds):
        if number:
            pieces.append(silence)
        pieces.append(_converted(sound, first))
    return Sound(first.channels, first.width, first.rate, b"".join(pieces)).to_wav()
