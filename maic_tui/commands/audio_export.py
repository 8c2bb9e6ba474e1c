"""``maic-tui export ID --audio DIR``: a recorded session's speech rendered as ``--audio-out`` writes it while
the class talks (``DIR/NNNN-AGENT.wav`` and ``DIR/index.jsonl``), then ``DIR/class.wav``: every utterance in
order with short pauses, a class to listen to as a podcast."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import TextIO

from maic_tui.commands.archive import warn_skipped
from maic_tui.files import Unwritable
from maic_tui.i18n import _, ngettext
from maic_tui.live.voice import VoiceError, feed, make_speaker
from maic_tui.log.records import InterruptRecord
from maic_tui.paths import data_dir
from maic_tui.room.replay import open_recorded
from maic_tui.settings import resolve_settings
from maic_tui.speech.audio_out import CLASS, CannotWrite
from maic_tui.speech.choice import VoiceSettings
from maic_tui.speech.wav import NotAudio
from maic_tui.text_safety import one_line

PAUSE = 0.4  # seconds between utterances in class.wav


def export_audio(session: str, folder: str | None, target: str, voice: VoiceSettings, out: TextIO,
                 err: TextIO | None = None) -> int:
    """The key and the server come from the environment and the config file, as for a class."""
    err = err or sys.stderr
    recorded = open_recorded(data_dir(folder), session)
    warn_skipped(recorded.skipped, err)
    options = resolve_settings({})[1]
    if voice.provider == "off":
        raise VoiceError(_("export --audio needs a voice: --voice espeak (offline) or --voice openai"))
    notices: list[str] = []
    settings = VoiceSettings(voice.provider, voice.url, voice.model, Path(target), play=False)
    speaker = make_speaker(recorded.classroom, settings, options, notices.append)
    assert speaker is not None and speaker.audio_out is not None  # a voice and a folder were asked for
    take = feed(speaker)

    async def render() -> None:
        try:
            for timed in recorded.closed_records():
                if not isinstance(timed.record, InterruptRecord):  # what was shown is what is heard
                    take(timed.record)
            await speaker.drain()
        finally:
            await speaker.close()

    asyncio.run(render())
    audio = speaker.audio_out
    for line in notices:  # what the voice said while it worked (a full disk): said, not only collected
        if audio.problem is not None or speaker.quiet_reason is None or speaker.quiet_reason not in line:
            print(f"maic-tui: {line}", file=err)
    if audio.problem is not None:  # its line (with what was written) was among the notices
        return 1
    if speaker.quiet_reason is not None:
        print(ngettext("maic-tui: {reason}; {count} utterance written to {path}",
                       "maic-tui: {reason}; {count} utterances written to {path}", speaker.spoken)
              .format(reason=one_line(speaker.quiet_reason, 300), count=speaker.spoken, path=target), file=err)
        return 1
    try:
        whole = audio.write_class(PAUSE)
    except (CannotWrite, NotAudio, Unwritable) as exc:
        print(_("maic-tui: {file} not written: {reason}; {so_far}")
              .format(file=CLASS, reason=one_line(str(exc), 300), so_far=audio.so_far()), file=err)
        return 1
    written = audio.written
    out.write(ngettext("wrote {count} utterance and {path}", "wrote {count} utterances and {path}", len(written))
              .format(count=len(written), path=one_line(str(whole))) + "\n")
    return 0
