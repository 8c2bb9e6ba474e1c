"""``maic-tui edit FILE``: the classroom in the author's editor, checked on every save, written only when valid
(atomically, as the author wrote it: comments and layout are theirs). A bundled sample is edited as a copy in
the working directory."""

from __future__ import annotations

import hashlib
import re
import sys
from pathlib import Path
from typing import TextIO

from maic_tui.bad_input import describe_path, read_text_file
from maic_tui.classroom.loader import check_text
from maic_tui.classroom.toml_layout import Layout
from maic_tui.editing.claim import claimed, fingerprint
from maic_tui.editing.draft_loop import Editor, Found, GaveUp, edit_until_valid, keep, without_header
from maic_tui.editing.editor import editor_command, open_in_editor
from maic_tui.files import check_target, write_atomically
from maic_tui.i18n import N_, _
from maic_tui.i18n.said import shown
from maic_tui.paths import SAMPLES_DIR, data_dir, resolve

_TOML_LINE = re.compile(r"\(at line (\d+), column \d+\)")


def classroom_problems(text: str, name: str) -> list[Found]:
    """The loader's problems, each with the line its field is on, in the interface's language."""
    _, problems = check_text(text, name)
    if not problems:
        return []
    layout = Layout.of(text)
    found = []
    for problem in problems:
        if problem.path:
            found.append(Found(layout.line_of(problem.path), f"{shown(problem.path)}: {shown(problem.message)}"))
        else:
            line = _TOML_LINE.search(problem.message)  # tomllib's English, kept as the message's English
            found.append(Found(int(line.group(1)) if line else None, str(shown(problem.message))))
    return found


def draft_path(target: Path, folder: Path) -> Path:
    """Where the draft of ``target`` is kept: the data directory, one name per file (never beside the file,
    where a folder of classrooms would list it)."""
    key = hashlib.sha256(str(target.resolve()).encode()).hexdigest()[:10]
    return folder / "drafts" / f"{target.stem}-{key}.toml"


def run_edit(name: str, data: str | None = None, out: TextIO | None = None, err: TextIO | None = None,
             editor: Editor | None = None) -> int:
    out, err = out or sys.stdout, err or sys.stderr
    source = resolve(name)
    target = source
    if source.parent == SAMPLES_DIR:
        target = Path(source.name)
        if not source.exists():
            from maic_tui.classroom.loader import load_classroom

            load_classroom(name)  # says which samples there are
        out.write(_("{name} is a bundled sample: editing a copy, {path}").format(name=name, path=target) + "\n")
    check_target(target, "classroom")
    draft = draft_path(target, data_dir(data))
    with claimed(draft, target):  # a second edit of this file is refused while this one's editor is open
        return _edit(source, target, draft, out, err, editor)


def _edit(source: Path, target: Path, draft: Path, out: TextIO, err: TextIO, editor: Editor | None) -> int:
    opened = fingerprint(target)
    original = read_text_file(source, "classroom file")
    start = original
    if draft.exists():
        start = without_header(read_text_file(draft, "draft"))
        out.write(_("going on from the draft kept in {path} (delete it to start from the file)")
                  .format(path=describe_path(draft)) + "\n")
    if editor is None:
        command = editor_command()

        def editor(path: Path) -> int:
            return open_in_editor(command, path)

    try:
        edited = edit_until_valid(start, draft, lambda text: classroom_problems(text, describe_path(target)),
                                  editor, N_("classroom draft"))
    except GaveUp as gave_up:
        err.write(f"maic-tui: {gave_up.lines[0]}\n")
        return 1
    except KeyboardInterrupt:
        err.write(_("maic-tui: stopped: nothing was written; the draft is kept in {path}")
                  .format(path=describe_path(draft)) + "\n")
        return 130
    if edited.text == original:
        said = _("{path}: unchanged") if target == source else _("{path}: unchanged, so no copy was written")
        out.write(said.format(path=describe_path(target)) + "\n")
        return 0
    if fingerprint(target) != opened:  # another program (or editor) saved it meanwhile: theirs is not lost
        keep(draft, edited.text)
        err.write(_("maic-tui: {path} changed since the editor opened it: nothing was written; your version is "
                    "kept in {draft} (compare the two, then edit again)")
                  .format(path=describe_path(target), draft=describe_path(draft)) + "\n")
        return 1
    write_atomically(target, edited.text)
    out.write(_("wrote {path}: valid").format(path=describe_path(target)) + "\n")
    return 0
