"""Command line: parse arguments, call into the package, map failures to exit codes (README, *Commands*)."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from maic_tui import __version__
from maic_tui.commands.arguments import (
    MAX_CLASSES,
    MAX_CONCURRENCY,
    MAX_REPEAT,
    MAX_SESSIONS,
    MAX_SPEED,
    MAX_TIMEOUT,
    MAX_TURN_NUMBER,
    MAX_TURNS,
    OneLineParser,
    count,
    pace,
    port,
    rate,
)
from maic_tui.commands.authoring_args import add_authoring_verbs
from maic_tui.commands.records_args import EXPORT_FORMATS, add_export_records_flags, add_learner_flag, add_report_verb
from maic_tui.commands.voice_args import add_voice_flags, voice_settings
from maic_tui.paths import DEFAULT_CLASSROOM

EXIT_OK, EXIT_INTERNAL, EXIT_BAD_INPUT = 0, 1, 2


def _default_pace(given: float | None) -> float:
    """Readable speed for a person watching a terminal; full speed when the output goes to a program."""
    if given is not None:
        return given
    from maic_tui.llm.options import DEMO_PACE

    return DEMO_PACE if sys.stdout.isatty() else 0.0


VERBS = ("demo", "run", "new", "edit", "regen", "validate", "sessions", "export", "report", "replay", "trace", "fork",
         "stats", "eval", "simulate", "doctor", "serve")


def _model_flags(parser: argparse.ArgumentParser, several: bool = False) -> None:
    if several:  # eval compares models: one column each
        parser.add_argument("--model", action="append", default=None, metavar="SPEC",
                            help="the model to play the scenarios with (repeat to compare models; default: each "
                                 "scenario's own)")
    else:
        parser.add_argument("--model", default=None, metavar="SPEC",
                            help="demo (default), openai:<model> or script:<path>")
    parser.add_argument("--base-url", default=None, metavar="URL", help="OpenAI-compatible server (or OPENAI_BASE_URL)")
    parser.add_argument("--api-key", default=None, metavar="KEY",
                        help="the server's API key (better: OPENAI_API_KEY, which other users cannot see in ps)")
    parser.add_argument("--structured-output", default=None, choices=["auto", "off", "json_schema", "json_object"],
                        help="constrain output to a JSON schema: auto (default) finds what the server accepts")
    parser.add_argument("--timeout", type=rate(MAX_TIMEOUT), default=None, metavar="SECONDS",
                        help="bounds a whole model call, retries included (default 60)")
    parser.add_argument("--seed", type=int, default=0, metavar="N", help="the demo model's seed")


def _app_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog="maic-tui", description="A multi-agent AI classroom in your terminal. Opens the classroom app; "
        f"other commands: {', '.join(VERBS)} (maic-tui COMMAND --help).")
    parser.add_argument("--version", action="version", version=f"maic-tui {__version__}")
    parser.add_argument("classroom", nargs="?", default=None,
                        help="classroom file or bundled sample name (default: derivatives)")
    _model_flags(parser)
    parser.add_argument("--pace", type=pace, default=None, metavar="CPS",
                        help="the lecture's and the demo model's speed in characters per second (default 25: "
                             "250 words a minute)")
    parser.add_argument("--theme", default=None, metavar="NAME", help="colour theme (default: your last choice)")
    parser.add_argument("--resume", default=None, metavar="ID",
                        help="reopen a recorded session (an id or its unique start; see maic-tui sessions)")
    parser.add_argument("--no-lesson", dest="lesson", action="store_false",
                        help="open for questions only: the lesson does not start by itself (F7 starts it)")
    add_learner_flag(parser)
    add_voice_flags(parser)
    _data_dir_flag(parser)
    return parser


def _data_dir_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data-dir", default=None, metavar="DIR",
                        help="where sessions are recorded (or MAIC_DATA_DIR; default: your data directory)")


def _parser() -> argparse.ArgumentParser:
    parser = OneLineParser(prog="maic-tui", description="A multi-agent AI classroom in your terminal.")
    parser.add_argument("--version", action="version", version=f"maic-tui {__version__}")
    verbs = parser.add_subparsers(dest="verb", metavar="COMMAND", required=True)
    demo = verbs.add_parser("demo", help="play a classroom's demo lesson headless (offline, no key)")
    demo.add_argument("classroom", nargs="?", default=None, help="classroom file or bundled sample name")
    demo.add_argument("--json", action="store_true", help="print one protocol event per line instead")
    demo.add_argument("--pace", type=pace, default=None, metavar="CPS",
                      help="streaming speed in characters per second (0 = instant)")
    _data_dir_flag(demo)
    run = verbs.add_parser("run", help="run learner turns headless, printing one JSON event per line")
    run.add_argument("classroom", nargs="?", default=None, help="classroom file or bundled sample name")
    run.add_argument("--say", action="append", default=[], metavar="TEXT",
                     help="a learner message (repeat for several turns; start with @agent to pick who answers); "
                          "with --lesson, the answers where the lesson waits, then Q&A")
    run.add_argument("--lesson", action="store_true",
                     help="play the classroom's lesson (scripts, discussions, quizzes) before any Q&A")
    run.add_argument("--resume", default=None, metavar="ID",
                     help="go on with a recorded session (an id or its unique start) instead of a new one")
    run.add_argument("--pick", action="append", default=[], metavar="ID|USER|END",
                     help="who speaks at the next director decision, instead of the rules and the model (repeat: "
                          "one per decision, in order across turns; then the director decides)")
    _model_flags(run)
    add_learner_flag(run)
    add_voice_flags(run)
    run.add_argument("--pace", type=pace, default=None, metavar="CPS",
                     help="the demo model's streaming speed in characters per second (0 = as fast as possible; "
                          "default 25 on a terminal, 0 when the output is piped)")
    _data_dir_flag(run)
    add_authoring_verbs(verbs, _model_flags, _data_dir_flag)
    validate = verbs.add_parser("validate", help="check classroom files")
    validate.add_argument("files", nargs="+", metavar="FILE")
    validate.add_argument("--voice", choices=["openai", "espeak"], default=None,
                          help="also check that this speech provider can speak every agent's voice")
    sessions = verbs.add_parser("sessions", help="list recorded sessions, newest first")
    _data_dir_flag(sessions)
    export = verbs.add_parser("export", help="write a recorded session as Markdown, JSONL, SVG or xAPI statements")
    export.add_argument("session", metavar="ID", help="a session id or its unique start")
    export.add_argument("--format", choices=EXPORT_FORMATS, default="md")
    add_export_records_flags(export)
    export.add_argument("--output", "-o", default=None, metavar="FILE",
                        help="where to write (default: standard output; for svg, ID.svg)")
    export.add_argument("--audio", default=None, metavar="DIR",
                        help="render the session's speech as DIR/NNNN-AGENT.wav, index.jsonl and class.wav")
    add_voice_flags(export, audio_out=False)
    _data_dir_flag(export)
    add_report_verb(verbs, _data_dir_flag)
    replay = verbs.add_parser("replay", help="play a recorded JSONL log in the app (or print it with --headless)")
    replay.add_argument("file", metavar="FILE.jsonl")
    replay.add_argument("--speed", type=rate(MAX_SPEED), default=1.0, metavar="X", help="playback speed (default 1)")
    replay.add_argument("--headless", action="store_true", help="print the rebuilt transcript and board")
    replay.add_argument("--theme", default=None, metavar="NAME", help="colour theme")
    trace = verbs.add_parser("trace", help="a recorded session's director decisions (each in full with --turn)")
    trace.add_argument("session", metavar="ID", help="a session id or its unique start")
    trace.add_argument("--turn", type=count(MAX_TURN_NUMBER), default=None, metavar="N",
                       help="the decisions of the learner's N-th message, in full: prompt, answers, guards, tokens")
    trace.add_argument("--json", action="store_true", help="one JSON object per turn")
    _data_dir_flag(trace)
    fork = verbs.add_parser("fork", help="a new session holding a recorded one's records before a learner turn")
    fork.add_argument("session", metavar="ID", help="a session id or its unique start")
    fork.add_argument("--turn", type=count(MAX_TURN_NUMBER), required=True, metavar="N",
                      help="cut before the learner's N-th message (1 is the first)")
    _data_dir_flag(fork)
    simulate = verbs.add_parser("simulate", help="sessions with a simulated learner, recorded, then their statistics")
    simulate.add_argument("classroom", help="classroom file or bundled sample name")
    simulate.add_argument("--learner", default="curious", metavar="PERSONA",
                          help="curious (default), confused, off-topic, terse, adversarial, or a sentence of your own")
    simulate.add_argument("--turns", type=count(MAX_TURNS), default=4, metavar="N",
                          help="learner messages in Q&A (default 4)")
    simulate.add_argument("--sessions", type=count(MAX_SESSIONS), default=1, metavar="K",
                          help="sessions to play (default 1)")
    simulate.add_argument("--lesson", action="store_true",
                          help="play the lesson first (the learner answers its pauses and questions)")
    simulate.add_argument("--concurrency", type=count(MAX_CONCURRENCY), default=1, metavar="N",
                          help="sessions played at once against the model server (default 1)")
    simulate.add_argument("--learner-model", default=None, metavar="SPEC",
                          help="who plays the learner: demo (default: scripted from the classroom) or a model spec")
    _model_flags(simulate)
    _data_dir_flag(simulate)
    stats = verbs.add_parser("stats", help="talk statistics of recorded sessions: who talks how much, how turns end")
    stats.add_argument("sessions", nargs="+", metavar="ID", help="session ids or their unique starts")
    stats.add_argument("--json", action="store_true", help="one JSON object")
    _data_dir_flag(stats)
    evaluate = verbs.add_parser("eval", help="check director routing against scenario files; exit 1 on a miss")
    evaluate.add_argument("scenarios", nargs="*", metavar="SCENARIO",
                          help="scenario files or bundled scenario names (default: all bundled scenarios)")
    _model_flags(evaluate, several=True)
    evaluate.add_argument("--repeat", type=count(MAX_REPEAT), default=1, metavar="N",
                          help="runs per scenario (default 1)")
    evaluate.add_argument("--report", default="eval-report.json", metavar="FILE",
                          help="where to write the JSON report (default: eval-report.json)")
    evaluate.add_argument("--concurrency", type=count(MAX_CONCURRENCY), default=1, metavar="N",
                          help="runs played at once against the model server (default 1)")
    evaluate.add_argument("--compare", nargs=2, default=None, metavar=("OLD.json", "NEW.json"),
                          help="what changed between two reports, per scenario and expectation (exit 1 if worse)")
    evaluate.add_argument("--from-session", default=None, metavar="ID",
                          help="write a scenario from a recorded session's turn instead (with --turn and -o)")
    evaluate.add_argument("--turn", type=count(MAX_TURN_NUMBER), default=None, metavar="N",
                          help="with --from-session: which turn")
    evaluate.add_argument("-o", "--output", default=None, metavar="FILE",
                          help="with --from-session: the scenario file to write")
    _data_dir_flag(evaluate)
    doctor = verbs.add_parser("doctor", help="check a model server: reachable, model listed, structured output, "
                                             "speed, output cap; exit 0 when a class can run")
    _model_flags(doctor)
    _data_dir_flag(doctor)
    serve = verbs.add_parser("serve", help="the classroom app in a web browser, one class per tab")
    serve.add_argument("classroom", nargs="?", default=None, help="classroom file or bundled sample name")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this "
                       "machine only; 0.0.0.0 for every network it is on)")
    serve.add_argument("--port", type=port, default=8000, help="port (default 8000; 0: any free port)")
    serve.add_argument("--public-url", default=None, metavar="URL",
                       help="the address browsers use, if not http://HOST:PORT (behind a proxy, say)")
    serve.add_argument("--max-classes", type=count(MAX_CLASSES), default=4, metavar="N",
                       help="classes (browser tabs) open at once; more get a page saying so (default 4)")
    _model_flags(serve)
    serve.add_argument("--pace", type=pace, default=None, metavar="CPS", help="the demo model's speed")
    serve.add_argument("--theme", default=None, metavar="NAME", help="colour theme")
    _data_dir_flag(serve)
    return parser


def _opens_app(argv: Sequence[str]) -> bool:
    """``maic-tui [CLASSROOM] [flags]`` opens the app; a verb as the first argument runs that command."""
    return not argv or argv[0] not in VERBS


def _command_first(argv: list[str]) -> list[str]:
    """``maic-tui --data-dir D sessions`` is ``maic-tui sessions --data-dir D``: options given before a command
    are the command's (read with the app's options, so an option's value is never taken for the command)."""
    if not argv or not argv[0].startswith("-"):
        return argv
    takes_value = {option for action in _app_parser()._actions if action.nargs != 0
                   for option in action.option_strings}
    i = 0
    while i < len(argv) and argv[i].startswith("-") and argv[i] != "--":
        i += 2 if argv[i] in takes_value else 1  # "--data-dir=D" is one word
    if i < len(argv) and argv[i] in VERBS:
        return [argv[i], *argv[:i], *argv[i + 1:]]
    return argv


def main(argv: Sequence[str] | None = None) -> int:
    # We use no pydantic plugins; looking for them scans every installed package's entry points at start-up.
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    argv = _command_first(list(sys.argv[1:] if argv is None else argv))
    opens_app = _opens_app(argv)
    try:
        args = (_app_parser() if opens_app else _parser()).parse_args(argv)
    except SystemExit as exc:  # argparse already printed one usage line and the error
        return exc.code if isinstance(exc.code, int) else EXIT_BAD_INPUT
    if not opens_app and args.verb == "run" and not (args.say or args.lesson):
        print("maic-tui: run needs --say TEXT (a learner message) or --lesson", file=sys.stderr)
        return EXIT_BAD_INPUT
    if not opens_app and args.verb == "run" and (args.classroom is None) == (args.resume is None):
        print("maic-tui: run needs a classroom or --resume ID (one of them)", file=sys.stderr)
        return EXIT_BAD_INPUT
    # Imported here so that --help, --version and validate stay fast (the model libraries load slowly).
    if not opens_app and args.verb == "validate":
        from maic_tui.commands.validate import validate_files

        return validate_files(args.files, sys.stdout, sys.stderr, args.voice)
    try:
        if opens_app:
            from maic_tui.tui.launch import run_app

            if args.resume is not None and args.classroom is not None:
                print("maic-tui: give a classroom or --resume, not both", file=sys.stderr)
                return EXIT_BAD_INPUT
            return run_app(args.classroom or DEFAULT_CLASSROOM, _flags(args), args.seed, args.pace, args.theme,
                           data_dir=args.data_dir, resume=args.resume, lesson=args.lesson, voice=voice_settings(args),
                           learner=args.learner)
        if args.verb == "export" and args.format == "svg" and args.audio is None:
            from maic_tui.tui.screenshot import export_svg

            return export_svg(args.session, args.data_dir, args.output, sys.stdout)
        if args.verb == "replay" and not args.headless:
            from maic_tui.tui.launch import run_replay

            return run_replay(args.file, args.speed, args.theme)
        if args.verb in ("sessions", "export", "replay", "report"):
            from maic_tui.commands.archive_verbs import archive_verb

            return archive_verb(args)
        if args.verb == "fork":
            from maic_tui.commands.archive import fork_session

            return fork_session(args.session, args.turn, args.data_dir, sys.stdout)
        if args.verb == "stats":
            from maic_tui.commands.stats import print_stats

            return print_stats(args.sessions, args.json, args.data_dir, sys.stdout)
        if args.verb == "trace":
            from maic_tui.commands.trace import print_trace

            return print_trace(args.session, args.turn, args.json, args.data_dir, sys.stdout)
        if args.verb == "doctor":
            return _doctor(args)
        if args.verb == "edit":
            from maic_tui.commands.edit import run_edit

            return run_edit(args.file, args.data_dir)
        if args.verb == "serve":
            from maic_tui.serve.command import serve

            flags = _flags(args) | {"theme": args.theme, "pace": args.pace, "data_dir": args.data_dir}
            return serve(args.classroom or DEFAULT_CLASSROOM, flags, args.host, args.port, args.public_url,
                         args.max_classes)
        if args.verb == "eval" and (args.from_session, args.turn, args.output) != (None, None, None):
            return _scenario_from_session(args)
        if args.verb == "eval" and args.compare is not None:
            from maic_tui.evaluation.comparison import compare

            return compare(args.compare[0], args.compare[1], sys.stdout)
        if args.verb == "eval":
            from maic_tui.evaluation.command import run_eval

            return run_eval(args.scenarios, _flags(args), args.repeat, args.report, sys.stdout, sys.stderr,
                            args.concurrency)
        return _headless(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return EXIT_OK
    except Exception as exc:
        return _report(exc)


def _scenario_from_session(args: argparse.Namespace) -> int:
    from maic_tui.evaluation.from_session import write_scenario
    from maic_tui.paths import data_dir

    if args.from_session is None or args.turn is None or args.output is None or args.scenarios:
        print("maic-tui: eval --from-session ID --turn N -o FILE writes a scenario (and takes no scenario names)",
              file=sys.stderr)
        return EXIT_BAD_INPUT
    target = write_scenario(data_dir(args.data_dir), args.from_session, args.turn, args.output)
    print(f"wrote {target}; check it with: maic-tui eval {target}")
    return EXIT_OK


def _doctor(args: argparse.Namespace) -> int:
    from maic_tui.commands.doctor import run_doctor
    from maic_tui.paths import data_dir
    from maic_tui.settings import resolve_settings

    spec, options = resolve_settings(_flags(args))
    return run_doctor(spec, options, data_dir(args.data_dir), sys.stdout)


def _headless(args: argparse.Namespace) -> int:
    from maic_tui.stop_signals import StopSignals

    with StopSignals() as stop:  # before the slow imports: a signal while they load must not be lost
        from maic_tui.commands import run

        if args.verb == "simulate":
            from maic_tui.commands.simulate import simulate

            return simulate(args.classroom, args.learner, args.turns, args.sessions, args.lesson, _flags(args),
                            args.learner_model, args.seed, args.data_dir, sys.stdout, stop, args.concurrency)
        if args.verb == "new":
            from maic_tui.commands.new import run_new

            return run_new(args.topic, _flags(args), material_path=args.material, agents=args.agents,
                           scenes=args.scenes, language=args.language, output=args.output, stop=stop,
                           review=args.review, data=args.data_dir)
        if args.verb == "regen":
            from maic_tui.commands.regen import run_regen

            return run_regen(args.file, args.scene, _flags(args), note=args.note, dry_run=args.dry_run,
                             add_after=args.add_after, questions=args.questions, stop=stop)
        if args.verb == "run":
            return run.run_turns(args.classroom, args.say, _flags(args), args.seed, _default_pace(args.pace),
                                 sys.stdout, data_dir=args.data_dir, stop=stop, lesson=args.lesson,
                                 resume=args.resume, picks=args.pick, voice=voice_settings(args),
                                 learner=args.learner)
        classroom = args.classroom or DEFAULT_CLASSROOM
        return run.run_demo(classroom, args.json, _default_pace(args.pace), sys.stdout, args.data_dir, stop)


def _flags(args: argparse.Namespace) -> dict[str, object]:
    return {"model": args.model, "base_url": args.base_url, "api_key": args.api_key,
            "structured_output": args.structured_output, "timeout": args.timeout}


def _report(exc: Exception) -> int:
    """One clean line per problem for bad input, one line for anything else; never a traceback."""
    from maic_tui.bad_input import BadInput
    from maic_tui.text_safety import one_line

    if isinstance(exc, BadInput):
        for line in exc.lines:
            print(exc.prefix + line, file=sys.stderr)
        return EXIT_BAD_INPUT
    if isinstance(exc, RecursionError):
        print("maic-tui: the input is nested too deeply to read", file=sys.stderr)
        return EXIT_BAD_INPUT
    # Not a class name: people cannot act on "KeyError"; the text and the exit status say it was our fault.
    detail = one_line(str(exc), 300) or "no details"
    print(f"maic-tui: internal error ({detail}); please report it with the command you ran", file=sys.stderr)
    return EXIT_INTERNAL


if __name__ == "__main__":
    sys.exit(main())
