"""The class's voice for a session: which provider speaks (``--voice``, else ``[voice] provider`` in the config
file, else off), each agent's voice, where the sound goes (the speakers, ``--audio-out``), and the records a
session plays, passed on to the speaker as they come (``feed``)."""

from __future__ import annotations

from collections.abc import Callable

from maic_tui.bad_input import BadInput
from maic_tui.classroom.models import Classroom
from maic_tui.classroom.voices import assign
from maic_tui.events import AgentEndEvent, AgentStartEvent, TextDeltaEvent
from maic_tui.files import Unwritable
from maic_tui.i18n import _
from maic_tui.llm.options import ModelOptions
from maic_tui.log.records import InterruptRecord, Record, SceneRecord
from maic_tui.speech.audio_out import AudioOut
from maic_tui.speech.choice import VoiceSettings, configured_language
from maic_tui.speech.player import Player, find_player
from maic_tui.speech.providers import INSTALL_ESPEAK, Espeak, OpenAISpeech, SpeechProvider, find_espeak
from maic_tui.speech.speaker import Speaker


class VoiceError(BadInput):
    """A voice request that cannot start; one line, before the class does."""


def provider_for(settings: VoiceSettings, options: ModelOptions) -> SpeechProvider:
    if settings.provider == "espeak":
        program = find_espeak()
        if program is None:
            raise VoiceError(_(INSTALL_ESPEAK))
        return Espeak(program, timeout=options.timeout)
    url = settings.url or options.base_url
    if not url:
        raise VoiceError(_("--voice openai needs a speech server: --voice-url URL (or the chat server's --base-url)"))
    return OpenAISpeech(url, settings.model, options.api_key, options.timeout)


def make_speaker(classroom: Classroom, settings: VoiceSettings, options: ModelOptions,
                 notice: Callable[[str], None]) -> Speaker | None:
    """The session's speaker, or None with the voice off. A provider that cannot start is one ``notice`` and no
    voice (the class goes on in text); ``--audio-out`` without a voice is a VoiceError."""
    if settings.provider == "off":
        if settings.audio_out is not None:
            raise VoiceError(_("--audio-out needs a voice: --voice espeak (offline) or --voice openai"))
        return None
    audio_out = AudioOut(settings.audio_out) if settings.audio_out is not None else None
    if audio_out is not None:
        try:
            audio_out.prepare()
        except Unwritable as exc:
            raise VoiceError(exc.lines[0]) from None
        except OSError as exc:
            raise VoiceError(_("--audio-out {path}: {reason}").format(path=settings.audio_out,
                                                                        reason=exc.strerror or exc)) from None
    try:
        provider = provider_for(settings, options)
    except VoiceError as exc:
        if audio_out is not None:
            raise
        notice(_("voice off: {reason}").format(reason=exc.lines[0]))
        return None
    player = None
    if settings.play:
        command = find_player()
        if command is None:
            notice(_("no sound player found (pw-play, paplay, aplay, afplay or ffplay): the class goes on in text"))
        else:
            player = Player(command)
    voices = assign(classroom.agents, settings.provider, classroom.language, speech_language(classroom, settings))
    return Speaker(provider, voices, player, audio_out, notice)


def speech_language(classroom: Classroom, settings: VoiceSettings) -> str | None:
    """The language the voices speak when it is not the class's own: the session's, else ``[voice] language``
    in the config file (the listener's choice), else the classroom's ``speech_language`` (its author's)."""
    return settings.language or configured_language() or classroom.speech_language


def feed(speaker: Speaker) -> Callable[[Record], None]:
    """What the speaker takes from each record a session plays."""

    def take(record: Record) -> None:
        if isinstance(record, AgentStartEvent):
            speaker.message(record.data.message_id, record.data.agent_id)
        elif isinstance(record, TextDeltaEvent):
            speaker.text(record.data.message_id, record.data.content)
        elif isinstance(record, AgentEndEvent):
            speaker.end(record.data.message_id)
        elif isinstance(record, SceneRecord):
            speaker.scene(record.data.id)
        elif isinstance(record, InterruptRecord):
            speaker.interrupt()

    return take
