"""Sound out of the machine's speakers through the platform's own player, found once at start (PipeWire's
pw-play, PulseAudio's paplay, ALSA's aplay, macOS's afplay, else ffplay). None found, or one that fails (no
sound device): the caller says so once and goes on without sound."""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

PLAYERS = (("pw-play",), ("paplay",), ("aplay", "-q"), ("afplay",),
           ("ffplay", "-nodisp", "-autoexit", "-loglevel", "quiet"))


class NoSound(Exception):
    """Sound cannot be played here; one line."""


def find_player() -> tuple[str, ...] | None:
    for command in PLAYERS:
        found = shutil.which(command[0])
        if found:
            return (found, *command[1:])
    return None


@dataclass
class Player:
    command: tuple[str, ...]

    async def play(self, wav: bytes) -> None:
        """Plays ``wav`` to its end; cancelled, it stops at once. NoSound when the player fails."""
        with tempfile.NamedTemporaryFile(suffix=".wav", delete=False) as handle:
            handle.write(wav)
        path = Path(handle.name)
        try:
            process = await asyncio.create_subprocess_exec(*self.command, str(path),
                                                           stdout=asyncio.subprocess.DEVNULL,
                                                           stderr=asyncio.subprocess.PIPE)
            try:
                _, err = await process.communicate()
            except asyncio.CancelledError:
                with contextlib.suppress(ProcessLookupError):
                    process.kill()
                await process.wait()
                raise
            if process.returncode != 0:
                detail = err.decode("utf-8", "replace").strip().splitlines()
                raise NoSound(f"{Path(self.command[0]).name} could not play sound"
                              f"{': ' + detail[-1][:120] if detail else ''}")
        except OSError as exc:
            raise NoSound(f"{self.command[0]} could not start: {exc.strerror or exc}") from None
        finally:
            path.unlink(missing_ok=True)
