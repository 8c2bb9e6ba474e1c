"""Which function answers each verb that reads recorded sessions (cli.py parses; this picks; the verbs' modules
do the work)."""

from __future__ import annotations

import argparse
import sys

from maic_tui.commands.voice_args import voice_settings


def archive_verb(args: argparse.Namespace) -> int:
    """The verbs that read recorded sessions without the app: ``sessions``, ``export`` (but SVG), ``report``,
    ``replay --headless``."""
    if args.verb == "sessions":
        from maic_tui.commands import archive

        return archive.list_sessions(args.data_dir, sys.stdout)
    if args.verb == "report" or (args.verb == "export" and (args.format == "xapi" or args.lrs is not None)):
        from maic_tui.commands import records

        if args.verb == "report":
            return records.print_report(args.classroom, args.format, args.data_dir, args.output, sys.stdout,
                                        every_kind=args.every_kind)
        return records.export_xapi(args.session, args.format, args.data_dir, args.output, args.learner, args.lrs,
                                   sys.stdout)
    if args.verb == "export" and args.audio is not None:
        from maic_tui.commands.audio_export import export_audio

        return export_audio(args.session, args.data_dir, args.audio, voice_settings(args, play=False), sys.stdout)
    from maic_tui.commands import archive

    if args.verb == "export":
        return archive.export(args.session, args.format, args.data_dir, args.output, sys.stdout, sys.stderr)
    return archive.replay_headless(args.file, sys.stdout)
