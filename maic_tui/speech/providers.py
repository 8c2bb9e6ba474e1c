"""Who turns a sentence into sound: espeak-ng on this machine (offline), or any OpenAI-compatible
``POST {url}/audio/speech`` (OpenAI, Kokoro-FastAPI, openedai-speech, LocalAI, Speaches). Either gives WAV
bytes, checked and repaired, or raises ``SpeechError`` with one line that never holds the key: whatever goes
wrong, in the call or in the audio that came back (a cut header, a rate no voice has, more than
``MAX_ANSWER_BYTES``, an answer that trickles past the deadline)."""

from __future__ import annotations

import asyncio
import shutil
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    import aiohttp

from maic_tui.i18n import N_, _
from maic_tui.redaction import secret_free_line
from maic_tui.speech.wav import repaired
from maic_tui.text_safety import one_line

MAX_ANSWER_BYTES = 32 << 20  # one sentence's WAV: 4,000 characters at 48 kHz stereo take about 20 MB
INSTALL_ESPEAK = N_("espeak-ng is not installed: apt install espeak-ng (Debian, Ubuntu) or brew install espeak-ng "
                    "(macOS)")


def _error_text(body: bytes) -> str:
    """An error body's message (OpenAI's ``{"error": {"message": …}}``), else its first characters."""
    import json

    try:
        found = json.loads(body[:4000])
        message = found["error"]["message"] if isinstance(found.get("error"), dict) else found.get("detail")
        if isinstance(message, str) and message:
            return message
    except (ValueError, AttributeError, KeyError, TypeError):
        pass
    return body[:300].decode("utf-8", "replace")


class SpeechError(Exception):
    """A sentence could not be spoken; the message is one line for the screen or stderr."""


class SpeechProvider(Protocol):
    name: str

    async def synthesize(self, text: str, voice: str) -> bytes:
        """WAV bytes for ``text`` in ``voice``; SpeechError otherwise."""
        ...


def find_espeak() -> str | None:
    return shutil.which("espeak-ng") or shutil.which("espeak")


@dataclass
class Espeak:
    """espeak-ng in a process of its own per sentence; the text goes on stdin, never on the command line."""

    program: str
    timeout: float = 60.0
    name: str = "espeak"

    async def synthesize(self, text: str, voice: str) -> bytes:
        try:
            process = await asyncio.create_subprocess_exec(
                self.program, "-v", voice, "--stdout", stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        except OSError as exc:
            raise SpeechError(_("espeak-ng could not start: {reason}").format(reason=exc.strerror or exc)) from None
        try:
            async with asyncio.timeout(self.timeout):  # not wait_for: on 3.11 it may drop a cancel (answer.py)
                out, err = await process.communicate(text.encode("utf-8"))
        except (TimeoutError, asyncio.CancelledError):
            process.kill()
            await process.wait()
            raise
        if process.returncode != 0 or not out:
            reason = one_line(err.decode("utf-8", "replace"), 160) or _("exit status {code}").format(
                code=process.returncode)
            raise SpeechError(_("espeak-ng could not speak in voice {voice}: {reason}").format(voice=repr(voice),
                                                                                             reason=reason))
        try:
            return repaired(out)
        except Exception as exc:  # anything in the bytes: one line, never a worker that dies
            raise SpeechError(_("espeak-ng gave no sound: {reason}").format(reason=one_line(str(exc), 200))) from None


@dataclass
class OpenAISpeech:
    """An OpenAI-compatible speech endpoint, asked for WAV; a call is bounded by ``timeout`` as a model call is."""

    url: str  # the server's base URL, ending before /audio/speech (…/v1)
    model: str = "tts-1"
    api_key: str | None = field(default=None, repr=False)
    timeout: float = 60.0
    name: str = "openai"

    async def synthesize(self, text: str, voice: str) -> bytes:
        import aiohttp

        headers = {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}
        body = {"model": self.model, "voice": voice, "input": text, "response_format": "wav"}
        where = self.url.rstrip("/") + "/audio/speech"
        try:
            # The whole call, its body included, within the timeout: aiohttp's own counts only each read.
            async with asyncio.timeout(self.timeout), \
                    aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=self.timeout)) as client, \
                    client.post(where, json=body, headers=headers) as answer:
                data = await _capped(answer)
                if answer.status != 200:
                    raise SpeechError(self._clean(_("the speech server answered {status}: {error}").format(
                        status=answer.status, error=_error_text(data))))
        except TimeoutError:
            raise SpeechError(_("the speech server did not answer within {seconds} s").format(
                seconds=f"{self.timeout:g}")) from None
        except aiohttp.ClientError as exc:
            raise SpeechError(self._clean(_("the speech server cannot be reached at {where}: {reason}").format(
                where=where, reason=exc))) from None
        try:
            return repaired(data)
        except Exception as exc:  # anything in the bytes (a cut header, a rate of 0): one line, never a dead worker
            raise SpeechError(self._clean(_("the speech server's answer is {problem}").format(problem=exc))) from None

    def _clean(self, line: str) -> str:
        return secret_free_line(line, (self.api_key,), 300)  # the key out before the cut


async def _capped(answer: aiohttp.ClientResponse) -> bytes:
    """The body, or SpeechError as soon as it is larger than ``MAX_ANSWER_BYTES`` (nothing more is read)."""
    too_big = SpeechError(_("the speech server's answer is larger than {megabytes} MB; no sentence needs that much")
                          .format(megabytes=MAX_ANSWER_BYTES >> 20))
    if (answer.content_length or 0) > MAX_ANSWER_BYTES:
        raise too_big
    chunks, size = [], 0
    async for chunk in answer.content.iter_chunked(1 << 16):
        size += len(chunk)
        if size > MAX_ANSWER_BYTES:
            raise too_big
        chunks.append(chunk)
    return b"".join(chunks)
