"""The values the command line takes, each with its bounds (README, *Commands*): a count or a size past its upper
bound, a number that is not finite, or a rate at or below 0 is one line and exit status 2, before any work."""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable
from typing import NoReturn

MAX_SESSIONS = 1_000_000  # simulate --sessions: played one after another through a few workers, never all built
MAX_TURNS = 1_000  # learner messages a simulated session sends
MAX_CONCURRENCY = 64  # runs or sessions played at once against one model server
MAX_REPEAT = 10_000  # eval --repeat
MAX_TURN_NUMBER = 1_000_000  # --turn N: a learner message's number in a session
MAX_CLASSES = 64  # serve --max-classes
MAX_PACE = 100_000.0  # characters a second: far past reading, and still a number a timer can take
MAX_SPEED = 1_000.0  # replay --speed
MAX_TIMEOUT = 86_400.0  # seconds for one model call


class OneLineParser(argparse.ArgumentParser):
    """A command's arguments, whose every error is one line (what and where, and where help is), not the usage."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def _number(value: str) -> float:
    try:
        number = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {value!r}") from None
    if not math.isfinite(number):
        raise argparse.ArgumentTypeError(f"not a finite number: {value!r}")
    return number


def pace(value: str) -> float:
    """Characters a second; 0 is as fast as possible."""
    number = _number(value)
    if not 0 <= number <= MAX_PACE:
        raise argparse.ArgumentTypeError(f"must be from 0 to {MAX_PACE:g}")
    return number


def rate(upper: float) -> Callable[[str], float]:
    """A speed or a time that must be more than 0 (``replay --speed``, ``--timeout``), at most ``upper``."""

    def parse(value: str) -> float:
        number = _number(value)
        if not 0 < number <= upper:
            raise argparse.ArgumentTypeError(f"must be more than 0 and at most {upper:g}")
        return number

    return parse


def count(upper: int) -> Callable[[str], int]:
    """A whole number from 1 to ``upper``."""

    def parse(value: str) -> int:
        try:
            number = int(value)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a whole number: {value!r}") from None
        if not 1 <= number <= upper:
            raise argparse.ArgumentTypeError(f"must be from 1 to {upper:,}")
        return number

    return parse


def port(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {value!r}") from None
    if not 0 <= number <= 65535:
        raise argparse.ArgumentTypeError("must be from 0 to 65535")
    return number
