"""The table of commands: every verb of ``maic-tui``, in the order the help names them, and the parsers made from
it. A verb is added here and defined in one of the ``*_verbs.py`` modules beside this one (README, *Commands*,
lists them; tests/test_cli_table.py checks both agree)."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from maic_tui import __version__
from maic_tui.cli.archive_verbs import EXPORT, FORK, REPLAY, REPORT, SESSIONS, STATS, TRACE
from maic_tui.cli.arguments import OneLineParser
from maic_tui.cli.authoring_verbs import EDIT, NEW, REGEN, VALIDATE
from maic_tui.cli.check_verbs import DOCTOR, EVAL
from maic_tui.cli.class_verbs import APP, DEMO, RUN, SERVE, SIMULATE
from maic_tui.cli.command import Command
from maic_tui.i18n import _

COMMANDS: tuple[Command, ...] = (DEMO, RUN, NEW, EDIT, REGEN, VALIDATE, SESSIONS, EXPORT, REPORT, REPLAY, TRACE, FORK,
                                 STATS, EVAL, SIMULATE, DOCTOR, SERVE)
BY_NAME = {command.name: command for command in COMMANDS}
VERBS = tuple(BY_NAME)


def app_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(prog="maic-tui", description=_("{help}; other commands: {verbs} (maic-tui COMMAND "
                                                          "--help).").format(help=_(APP.help), verbs=", ".join(VERBS)))
    APP.arguments(parser)
    return parser


def verb_parser() -> argparse.ArgumentParser:
    """Every verb's parser under one: an argument a verb does not take is reported as ``maic-tui``'s."""
    parser = OneLineParser(prog="maic-tui", description=_("A multi-agent AI classroom in your terminal."))
    parser.add_argument("--version", action="version", version=f"maic-tui {__version__}")
    verbs = parser.add_subparsers(dest="verb", metavar="COMMAND", required=True)
    for command in COMMANDS:
        command.arguments(verbs.add_parser(command.name, help=_(command.help), description=_(command.help)))
    return parser


def command_of(argv: Sequence[str]) -> Command:
    """``maic-tui [CLASSROOM] [flags]`` opens the app; a verb as the first argument runs that command."""
    return BY_NAME.get(argv[0], APP) if argv else APP


def command_first(argv: list[str]) -> list[str]:
    """``maic-tui --data-dir D sessions`` is ``maic-tui sessions --data-dir D``: options given before a command
    are the command's (read with the app's options, so an option's value is never taken for the command)."""
    if not argv or not argv[0].startswith("-"):
        return argv
    takes_value = {option for action in app_parser()._actions if action.nargs != 0
                   for option in action.option_strings}
    i = 0
    while i < len(argv) and argv[i].startswith("-") and argv[i] != "--":
        i += 2 if argv[i] in takes_value else 1  # "--data-dir=D" is one word
    if i < len(argv) and argv[i] in VERBS:
        return [argv[i], *argv[:i], *argv[i + 1:]]
    return argv
