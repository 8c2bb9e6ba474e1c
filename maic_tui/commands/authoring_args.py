"""The authoring verbs' arguments (``edit``, ``regen``; ``new --review`` is ``new``'s), kept out of cli.py so it
stays one screen of dispatch."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any


def add_authoring_verbs(verbs: argparse._SubParsersAction[Any],
                        model_flags: Callable[[argparse.ArgumentParser], None],
                        data_dir_flag: Callable[[argparse.ArgumentParser], None]) -> None:
    new = verbs.add_parser("new", help="generate a classroom file on a topic with a real model")
    new.add_argument("topic", help="what the lesson teaches")
    new.add_argument("--from", dest="material", default=None, metavar="FILE",
                     help="material the lesson must teach: Markdown, plain text or PDF")
    new.add_argument("--agents", type=int, default=4, choices=range(2, 9), metavar="N",
                     help="people in the class, teacher included (2-8, default 4)")
    new.add_argument("--scenes", type=int, default=3, choices=range(1, 9), metavar="N",
                     help="lesson scenes before the quiz (1-8, default 3)")
    new.add_argument("--language", default="en", metavar="CODE", help="the lesson's language (default en)")
    new.add_argument("-o", "--output", default=None, metavar="FILE", help="where to write it (default: TOPIC.toml)")
    new.add_argument("--review", action="store_true",
                     help="stop after the outline and open it in your editor; generation goes on from it as saved")
    model_flags(new)
    data_dir_flag(new)
    edit = verbs.add_parser("edit", help="edit a classroom file in your editor, checked each time you save")
    edit.add_argument("file", metavar="FILE", help="a classroom file (a bundled sample's name: edit a copy here)")
    data_dir_flag(edit)
    regen = verbs.add_parser("regen", help="make one scene of a classroom again with a real model")
    regen.add_argument("file", metavar="FILE", help="a classroom file")
    regen.add_argument("scene", nargs="?", default=None, metavar="SCENE", help="the scene's id or number (from 1)")
    regen.add_argument("--note", default="", metavar="TEXT",
                       help="your instruction for the scene, e.g. \"shorter\" or \"add an example with money\"")
    regen.add_argument("--dry-run", action="store_true", help="print a unified diff instead of writing the file")
    regen.add_argument("--add-after", nargs=2, default=None, metavar=("SCENE", "TITLE"),
                       help="make a new scene with this title after SCENE")
    regen.add_argument("--questions", action="store_true", help="make a quiz scene's questions again")
    model_flags(regen)
