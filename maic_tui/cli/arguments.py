"""The values the command line takes, each with its bounds (README, *Commands*): a count or a size past its upper
bound, a number that is not finite, or a rate at or below 0 is one line and exit status 2, before any work."""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable
from typing import NoReturn

from maic_tui.i18n import N_, _, ngettext

MAX_SESSIONS = 1_000_000  # simulate --sessions: played one after another through a few workers, never all built
MAX_TURNS = 1_000  # learner messages a simulated session sends
MAX_CONCURRENCY = 64  # runs or sessions played at once against one model server
MAX_REPEAT = 10_000  # eval --repeat
MAX_TURN_NUMBER = 1_000_000  # --turn N: a learner message's number in a session
MAX_CLASSES = 64  # serve --max-classes
MAX_PACE = 100_000.0  # characters a second: far past reading, and still a number a timer can take
MAX_SPEED = 1_000.0  # replay --speed
MAX_TIMEOUT = 86_400.0  # seconds for one model call


# argparse's own words ("usage:", "options", "show this help message and exit", its error lines), marked here for
# our catalogs: argparse reads them through its module's ``_`` and ``ngettext`` (gettext's default domain, which
# has no catalog of ours), so those two are pointed at the interface's language below.
ARGPARSE_WORDS = (
    N_("usage: "), N_("positional arguments"), N_("options"), N_("show this help message and exit"),
    N_("show program's version number and exit"), N_("the following arguments are required: %s"),
    N_("unrecognized arguments: %s"), N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("argument %(argument_name)s: %(message)s"), N_("expected one argument"),
    N_("invalid %(type)s value: %(value)r"), N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("not allowed with argument %s"), N_("one of the arguments %s is required"),
)
argparse._ = _  # type: ignore[attr-defined]
argparse.ngettext = ngettext  # type: ignore[attr-defined]


class OneLineParser(argparse.ArgumentParser):
    """A command's arguments, whose every error is one line (what and where, and where help is), not the usage."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, _("{prog}: {message} (see {prog} --help)").format(prog=self.prog, message=message) + "\n")


def _number(value: str) -> float:
    try:
        number = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(_("not a number: {value}").format(value=repr(value))) from None
    if not math.isfinite(number):
        raise argparse.ArgumentTypeError(_("not a finite number: {value}").format(value=repr(value)))
    return number


def pace(value: str) -> float:
    """Characters a second; 0 is as fast as possible."""
    number = _number(value)
    if not 0 <= number <= MAX_PACE:
        raise argparse.ArgumentTypeError(_("must be from 0 to {top}").format(top=f"{MAX_PACE:g}"))
    return number


def rate(upper: float) -> Callable[[str], float]:
    """A speed or a time that must be more than 0 (``replay --speed``, ``--timeout``), at most ``upper``."""

    def parse(value: str) -> float:
        number = _number(value)
        if not 0 < number <= upper:
            raise argparse.ArgumentTypeError(_("must be more than 0 and at most {top}").format(top=f"{upper:g}"))
        return number

    return parse


def count(upper: int) -> Callable[[str], int]:
    """A whole number from 1 to ``upper``."""

    def parse(value: str) -> int:
        try:
            number = int(value)
        except ValueError:
            raise argparse.ArgumentTypeError(_("not a whole number: {value}").format(value=repr(value))) from None
        if not 1 <= number <= upper:
            raise argparse.ArgumentTypeError(_("must be from 1 to {top}").format(top=f"{upper:,}"))
        return number

    return parse


def port(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(_("not a whole number: {value}").format(value=repr(value))) from None
    if not 0 <= number <= 65535:
        raise argparse.ArgumentTypeError(_("must be from 0 to {top}").format(top=65535))
    return number
