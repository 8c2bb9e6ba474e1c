"""The verbs that check models and routing: ``eval`` (with ``--compare`` and ``--from-session``), ``doctor``."""

from __future__ import annotations

import argparse
import sys

from maic_tui.cli.arguments import MAX_CONCURRENCY, MAX_REPEAT, MAX_TURN_NUMBER, count
from maic_tui.cli.command import EXIT_OK, Command, refuse
from maic_tui.cli.flags import add_data_dir_flag, add_model_flags, model_flags
from maic_tui.i18n import N_, _


def _eval_arguments(evaluate: argparse.ArgumentParser) -> None:
    evaluate.add_argument("scenarios", nargs="*", metavar="SCENARIO",
                          help=_("scenario files or bundled scenario names (default: all bundled scenarios)"))
    add_model_flags(evaluate, several=True)
    evaluate.add_argument("--repeat", type=count(MAX_REPEAT), default=1, metavar="N",
                          help=_("runs per scenario (default 1)"))
    evaluate.add_argument("--report", default="eval-report.json", metavar="FILE",
                          help=_("where to write the JSON report (default: eval-report.json)"))
    evaluate.add_argument("--concurrency", type=count(MAX_CONCURRENCY), default=1, metavar="N",
                          help=_("runs played at once against the model server (default 1)"))
    evaluate.add_argument("--compare", nargs=2, default=None, metavar=("OLD.json", "NEW.json"),
                          help=_("what changed between two reports, per scenario and expectation (exit 1 if worse)"))
    evaluate.add_argument("--from-session", default=None, metavar="ID",
                          help=_("write a scenario from a recorded session's turn instead (with --turn and -o)"))
    evaluate.add_argument("--turn", type=count(MAX_TURN_NUMBER), default=None, metavar="N",
                          help=_("with --from-session: which turn"))
    evaluate.add_argument("-o", "--output", default=None, metavar="FILE",
                          help=_("with --from-session: the scenario file to write"))
    add_data_dir_flag(evaluate)


def _eval(args: argparse.Namespace) -> int:
    if (args.from_session, args.turn, args.output) != (None, None, None):
        return _scenario_from_session(args)
    if args.compare is not None:
        from maic_tui.evaluation.comparison import compare

        return compare(args.compare[0], args.compare[1], sys.stdout)
    from maic_tui.evaluation.eval_command import run_eval

    return run_eval(args.scenarios, model_flags(args), args.repeat, args.report, sys.stdout, sys.stderr,
                    args.concurrency)


def _scenario_from_session(args: argparse.Namespace) -> int:
    if args.from_session is None or args.turn is None or args.output is None or args.scenarios:
        return refuse(_("eval --from-session ID --turn N -o FILE writes a scenario (and takes no scenario names)"))
    from maic_tui.evaluation.from_session import write_scenario
    from maic_tui.paths import data_dir

    target = write_scenario(data_dir(args.data_dir), args.from_session, args.turn, args.output)
    print(_("wrote {path}; check it with: maic-tui eval {path}").format(path=target))
    return EXIT_OK


EVAL = Command("eval", N_("check director routing against scenario files; exit 1 on a miss"), _eval_arguments, _eval)


def _doctor_arguments(doctor: argparse.ArgumentParser) -> None:
    add_model_flags(doctor)
    add_data_dir_flag(doctor)


def _doctor(args: argparse.Namespace) -> int:
    from maic_tui.commands.doctor import run_doctor
    from maic_tui.paths import data_dir
    from maic_tui.settings import resolve_settings

    spec, options = resolve_settings(model_flags(args))
    return run_doctor(spec, options, data_dir(args.data_dir), sys.stdout)


DOCTOR = Command("doctor", N_("check a model server: reachable, model listed, structured output, speed, output cap; "
                              "exit 0 when a class can run"), _doctor_arguments, _doctor)
