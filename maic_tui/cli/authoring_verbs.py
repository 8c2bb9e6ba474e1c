"""The verbs that write or check classroom files: ``new`` (with ``--review``), ``edit``, ``regen``, ``validate``."""

from __future__ import annotations

import argparse
import sys

from maic_tui.cli.command import Command
from maic_tui.cli.flags import add_data_dir_flag, add_model_flags, model_flags
from maic_tui.i18n import N_, _


def _new_arguments(new: argparse.ArgumentParser) -> None:
    new.add_argument("topic", help=_("what the lesson teaches"))
    new.add_argument("--from", dest="material", default=None, metavar="FILE",
                     help=_("material the lesson must teach: Markdown, plain text or PDF"))
    new.add_argument("--agents", type=int, default=4, choices=range(2, 9), metavar="N",
                     help=_("people in the class, teacher included (2-8, default 4)"))
    new.add_argument("--scenes", type=int, default=3, choices=range(1, 9), metavar="N",
                     help=_("lesson scenes before the quiz (1-8, default 3)"))
    new.add_argument("--language", default="en", metavar="CODE", help=_("the lesson's language (default en)"))
    new.add_argument("-o", "--output", default=None, metavar="FILE", help=_("where to write it (default: TOPIC.toml)"))
    new.add_argument("--project", action="store_true",
                     help=_("add a team project after the slides: roles, issues, a question agent and a judge"))
    new.add_argument("--interactive", action="store_true",
                     help=_("the lesson also gets an interactive scene: a simulation or a diagram to work"))
    new.add_argument("--review", action="store_true",
                     help=_("stop after the outline and open it in your editor; generation goes on from it as saved"))
    add_model_flags(new)
    add_data_dir_flag(new)


def _new(args: argparse.Namespace) -> int:
    from maic_tui.stop_signals import StopSignals

    with StopSignals() as stop:  # before the slow imports: a signal while they load must not be lost
        from maic_tui.commands.new import run_new

        return run_new(args.topic, model_flags(args), material_path=args.material, agents=args.agents,
                       scenes=args.scenes, language=args.language, output=args.output, stop=stop,
                       review=args.review, data=args.data_dir, interactive=args.interactive, project=args.project)


NEW = Command("new", N_("generate a classroom file on a topic with a real model"), _new_arguments, _new)


def _edit_arguments(edit: argparse.ArgumentParser) -> None:
    edit.add_argument("file", metavar="FILE", help=_("a classroom file (a bundled sample's name: edit a copy here)"))
    add_data_dir_flag(edit)


def _edit(args: argparse.Namespace) -> int:
    from maic_tui.commands.edit import run_edit

    return run_edit(args.file, args.data_dir)


EDIT = Command("edit", N_("edit a classroom file in your editor, checked each time you save"), _edit_arguments, _edit)


def _regen_arguments(regen: argparse.ArgumentParser) -> None:
    regen.add_argument("file", metavar="FILE", help=_("a classroom file"))
    regen.add_argument("scene", nargs="?", default=None, metavar="SCENE", help=_("the scene's id or number (from 1)"))
    regen.add_argument("--note", default="", metavar="TEXT",
                       help=_("your instruction for the scene, e.g. \"shorter\" or \"add an example with money\""))
    regen.add_argument("--dry-run", action="store_true", help=_("print a unified diff instead of writing the file"))
    regen.add_argument("--add-after", nargs=2, default=None, metavar=("SCENE", "TITLE"),
                       help=_("make a new scene with this title after SCENE"))
    regen.add_argument("--questions", action="store_true", help=_("make a quiz scene's questions again"))
    add_model_flags(regen)


def _regen(args: argparse.Namespace) -> int:
    from maic_tui.stop_signals import StopSignals

    with StopSignals() as stop:  # before the slow imports: a signal while they load must not be lost
        from maic_tui.commands.regen import run_regen

        return run_regen(args.file, args.scene, model_flags(args), note=args.note, dry_run=args.dry_run,
                         add_after=args.add_after, questions=args.questions, stop=stop)


REGEN = Command("regen", N_("make one scene of a classroom again with a real model"), _regen_arguments, _regen)


def _validate_arguments(validate: argparse.ArgumentParser) -> None:
    validate.add_argument("files", nargs="+", metavar="FILE")
    validate.add_argument("--voice", choices=["openai", "espeak"], default=None,
                          help=_("also check that this speech provider can speak every agent's voice"))


def _validate(args: argparse.Namespace) -> int:
    from maic_tui.commands.validate import validate_files

    return validate_files(args.files, sys.stdout, sys.stderr, args.voice)


VALIDATE = Command("validate", N_("check classroom files"), _validate_arguments, _validate)
