"""The app and the verbs that play a class: ``demo``, ``run``, ``simulate``, ``serve``. Each handler imports its
work inside itself (ARCHITECTURE.md, *Why it is done this way*, "Start-up imports")."""

from __future__ import annotations

import argparse
import sys

from maic_tui import __version__
from maic_tui.cli.arguments import MAX_CLASSES, MAX_CONCURRENCY, MAX_SESSIONS, MAX_TURNS, count, pace, port
from maic_tui.cli.command import Command, refuse
from maic_tui.cli.flags import (
    add_data_dir_flag,
    add_learner_flag,
    add_model_flags,
    add_role_flag,
    add_voice_flags,
    default_pace,
    model_flags,
    voice_settings,
)
from maic_tui.i18n import N_, _
from maic_tui.paths import DEFAULT_CLASSROOM


def _app_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--version", action="version", version=f"maic-tui {__version__}")
    parser.add_argument("classroom", nargs="?", default=None,
                        help=_("classroom file or bundled sample name (default: derivatives)"))
    add_model_flags(parser)
    parser.add_argument("--pace", type=pace, default=None, metavar="CPS",
                        help=_("the lecture's and the demo model's speed in characters per second (default 25: "
                             "250 words a minute)"))
    parser.add_argument("--theme", default=None, metavar="NAME", help=_("colour theme (default: your last choice)"))
    parser.add_argument("--resume", default=None, metavar="ID",
                        help=_("reopen a recorded session (an id or its unique start; see maic-tui sessions)"))
    parser.add_argument("--no-lesson", dest="lesson", action="store_false",
                        help=_("open for questions only: the lesson does not start by itself (F7 starts it)"))
    add_learner_flag(parser)
    add_role_flag(parser)
    add_voice_flags(parser)
    add_data_dir_flag(parser)


def _open_app(args: argparse.Namespace) -> int:
    if args.resume is not None and args.classroom is not None:
        return refuse(_("give a classroom or --resume, not both"))
    from maic_tui.tui.launch import run_app

    return run_app(args.classroom or DEFAULT_CLASSROOM, model_flags(args), args.seed, args.pace, args.theme,
                   data_dir=args.data_dir, resume=args.resume, lesson=args.lesson,
                   voice=voice_settings(args, remember=True), learner=args.learner, role=args.role)


APP = Command("", N_("A multi-agent AI classroom in your terminal. Opens the classroom app"), _app_arguments, _open_app)


def _demo_arguments(demo: argparse.ArgumentParser) -> None:
    demo.add_argument("classroom", nargs="?", default=None, help=_("classroom file or bundled sample name"))
    demo.add_argument("--json", action="store_true", help=_("print one protocol event per line instead"))
    demo.add_argument("--pace", type=pace, default=None, metavar="CPS",
                      help=_("streaming speed in characters per second (0 = instant)"))
    add_data_dir_flag(demo)


def _demo(args: argparse.Namespace) -> int:
    from maic_tui.stop_signals import StopSignals

    with StopSignals() as stop:  # before the slow imports: a signal while they load must not be lost
        from maic_tui.commands import run

        return run.run_demo(args.classroom or DEFAULT_CLASSROOM, args.json, default_pace(args.pace), sys.stdout,
                            args.data_dir, stop)


DEMO = Command("demo", N_("play a classroom's demo lesson headless (offline, no key)"), _demo_arguments, _demo)


def _run_arguments(run: argparse.ArgumentParser) -> None:
    run.add_argument("classroom", nargs="?", default=None, help=_("classroom file or bundled sample name"))
    run.add_argument("--say", action="append", default=[], metavar="TEXT",
                     help=_("a learner message (repeat for several turns; start with @agent to pick who answers); "
                          "with --lesson, the answers where the lesson waits, then Q&A"))
    run.add_argument("--lesson", action="store_true",
                     help=_("play the classroom's lesson (scripts, discussions, quizzes) before any Q&A"))
    run.add_argument("--resume", default=None, metavar="ID",
                     help=_("go on with a recorded session (an id or its unique start) instead of a new one"))
    run.add_argument("--pick", action="append", default=[], metavar="ID|USER|END",
                     help=_("who speaks at the next director decision, instead of the rules and the model (repeat: "
                          "one per decision, in order across turns; then the director decides)"))
    add_model_flags(run)
    add_learner_flag(run)
    add_role_flag(run)
    add_voice_flags(run)
    run.add_argument("--pace", type=pace, default=None, metavar="CPS",
                     help=_("the demo model's streaming speed in characters per second (0 = as fast as possible; "
                          "default 25 on a terminal, 0 when the output is piped)"))
    add_data_dir_flag(run)


def _run(args: argparse.Namespace) -> int:
    if not (args.say or args.lesson):
        return refuse(_("run needs --say TEXT (a learner message) or --lesson"))
    if (args.classroom is None) == (args.resume is None):
        return refuse(_("run needs a classroom or --resume ID (one of them)"))
    from maic_tui.stop_signals import StopSignals

    with StopSignals() as stop:  # before the slow imports: a signal while they load must not be lost
        from maic_tui.commands import run

        return run.run_turns(args.classroom, args.say, model_flags(args), args.seed, default_pace(args.pace),
                             sys.stdout, data_dir=args.data_dir, stop=stop, lesson=args.lesson, resume=args.resume,
                             picks=args.pick, voice=voice_settings(args), learner=args.learner, role=args.role)


RUN = Command("run", N_("run learner turns headless, printing one JSON event per line"), _run_arguments, _run)


def _simulate_arguments(simulate: argparse.ArgumentParser) -> None:
    simulate.add_argument("classroom", help=_("classroom file or bundled sample name"))
    simulate.add_argument("--learner", default="curious", metavar="PERSONA",
                          help=_("curious (default), confused, off-topic, terse, adversarial, or a sentence of your "
                                 "own"))
    simulate.add_argument("--turns", type=count(MAX_TURNS), default=4, metavar="N",
                          help=_("learner messages in Q&A (default 4)"))
    simulate.add_argument("--sessions", type=count(MAX_SESSIONS), default=1, metavar="K",
                          help=_("sessions to play (default 1)"))
    simulate.add_argument("--lesson", action="store_true",
                          help=_("play the lesson first (the learner answers its pauses and questions)"))
    simulate.add_argument("--concurrency", type=count(MAX_CONCURRENCY), default=1, metavar="N",
                          help=_("sessions played at once against the model server (default 1)"))
    simulate.add_argument("--learner-model", default=None, metavar="SPEC",
                          help=_("who plays the learner: demo (default: scripted from the classroom) or a model spec"))
    add_model_flags(simulate)
    add_data_dir_flag(simulate)


def _simulate(args: argparse.Namespace) -> int:
    from maic_tui.stop_signals import StopSignals

    with StopSignals() as stop:  # before the slow imports: a signal while they load must not be lost
        from maic_tui.commands.simulate import simulate

        return simulate(args.classroom, args.learner, args.turns, args.sessions, args.lesson, model_flags(args),
                        args.learner_model, args.seed, args.data_dir, sys.stdout, stop, args.concurrency)


SIMULATE = Command("simulate", N_("sessions with a simulated learner, recorded, then their statistics"),
                   _simulate_arguments, _simulate)


def _serve_arguments(serve: argparse.ArgumentParser) -> None:
    serve.add_argument("classroom", nargs="?", default=None, help=_("classroom file or bundled sample name"))
    serve.add_argument("--host", default="127.0.0.1", help=_("address to listen on (default 127.0.0.1: this "
                       "machine only; 0.0.0.0 for every network it is on)"))
    serve.add_argument("--port", type=port, default=8000, help=_("port (default 8000; 0: any free port)"))
    serve.add_argument("--public-url", default=None, metavar="URL",
                       help=_("the address browsers use, if not http://HOST:PORT (behind a proxy, say)"))
    serve.add_argument("--max-classes", type=count(MAX_CLASSES), default=4, metavar="N",
                       help=_("classes (browser tabs) open at once; more get a page saying so (default 4)"))
    add_model_flags(serve)
    serve.add_argument("--pace", type=pace, default=None, metavar="CPS", help=_("the demo model's speed"))
    serve.add_argument("--theme", default=None, metavar="NAME", help=_("colour theme"))
    add_data_dir_flag(serve)


def _serve(args: argparse.Namespace) -> int:
    from maic_tui.serve.serve_command import serve

    flags = model_flags(args) | {"theme": args.theme, "pace": args.pace, "data_dir": args.data_dir}
    return serve(args.classroom or DEFAULT_CLASSROOM, flags, args.host, args.port, args.public_url, args.max_classes)


SERVE = Command("serve", N_("the classroom app in a web browser, one class per tab"), _serve_arguments, _serve)
