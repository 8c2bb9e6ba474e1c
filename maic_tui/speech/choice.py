"""Which voice a session asked for, read without the session's libraries (the app reads it before its first
frame): ``--voice``, else ``[voice] provider`` in the config file, else off."""

from __future__ import annotations

import contextlib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

LANGUAGE_CODE = r"[a-z]{2,3}(-[A-Za-z0-9]{2,8})*"  # as a classroom's language: en, pt-BR, zh-Hans

VoiceChoice = Literal["off", "openai", "espeak"]
VOICE_CHOICES: tuple[VoiceChoice, ...] = ("off", "openai", "espeak")


@dataclass(frozen=True, slots=True)
class VoiceSettings:
    provider: VoiceChoice = "off"
    url: str | None = None  # the speech server (default: the chat server's base URL)
    model: str = "tts-1"
    audio_out: Path | None = None
    play: bool = True  # through the speakers (a command writing files for a program may say no)
    language: str | None = None  # what the voices speak; None: ``[voice] language``, else the classroom's


def configured_language() -> str | None:
    """``[voice] language`` in the config file (a language code), or None."""
    from maic_tui.settings import ConfigError, read_setting

    try:
        saved = read_setting("voice")
    except ConfigError:
        return None  # the config's own error is said where the config is read for the model
    found = saved.get("language") if isinstance(saved, dict) else None
    return found if isinstance(found, str) and re.fullmatch(LANGUAGE_CODE, found) else None


def chosen_provider(flag: str | None, save: bool = True) -> VoiceChoice:
    """``--voice`` when given (and then remembered in the config file when ``save``: the app's flag, not a headless
    command's), else the config file's, else off."""
    from maic_tui.settings import ConfigError, read_setting, save_setting

    if flag is not None:
        if save:
            with contextlib.suppress(ConfigError):  # an unwritable config file: this session still speaks
                save_setting("voice.provider", flag)
        return flag  # type: ignore[return-value]  # argparse's choices
    saved = read_setting("voice")
    found = saved.get("provider") if isinstance(saved, dict) else None
    return found if found in VOICE_CHOICES else "off"
