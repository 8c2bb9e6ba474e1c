"""Command line: read the arguments, call the verb's handler from the table of commands (``table.py``), map
failures to exit codes (README, *Commands*)."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

from maic_tui.cli.command import EXIT_BAD_INPUT, EXIT_INTERNAL, EXIT_OK
from maic_tui.cli.table import APP, app_parser, command_first, command_of, verb_parser
from maic_tui.i18n import _, set_interface_language

__all__ = ["EXIT_BAD_INPUT", "EXIT_INTERNAL", "EXIT_OK", "main"]


def main(argv: Sequence[str] | None = None) -> int:
    # We use no pydantic plugins; looking for them scans every installed package's entry points at start-up.
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    from maic_tui.settings import interface_language

    set_interface_language(interface_language())  # before the parsers: their help and errors are in it
    words = command_first(list(sys.argv[1:] if argv is None else argv))
    command = command_of(words)
    try:
        args = (app_parser() if command is APP else verb_parser()).parse_args(words)
    except SystemExit as exc:  # argparse already printed one usage line and the error
        return exc.code if isinstance(exc.code, int) else EXIT_BAD_INPUT
    try:
        return command.handler(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return EXIT_OK
    except Exception as exc:
        return _report(exc)


def _report(exc: Exception) -> int:
    """One clean line per problem for bad input, one line for anything else; never a traceback."""
    from maic_tui.bad_input import BadInput
    from maic_tui.text_safety import one_line

    if isinstance(exc, BadInput):
        for line in exc.lines:
            print(exc.prefix + line, file=sys.stderr)
        return EXIT_BAD_INPUT
    if isinstance(exc, RecursionError):
        print(_("maic-tui: the input is nested too deeply to read"), file=sys.stderr)
        return EXIT_BAD_INPUT
    # Not a class name: people cannot act on "KeyError"; the text and the exit status say it was our fault.
    detail = one_line(str(exc), 300) or _("no details")
    print(_("maic-tui: internal error ({detail}); please report it with the command you ran").format(detail=detail),
          file=sys.stderr)
    return EXIT_INTERNAL
