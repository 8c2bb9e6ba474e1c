"""One command-line verb, defined once: its name, its help, its arguments and the function that answers it
(ARCHITECTURE.md, *Where to change what*, "A command")."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import NamedTuple

EXIT_OK, EXIT_INTERNAL, EXIT_BAD_INPUT = 0, 1, 2


class Command(NamedTuple):
    """A verb of ``maic-tui`` (or, with no name, the app itself). ``handler`` imports the verb's work inside
    itself, so that reading the command line loads no command's modules (the app's first frame waits for it; a
    named tuple, not a dataclass, for the same reason)."""

    name: str
    help: str
    arguments: Callable[[argparse.ArgumentParser], None]
    handler: Callable[[argparse.Namespace], int]


def refuse(message: str) -> int:
    """A combination of arguments the verb cannot take: one line, exit status 2, before any work."""
    print(f"maic-tui: {message}", file=sys.stderr)
    return EXIT_BAD_INPUT
