"""Flags several verbs share: the model's (``--model``, ``--base-url``, ...), ``--data-dir``, ``--learner`` and the
voice's (``--voice``, ``--voice-url``, ``--voice-model``, ``--audio-out``), and what a verb's handler reads from
them."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from maic_tui.cli.arguments import MAX_TIMEOUT, rate
from maic_tui.i18n import _

if TYPE_CHECKING:
    from maic_tui.speech.choice import VoiceSettings


def add_model_flags(parser: argparse.ArgumentParser, several: bool = False) -> None:
    if several:  # eval compares models: one column each
        parser.add_argument("--model", action="append", default=None, metavar="SPEC",
                            help=_("the model to play the scenarios with (repeat to compare models; default: each "
                                 "scenario's own)"))
    else:
        parser.add_argument("--model", default=None, metavar="SPEC",
                            help=_("demo (default), openai:<model> or script:<path>"))
    parser.add_argument("--base-url", default=None, metavar="URL",
                        help=_("OpenAI-compatible server (or OPENAI_BASE_URL)"))
    parser.add_argument("--api-key", default=None, metavar="KEY",
                        help=_("the server's API key (better: OPENAI_API_KEY, which other users cannot see in ps)"))
    parser.add_argument("--structured-output", default=None,
                        choices=["auto", "off", "json_schema", "gbnf", "json_object"],
                        help=_("constrain output to a JSON schema: auto (default) finds what the server accepts"))
    parser.add_argument("--timeout", type=rate(MAX_TIMEOUT), default=None, metavar="SECONDS",
                        help=_("bounds a whole model call, retries included (default 60)"))
    parser.add_argument("--seed", type=int, default=0, metavar="N", help=_("the demo model's seed"))


def model_flags(args: argparse.Namespace) -> dict[str, object]:
    """The model flags as ``resolve_settings`` takes them."""
    return {"model": args.model, "base_url": args.base_url, "api_key": args.api_key,
            "structured_output": args.structured_output, "timeout": args.timeout}


def add_data_dir_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data-dir", default=None, metavar="DIR",
                        help=_("where sessions are recorded (or MAIC_DATA_DIR; default: your data directory)"))


def add_learner_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--learner", default=None, metavar="NAME",
                        help=_("who the learning records are about (default: [learner] name in the config, else the "
                             "classroom's learner)"))


def add_role_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--role", default=None, metavar="NAME",
                        help=_("in a project, the role you take (else you pick it when the project asks)"))


def default_pace(given: float | None) -> float:
    """Readable speed for a person watching a terminal; full speed when the output goes to a program."""
    if given is not None:
        return given
    from maic_tui.llm.options import DEMO_PACE

    return DEMO_PACE if sys.stdout.isatty() else 0.0


def add_voice_flags(parser: argparse.ArgumentParser, audio_out: bool = True) -> None:
    parser.add_argument("--voice", choices=["off", "openai", "espeak"], default=None,
                        help=_("speak each agent in its own voice: espeak (espeak-ng, offline) or openai (any "
                             "OpenAI-compatible /audio/speech); the app remembers it, a command uses it once "
                             "(default: the remembered one, else off)"))
    parser.add_argument("--voice-url", default=None, metavar="URL",
                        help=_("the speech server for --voice openai (default: the chat server's --base-url)"))
    parser.add_argument("--voice-model", default="tts-1", metavar="NAME", help=_("the speech model (default tts-1)"))
    if audio_out:
        parser.add_argument("--audio-out", default=None, metavar="DIR",
                            help=_("write each utterance as DIR/NNNN-AGENT.wav, with DIR/index.jsonl"))


def voice_settings(args: argparse.Namespace, play: bool = True, remember: bool = False) -> VoiceSettings:
    """The voice the flags ask for. Only the app ``remember``s it as the default: a headless command's (``run``,
    ``export --audio``) is for that run only, so a one-off ``run --voice espeak`` does not make every later run
    try to speak."""
    from maic_tui.speech.choice import VoiceSettings, chosen_provider

    audio_out = getattr(args, "audio_out", None)
    return VoiceSettings(chosen_provider(args.voice, save=remember), args.voice_url, args.voice_model,
                         Path(audio_out) if audio_out else None, play)
