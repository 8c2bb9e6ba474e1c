"""``maic-tui regen FILE SCENE``: one scene made again by the model (or ``--add-after SCENE TITLE``: a new one),
the rest of the file byte for byte as it was. The file must be valid first; the new scene is checked with the
whole classroom and repaired as ``new`` repairs a stage; the file is replaced atomically, or with ``--dry-run``
a unified diff is printed. A failing model, Ctrl-C or a bad request write nothing."""

from __future__ import annotations

import asyncio
import difflib
import sys
from typing import TYPE_CHECKING, Any, TextIO

from maic_tui.bad_input import BadInput, describe_path, read_text_file
from maic_tui.classroom.loader import check_text
from maic_tui.classroom.models import Classroom
from maic_tui.commands.new import StageProgress, failure_reason
from maic_tui.commands.stoppable import run_until_stopped
from maic_tui.files import check_target, write_atomically
from maic_tui.generation.kind_stages import stage_name
from maic_tui.i18n import _, ngettext
from maic_tui.paths import SAMPLES_DIR, resolve
from maic_tui.redaction import redact, usable_secrets
from maic_tui.settings import resolve_settings
from maic_tui.stop_signals import StopSignals
from maic_tui.text_safety import one_line, terminal_safe

if TYPE_CHECKING:
    from maic_tui.generation.regenerate import SceneWork


class RegenError(BadInput):
    """A request regen cannot start on; one line, before any model call."""


def scene_index(classroom: Classroom, wanted: str) -> int:
    """A scene by its id or its 1-based number; otherwise one line listing them."""
    ids = [scene.id for scene in classroom.scenes]
    if wanted in ids:
        return ids.index(wanted)
    if wanted.isdigit() and 1 <= int(wanted) <= len(ids):
        return int(wanted) - 1
    wanted = one_line(repr(wanted), 60)
    if not ids:
        raise RegenError(_("no scene {wanted}: the scenes are none").format(wanted=wanted))
    raise RegenError(_("no scene {wanted}: the scenes are {ids} (or 1-{count})")
                     .format(wanted=wanted, ids=", ".join(ids), count=len(ids)))


def run_regen(file: str, scene: str | None, flags: dict[str, Any], *, note: str = "", dry_run: bool = False,
              add_after: tuple[str, str] | None = None, questions: bool = False, out: TextIO | None = None,
              err: TextIO | None = None, stop: StopSignals | None = None) -> int:
    from maic_tui.classroom.scene_splice import insert_scene, replace_scene
    from maic_tui.generation.pipeline import GenerationFailed, Generator
    from maic_tui.generation.regenerate import draft_of, regenerate
    from maic_tui.generation.stages import Brief

    out, err = out or sys.stdout, err or sys.stderr
    spec, options = resolve_settings(flags)
    if spec == "demo":
        print(_("maic-tui: regenerating a scene needs a real model: give --model openai:NAME and --base-url URL (the "
                "demo model only plays classrooms that were written for it)"), file=err)
        return 2
    path = resolve(file)
    if path.parent == SAMPLES_DIR:
        raise RegenError(_("{file} is a bundled sample: copy it first (maic-tui edit {file} writes a copy here)")
                         .format(file=file))
    if not dry_run:
        check_target(path, "classroom")
    text = read_text_file(path, "classroom file")
    classroom, problems = check_text(text, describe_path(path))
    if classroom is None:
        print(ngettext("maic-tui: {path} is not valid ({count} problem; first: {first}); fix it first "
                       "(maic-tui edit {path})",
                       "maic-tui: {path} is not valid ({count} problems; first: {first}); fix it first "
                       "(maic-tui edit {path})", len(problems))
              .format(path=describe_path(path), count=len(problems), first=problems[0]), file=err)
        return 1
    work = _work(classroom, scene, add_after, questions, note)
    stop = stop or StopSignals()
    secrets = usable_secrets(options.secrets())
    progress = StageProgress(err)
    generator = Generator(spec, options, Brief(classroom.title, language=classroom.language), progress.update)
    generator.draft = draft_of(classroom)
    what = _("new scene {number} {title}").format(number=work.index + 1, title=repr(work.title)) if work.title else \
        _("scene {number} ({id})").format(number=work.index + 1, id=classroom.scenes[work.index].id)
    progress.update("regen", what)
    with progress:
        try:
            made = run_until_stopped(stop, lambda: regenerate(generator, work))
        except GenerationFailed as failed:
            progress.close()
            print(_("maic-tui: {reason} (stage {stage}); {path} is as it was")
                  .format(reason=failure_reason(failed.lines, secrets), stage=stage_name(failed.stage),
                          path=describe_path(path)), file=err)
            return 1
        except (KeyboardInterrupt, asyncio.CancelledError):
            progress.close()
            print(_("maic-tui: stopped; {path} is as it was").format(path=describe_path(path)), file=err)
            return stop.exit_code or 130
    splice = insert_scene if work.title else replace_scene
    new_text = redact(splice(text, work.index, made), secrets)
    if check_text(new_text, describe_path(path))[0] is None:  # the generator checked it; the file's last word
        print(_("maic-tui: the new scene did not fit the file; {path} is as it was").format(path=describe_path(path)),
              file=err)
        return 1
    if dry_run:
        _print_diff(text, new_text, describe_path(path), out)
        return 0
    write_atomically(path, new_text)
    rounds = sum(entry.rounds for entry in generator.log)
    out.write(ngettext("wrote {path}: {what} ({count} model call)", "wrote {path}: {what} ({count} model calls)",
                       rounds).format(path=describe_path(path), what=what, count=rounds) + "\n")
    return 0


def _work(classroom: Classroom, scene: str | None, add_after: tuple[str, str] | None, questions: bool,
          note: str) -> SceneWork:
    from maic_tui.generation.regenerate import SceneWork

    note = " ".join(note.split())
    if add_after is not None:
        if scene is not None or questions:
            raise RegenError(_("--add-after SCENE TITLE makes a new scene: give no other SCENE and no --questions"))
        title = one_line(add_after[1], 80)
        if not title:
            raise RegenError(_("--add-after needs the new scene's title"))
        return SceneWork(scene_index(classroom, add_after[0]) + 1, title, note)
    if scene is None:
        raise RegenError(_("say which scene: regen FILE SCENE (an id or a number), or --add-after SCENE TITLE"))
    index = scene_index(classroom, scene)
    if questions and not classroom.scenes[index].graded():
        found = classroom.scenes[index]
        raise RegenError(_("scene {id} is a {kind}: --questions makes a quiz's questions again")
                         .format(id=found.id, kind=found.type))
    return SceneWork(index, None, note)


def _print_diff(old: str, new: str, name: str, out: TextIO) -> None:
    lines = difflib.unified_diff(old.splitlines(keepends=True), new.splitlines(keepends=True),
                                 fromfile=f"a/{name}", tofile=f"b/{name}")
    for line in lines:
        out.write(terminal_safe(line.rstrip("\n")) + "\n")
