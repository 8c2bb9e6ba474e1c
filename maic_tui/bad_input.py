"""Bad input: the one error type for everything a person or a file got wrong, and reading untrusted files.

Every layer that rejects input (classroom files, config, scenarios, logs, script files, model specs, a
``@name``) raises a subclass of ``BadInput``; the command line turns any of them into exit status 2 and
one clean line per problem, so a new kind of bad input can never surface as an internal error.
"""

from __future__ import annotations

import os
import stat
import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from maic_tui.i18n import ENGLISH, N_, _, interface_language, ngettext
from maic_tui.i18n.said import Said, said
from maic_tui.text_safety import one_line

MAX_FILE_BYTES = 4 * 1024 * 1024  # classrooms, logs and scripts are text a person could read; this is plenty

# What a file is, as the layers that read or write one name it (``what``): English in the code, marked here so
# that every caller's noun is in the catalogs, translated where a line names it. The lines use the noun as a label
# ("expected a classroom file" is "erwartet: Klassenzimmer-Datei"), so that a language keeps it as it stands, with
# no article, case or gender to agree with the words around it. tests/test_file_lines_in_languages.py fails on a
# caller naming a kind missing here.
FILE_KINDS = frozenset({
    N_("file"), N_("classroom file"), N_("classroom"), N_("config file"), N_("script file"), N_("scenario file"),
    N_("eval report"), N_("report"), N_("session log (JSONL)"), N_("material file"), N_("PDF"), N_("draft"),
    N_("classroom draft"), N_("outline"), N_("export"), N_("SVG file"), N_("audio"), N_("audio index"),
})


class BadInput(ValueError):
    """Input that cannot be used. ``lines`` are what to print, one per problem, each saying where and what."""

    prefix = "maic-tui: "  # printed before each line; problems that start with their file's name need none

    def __init__(self, message: str = "", lines: Sequence[str] = ()) -> None:
        self.lines = [one_line(line) for line in (lines or [message])]
        super().__init__("\n".join(self.lines))


def describe_path(path: str | Path) -> str:
    """A path as it may be printed: made inert and kept to one readable line."""
    return one_line(str(path), 200)


class Unreadable(BadInput):
    """A file that cannot be read as text; ``reason`` is the message without the file's name."""

    def __init__(self, name: str, reason: str) -> None:
        super().__init__(f"{name}: {reason}")
        self.reason = reason


_NOT_REGULAR = N_("not a regular file; expected a {what}")


def read_file_bytes(path: str | Path, what: str = "file", limit: int = MAX_FILE_BYTES) -> bytes:
    """A regular file of at most ``limit`` bytes, or ``Unreadable`` with one line naming it.

    ``what`` is one of ``FILE_KINDS``, in English: the line says it in the interface's language. Devices, FIFOs
    and directories are refused before they are opened (``/dev/zero`` would fill memory, a FIFO would block for
    ever), and so are symbolic links to them.
    """
    name = describe_path(path)
    kind = _(what)
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise Unreadable(name, _("no such file")) from None
    except OSError as exc:
        raise Unreadable(name, _cannot_read(exc)) from None
    if not stat.S_ISREG(info.st_mode):
        refused = N_("a directory; expected a {what}") if stat.S_ISDIR(info.st_mode) else _NOT_REGULAR
        raise Unreadable(name, _(refused).format(what=kind))
    limit_mb = f"{limit / 2**20:g}"
    if info.st_size > limit:
        raise Unreadable(name, _("{size} MB is too large for a {what} (at most {limit} MB)").format(
            size=f"{info.st_size / 2**20:.1f}", what=kind, limit=limit_mb))
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):  # swapped for something else since we looked
                raise Unreadable(name, _(_NOT_REGULAR).format(what=kind))
            data = handle.read(limit + 1)
    except OSError as exc:
        raise Unreadable(name, _cannot_read(exc)) from None
    if len(data) > limit:  # it grew while we looked
        raise Unreadable(name, _("too large for a {what} (at most {limit} MB)").format(what=kind, limit=limit_mb))
    return data


def _cannot_read(exc: OSError) -> str:
    return _("cannot read: {reason}").format(reason=exc.strerror or exc)  # the system's words, as it gives them


def read_text_file(path: str | Path, what: str = "file", limit: int = MAX_FILE_BYTES) -> str:
    """A regular UTF-8 text file of at most ``limit`` bytes (as ``read_file_bytes`` reads it), or ``Unreadable``."""
    data = read_file_bytes(path, what, limit)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise Unreadable(describe_path(path), _("not UTF-8 text (byte {position} cannot be decoded)")
                         .format(position=exc.start)) from None


def read_toml_file(path: str | Path, what: str, limit: int = MAX_FILE_BYTES) -> dict[str, Any]:
    """A TOML file read as ``read_text_file`` reads text; any problem is ``Unreadable`` with one line (the TOML
    reader's own words stay English: they name the line and column)."""
    text = read_text_file(path, what, limit)
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise Unreadable(describe_path(path), _("not valid TOML: {error}").format(error=exc)) from None
    except RecursionError:  # tomllib recurses per level of nesting
        raise Unreadable(describe_path(path), _("nested too deeply")) from None


def field_path(loc: Sequence[int | str]) -> str:
    """('data', 'series', 0, 1) -> 'data.series[0][1]'."""
    path = ""
    for part in loc:
        if isinstance(part, int):
            path += f"[{part}]"
        else:
            path += f".{part}" if path else str(part)
    return path


def validation_message(error: Any) -> Said:
    """One pydantic error (an item of ``ValidationError.errors()``) in words: no class name, no docs URL. Its
    English is pydantic's (what a record or a model reads); it is shown in the interface's language, by the
    error's ``type`` and ``ctx`` (pydantic's English for a type we do not translate)."""
    kind = error["type"]
    if kind == "missing":
        return said(N_("required field is missing"))
    if kind == "extra_forbidden":
        return said(N_("unknown key (check the spelling)"))
    english = str(error["msg"]).removeprefix("Value error, ").replace("Input should be", "must be")
    shown = _shown_problem(kind, error.get("ctx") or {})
    value = error.get("input")
    if kind not in ("value_error", "too_short") and isinstance(value, str | int | float | bool):
        got = one_line(repr(value), 80)
        english = f"{english}, got {got}"
        shown = _("{problem}, got {value}").format(problem=shown, value=got) if shown else ""
    return Said(english, shown or english)  # a type we have no words for: pydantic's English, all of it


# What each kind of pydantic error says, by its ``type``; the fields are its ``ctx``'s.
_PROBLEMS = {
    "string_type": N_("must be text"), "string_pattern_mismatch": N_("must match the pattern {pattern}"),
    "int_type": N_("must be a whole number"), "int_parsing": N_("must be a whole number"),
    "int_from_float": N_("must be a whole number, not one with a fractional part"),
    "float_type": N_("must be a number"), "float_parsing": N_("must be a number"),
    "finite_number": N_("must be a finite number"), "bool_type": N_("must be true or false"),
    "bool_parsing": N_("must be true or false"), "list_type": N_("must be a list"),
    "tuple_type": N_("must be a list"), "set_type": N_("must be a list of different values"),
    "dict_type": N_("must be a table (keys and values)"), "model_type": N_("must be a table (keys and values)"),
    "model_attributes_type": N_("must be a table (keys and values)"),
    "literal_error": N_("must be one of {expected}"), "enum": N_("must be one of {expected}"),
    "greater_than": N_("must be greater than {gt}"), "greater_than_equal": N_("must be at least {ge}"),
    "less_than": N_("must be less than {lt}"), "less_than_equal": N_("must be at most {le}"),
    "multiple_of": N_("must be a multiple of {multiple_of}"),
    "union_tag_invalid": N_("'{tag}' is not one of the kinds expected here ({expected_tags})"),
    "union_tag_not_found": N_("says no kind: {discriminator} is missing"),
}


def _shown_problem(kind: str, ctx: dict[str, Any]) -> str:
    """The problem in the interface's language ("" when it has no words of ours for it: pydantic's English)."""
    if kind in ("value_error", "assertion_error"):  # a validator's own message, marked where it is raised
        reason = ctx.get("error")
        message = reason.args[0] if isinstance(reason, Exception) and reason.args else None
        return message.shown if isinstance(message, Said) else ""
    if interface_language() == ENGLISH:  # pydantic's own English, as records keep it
        return ""
    fields = {name: one_line(str(value), 200) for name, value in ctx.items()}
    if "expected" in fields:  # "'a', 'b' or 'c'": the English "or" goes
        head, _or, last = fields["expected"].rpartition(" or ")
        fields["expected"] = f"{head}, {last}" if head else last
    size = int(ctx.get("min_length", ctx.get("max_length", 0)))
    if kind == "too_short":
        template = ngettext("must have at least {min_length} item, not {actual_length}",
                            "must have at least {min_length} items, not {actual_length}", size)
    elif kind == "too_long":
        template = ngettext("must have at most {max_length} item, not {actual_length}",
                            "must have at most {max_length} items, not {actual_length}", size)
    elif kind == "string_too_short":
        template = ngettext("must have at least {min_length} character", "must have at least {min_length} characters",
                            size)
    elif kind == "string_too_long":
        template = ngettext("must have at most {max_length} character", "must have at most {max_length} characters",
                            size)
    elif kind in _PROBLEMS:
        template = _(_PROBLEMS[kind])
    else:
        return ""
    try:
        return template.format(**fields)
    except (KeyError, IndexError, ValueError):  # a pydantic whose ctx lacks a field: its own English then
        return ""


def validation_line(exc: Any, skip: int = 0) -> str:
    """A pydantic ValidationError's first problem, ``where: what``, in the interface's language.

    ``skip`` leaves out leading location parts that people never wrote (a union's tag, say)."""
    first = exc.errors()[0]
    where = field_path(tuple(first["loc"])[skip:])
    message = validation_message(first).shown  # every caller prints it for a person
    return f"{where}: {message}" if where else message
