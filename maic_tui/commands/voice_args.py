"""The voice flags of the app and of ``run`` (``--voice``, ``--voice-url``, ``--voice-model``, ``--audio-out``)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from maic_tui.speech.choice import VoiceSettings


def add_voice_flags(parser: argparse.ArgumentParser, audio_out: bool = True) -> None:
    parser.add_argument("--voice", choices=["off", "openai", "espeak"], default=None,
                        help="speak each agent in its own voice: espeak (espeak-ng, offline) or openai (any "
                             "OpenAI-compatible /audio/speech); the app remembers it, a command uses it once "
                             "(default: the remembered one, else off)")
    parser.add_argument("--voice-url", default=None, metavar="URL",
                        help="the speech server for --voice openai (default: the chat server's --base-url)")
    parser.add_argument("--voice-model", default="tts-1", metavar="NAME", help="the speech model (default tts-1)")
    if audio_out:
        parser.add_argument("--audio-out", default=None, metavar="DIR",
                            help="write each utterance as DIR/NNNN-AGENT.wav, with DIR/index.jsonl")


def voice_settings(args: argparse.Namespace, play: bool = True) -> VoiceSettings:
    from maic_tui.speech.choice import VoiceSettings, chosen_provider

    audio_out = getattr(args, "audio_out", None)
    # the app's --voice becomes the default; a headless command's (run, export --audio) is for that run only, so a
    # one-off `run --voice espeak` does not make every later run try to speak
    remember = getattr(args, "verb", None) is None
    return VoiceSettings(chosen_provider(args.voice, save=remember), args.voice_url, args.voice_model,
                         Path(audio_out) if audio_out else None, play)
