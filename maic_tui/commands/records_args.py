"""The learning records' arguments: ``export``'s xAPI flags and the ``report`` verb, kept out of cli.py so it stays
one screen of dispatch."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

EXPORT_FORMATS = ["md", "jsonl", "svg", "xapi"]


def add_learner_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--learner", default=None, metavar="NAME",
                        help="who the learning records are about (default: [learner] name in the config, else the "
                             "classroom's learner)")


def add_export_records_flags(export: argparse.ArgumentParser) -> None:
    add_learner_flag(export)
    export.add_argument("--lrs", default=None, metavar="URL",
                        help="with --format xapi: send the statements to this LRS endpoint (credentials from "
                             "MAIC_LRS_USER and MAIC_LRS_PASSWORD)")


def add_report_verb(verbs: argparse._SubParsersAction[Any],
                    data_dir_flag: Callable[[argparse.ArgumentParser], None]) -> None:
    report = verbs.add_parser("report", help="a gradebook of recorded sessions: scenes reached, each question's "
                                             "points, total, completed")
    report.add_argument("--classroom", default=None, metavar="NAME", help="only this classroom's sessions")
    report.add_argument("--format", choices=["csv", "md", "json"], default="csv", help="csv (default), md or json")
    report.add_argument("--all", action="store_true", dest="every_kind",
                        help="also forks and simulated sessions (nobody's attempts: left out by default), marked in "
                             "the kind column")
    report.add_argument("--output", "-o", default=None, metavar="FILE", help="where to write (default: stdout)")
    data_dir_flag(report)
