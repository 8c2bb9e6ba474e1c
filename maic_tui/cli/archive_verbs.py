"""The verbs that read recorded sessions: ``sessions``, ``export``, ``report``, ``replay``, ``trace``, ``fork``,
``stats``."""

from __future__ import annotations

import argparse
import sys

from maic_tui.cli.arguments import MAX_SPEED, MAX_TURN_NUMBER, count, rate
from maic_tui.cli.command import Command
from maic_tui.cli.flags import add_data_dir_flag, add_learner_flag, add_voice_flags, voice_settings
from maic_tui.i18n import N_, _

EXPORT_FORMATS = ["md", "jsonl", "svg", "xapi"]


def _session_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("session", metavar="ID", help=_("a session id or its unique start"))


def _sessions(args: argparse.Namespace) -> int:
    from maic_tui.commands import archive

    return archive.list_sessions(args.data_dir, sys.stdout)


SESSIONS = Command("sessions", N_("list recorded sessions, newest first"), add_data_dir_flag, _sessions)


def _export_arguments(export: argparse.ArgumentParser) -> None:
    _session_argument(export)
    export.add_argument("--format", choices=EXPORT_FORMATS, default="md")
    add_learner_flag(export)
    export.add_argument("--lrs", default=None, metavar="URL",
                        help=_("with --format xapi: send the statements to this LRS endpoint (credentials from "
                             "MAIC_LRS_USER and MAIC_LRS_PASSWORD)"))
    export.add_argument("--output", "-o", default=None, metavar="FILE",
                        help=_("where to write (default: standard output; for svg, ID.svg)"))
    export.add_argument("--audio", default=None, metavar="DIR",
                        help=_("render the session's speech as DIR/NNNN-AGENT.wav, index.jsonl and class.wav"))
    add_voice_flags(export, audio_out=False)
    add_data_dir_flag(export)


def _export(args: argparse.Namespace) -> int:
    if args.format == "svg" and args.audio is None:
        from maic_tui.tui.screenshot import export_svg

        return export_svg(args.session, args.data_dir, args.output, sys.stdout)
    if args.format == "xapi" or args.lrs is not None:
        from maic_tui.commands import record_exports as records

        return records.export_xapi(args.session, args.format, args.data_dir, args.output, args.learner, args.lrs,
                                   sys.stdout)
    if args.audio is not None:
        from maic_tui.commands.audio_export import export_audio

        return export_audio(args.session, args.data_dir, args.audio, voice_settings(args, play=False), sys.stdout)
    from maic_tui.commands import archive

    return archive.export(args.session, args.format, args.data_dir, args.output, sys.stdout, sys.stderr)


EXPORT = Command("export", N_("write a recorded session as Markdown, JSONL, SVG or xAPI statements"),
                 _export_arguments, _export)


def _report_arguments(report: argparse.ArgumentParser) -> None:
    report.add_argument("--classroom", default=None, metavar="NAME", help=_("only this classroom's sessions"))
    report.add_argument("--format", choices=["csv", "md", "json"], default="csv", help=_("csv (default), md or json"))
    report.add_argument("--all", action="store_true", dest="every_kind",
                        help=_("also forks and simulated sessions (nobody's attempts: left out by default), marked in "
                             "the kind column"))
    report.add_argument("--output", "-o", default=None, metavar="FILE", help=_("where to write (default: stdout)"))
    add_data_dir_flag(report)


def _report(args: argparse.Namespace) -> int:
    from maic_tui.commands import record_exports as records

    return records.print_report(args.classroom, args.format, args.data_dir, args.output, sys.stdout,
                                every_kind=args.every_kind)


REPORT = Command("report", N_("a gradebook of recorded sessions: scenes reached, each question's points, total, "
                              "completed"), _report_arguments, _report)


def _replay_arguments(replay: argparse.ArgumentParser) -> None:
    replay.add_argument("file", metavar="FILE.jsonl")
    replay.add_argument("--speed", type=rate(MAX_SPEED), default=1.0, metavar="X", help=_("playback speed (default 1)"))
    replay.add_argument("--headless", action="store_true", help=_("print the rebuilt transcript and board"))
    replay.add_argument("--theme", default=None, metavar="NAME", help=_("colour theme"))


def _replay(args: argparse.Namespace) -> int:
    if args.headless:
        from maic_tui.commands import archive

        return archive.replay_headless(args.file, sys.stdout)
    from maic_tui.tui.launch import run_replay

    return run_replay(args.file, args.speed, args.theme)


REPLAY = Command("replay", N_("play a recorded JSONL log in the app (or print it with --headless)"), _replay_arguments,
                 _replay)


def _trace_arguments(trace: argparse.ArgumentParser) -> None:
    _session_argument(trace)
    trace.add_argument("--turn", type=count(MAX_TURN_NUMBER), default=None, metavar="N",
                       help=_("the decisions of the learner's N-th message, in full: prompt, answers, guards, tokens"))
    trace.add_argument("--json", action="store_true", help=_("one JSON object per turn"))
    add_data_dir_flag(trace)


def _trace(args: argparse.Namespace) -> int:
    from maic_tui.commands.trace import print_trace

    return print_trace(args.session, args.turn, args.json, args.data_dir, sys.stdout)


TRACE = Command("trace", N_("a recorded session's director decisions (each in full with --turn)"), _trace_arguments,
                _trace)


def _fork_arguments(fork: argparse.ArgumentParser) -> None:
    _session_argument(fork)
    fork.add_argument("--turn", type=count(MAX_TURN_NUMBER), required=True, metavar="N",
                      help=_("cut before the learner's N-th message (1 is the first)"))
    add_data_dir_flag(fork)


def _fork(args: argparse.Namespace) -> int:
    from maic_tui.commands.archive import fork_session

    return fork_session(args.session, args.turn, args.data_dir, sys.stdout)


FORK = Command("fork", N_("a new session holding a recorded one's records before a learner turn"), _fork_arguments,
               _fork)


def _stats_arguments(stats: argparse.ArgumentParser) -> None:
    stats.add_argument("sessions", nargs="+", metavar="ID", help=_("session ids or their unique starts"))
    stats.add_argument("--json", action="store_true", help=_("one JSON object"))
    add_data_dir_flag(stats)


def _stats(args: argparse.Namespace) -> int:
    from maic_tui.commands.stats import print_stats

    return print_stats(args.sessions, args.json, args.data_dir, sys.stdout)


STATS = Command("stats", N_("talk statistics of recorded sessions: who talks how much, how turns end"),
                _stats_arguments, _stats)
