"""Command line: parse arguments, call into the package, map failures to exit codes (DESIGN.md §7)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from maic_tui import __version__

EXIT_OK, EXIT_INTERNAL, EXIT_BAD_INPUT = 0, 1, 2


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="maic-tui", description="A multi-agent AI classroom in your terminal.")
    parser.add_argument("--version", action="version", version=f"maic-tui {__version__}")
    verbs = parser.add_subparsers(dest="verb", metavar="COMMAND")
    demo = verbs.add_parser("demo", help="play a classroom's demo lesson headless (offline, no key)")
    demo.add_argument("classroom", nargs="?", default=None, help="classroom file or bundled sample name")
    demo.add_argument("--json", action="store_true", help="print one protocol event per line instead")
    demo.add_argument("--pace", type=float, default=None, metavar="CPS",
                      help="streaming speed in characters per second (0 = instant)")
    validate = verbs.add_parser("validate", help="check classroom files")
    validate.add_argument("files", nargs="+", metavar="FILE")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    # Imported here so that --help and --version stay fast.
    from maic_tui.classroom import ClassroomError
    from maic_tui.session import commands

    try:
        if args.verb == "validate":
            return commands.validate_files(args.files, sys.stdout, sys.stderr)
        pace = args.pace if getattr(args, "pace", None) is not None else (150.0 if sys.stdout.isatty() else 0.0)
        if pace < 0:
            print("maic-tui: --pace must be 0 or more", file=sys.stderr)
            return EXIT_BAD_INPUT
        classroom = getattr(args, "classroom", None) or commands.DEFAULT_CLASSROOM
        return commands.run_demo(classroom, getattr(args, "json", False), pace, sys.stdout)
    except ClassroomError as exc:
        for problem in exc.problems:
            print(problem, file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return EXIT_OK
    except Exception as exc:  # the last line of defence: one line, never a traceback
        print(f"maic-tui: internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
        return EXIT_INTERNAL


if __name__ == "__main__":
    sys.exit(main())
