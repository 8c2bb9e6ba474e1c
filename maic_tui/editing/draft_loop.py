"""Edit a draft until it is valid, as ``crontab -e`` and ``visudo`` do: the text goes to a draft file, the editor
opens it, and a draft with problems opens again with them written at its top as TOML comments, each with the
line it is on in the draft as shown. Those comment lines are taken off again before the draft is checked or
saved, so they never reach the file. Nothing is written to the real file here: the caller writes what comes
back (atomically); the draft stays on disk whenever the loop gives up, and says where."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from maic_tui.bad_input import BadInput, Unreadable, describe_path, read_text_file
from maic_tui.files import write_atomically
from maic_tui.i18n import N_, _, ngettext
from maic_tui.text_safety import one_line

MARK = "#! "  # every line this loop writes above a draft starts so, and only those are taken off again
MAX_SHOWN = 30  # problems written above the draft; the rest are counted


@dataclass(frozen=True, slots=True)
class Found:
    """A problem in the draft's own text: ``line`` is 1-based in the text without the header (None: the file)."""

    line: int | None
    message: str


Check = Callable[[str], list[Found]]
Editor = Callable[[Path], int]  # opens the file, returns the editor's exit status


class GaveUp(BadInput):
    """The loop stopped without a valid draft; one line, naming where the draft is kept."""

    def __init__(self, line: str, draft: Path) -> None:
        super().__init__(line)
        self.draft = draft


@dataclass(frozen=True, slots=True)
class Edited:
    text: str  # the valid draft, header off
    changed: bool  # differs from what the loop started with


def edit_until_valid(start: str, draft: Path, check: Check, editor: Editor, what: str = N_("draft")) -> Edited:
    """Open ``start`` (or the draft already kept at ``draft``, which the caller offered) until ``check`` finds
    nothing. GaveUp when the editor fails, or the draft comes back unchanged after its problems were shown.
    ``what`` is marked English (``N_``) and translated where it is said: in the header written into the draft and
    in GaveUp's line."""
    text, shown = start, False
    problems = check(text)
    if problems:  # a file that is already invalid opens with its problems on top
        shown = True
    while True:
        keep(draft, with_header(text, problems, what) if problems else text)
        status = editor(draft)
        if status != 0:
            raise GaveUp(_("the editor exited with status {status}: nothing was written; the {what} is kept in "
                           "{path}").format(status=status, what=_(what), path=describe_path(draft)), draft)
        try:
            edited = without_header(read_text_file(draft, what))
        except Unreadable as exc:
            raise GaveUp(_("the {what} can no longer be read ({reason}): nothing was written")
                         .format(what=_(what), reason=exc.reason), draft) from None
        problems = check(edited)
        if not problems:
            draft.unlink(missing_ok=True)
            return Edited(edited, edited != start)
        if shown and edited == text:
            keep(draft, with_header(edited, problems, what))
            raise GaveUp(ngettext("the {what} came back unchanged with {count} problem (first: {first}): nothing "
                                  "was written; the {what} is kept in {path}",
                                  "the {what} came back unchanged with {count} problems (first: {first}): nothing "
                                  "was written; the {what} is kept in {path}", len(problems))
                         .format(what=_(what), count=len(problems), first=describe(problems[0]),
                                 path=describe_path(draft)), draft)
        text, shown = edited, True


def keep(draft: Path, text: str) -> None:
    draft.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(draft, text, mode=0o600)  # a draft may hold what the author has not published


def with_header(text: str, problems: list[Found], what: str) -> str:
    """The problems as comment lines on top, their line numbers counted in the draft as the editor shows it."""
    shown = problems[:MAX_SHOWN]
    extra = len(problems) - len(shown)
    size = 3 + len(shown) + (1 if extra else 0)
    # Read by the author in an editor, so in the interface's language; they are taken off by their MARK alone,
    # whatever language wrote them.
    lines = [MARK + ngettext("maic-tui: this {what} was not saved: {count} problem. Fix it, save and quit (or quit "
                             "without a change to give up).",
                             "maic-tui: this {what} was not saved: {count} problems. Fix them, save and quit (or "
                             "quit without a change to give up).", len(problems)).format(what=_(what),
                                                                                          count=len(problems))]
    for problem in shown:
        line = one_line(problem.message, 300)
        if problem.line is not None:
            line = _("line {number}: {problem}").format(number=problem.line + size, problem=line)
        lines.append(f"{MARK}  {line}")
    if extra:
        lines.append(MARK + "  " + _("… and {count} more").format(count=extra))
    lines.append(MARK + _("(the lines starting with '{mark}' are taken off when you save)").format(mark=MARK.strip()))
    lines.append(MARK.rstrip())
    return "\n".join(lines) + "\n" + text


def without_header(text: str) -> str:
    lines = text.splitlines(keepends=True)
    count = 0
    while count < len(lines) and (lines[count].startswith(MARK) or lines[count].rstrip("\r\n") == MARK.rstrip()):
        count += 1
    return "".join(lines[count:])


def describe(problem: Found) -> str:
    if problem.line is None:
        return one_line(problem.message, 200)
    return one_line(_("line {number}: {problem}").format(number=problem.line, problem=problem.message), 200)
