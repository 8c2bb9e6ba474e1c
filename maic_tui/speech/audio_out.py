"""``--audio-out DIR`` and ``export --audio DIR``: each utterance as ``DIR/NNNN-AGENT.wav`` (NNNN from 0001, in
the order spoken) and a line of ``DIR/index.jsonl`` for it: file, agentId, voice, text, sceneId, seconds.

The folder is the user's: a run deletes only the files an earlier run's ``index.jsonl`` names (and its
``class.wav``), refuses a folder holding other files of those names, and creates each file it writes as a new
one, never through a symbolic link (``files.check_target``'s rule, kept again at the moment of writing). A file
that cannot be written (a full disk) is removed, not left cut, and named in one line."""

from __future__ import annotations

import contextlib
import json
import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

from maic_tui.bad_input import describe_path
from maic_tui.files import Unwritable, check_target
from maic_tui.i18n import _, ngettext
from maic_tui.speech.wav import read_wav, write_joined
from maic_tui.text_safety import json_safe, one_line

INDEX = "index.jsonl"
CLASS = "class.wav"
_OURS = re.compile(r"[0-9]{4}-[A-Za-z0-9_.-]+\.wav")  # the names this writer gives
_NEW = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
_REPLACED = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0)


class CannotWrite(Exception):
    """A file of the folder could not be written; one line naming it."""


@dataclass
class AudioOut:
    folder: Path
    count: int = 0
    written: list[Path] = field(default_factory=list)
    problem: str | None = None  # why files stopped being written (the line already said)

    def prepare(self) -> None:
        """The folder made; an earlier run's files (those its index names) removed. Unwritable for a folder
        that holds files of this writer's names that no earlier run's index names, or an index or class.wav
        that is not a plain file."""
        self.folder.mkdir(parents=True, exist_ok=True)
        index, whole = check_target(self.folder / INDEX, "audio index"), check_target(self.folder / CLASS, "audio")
        earlier = _named_by(index) if index.exists() else set()
        strangers = sorted(path.name for path in self.folder.iterdir()
                           if (_OURS.fullmatch(path.name) and path.name not in earlier)
                           or (path == whole and not index.exists()))
        if strangers:
            shown = ", ".join([one_line(name, 60) for name in strangers[:3]]
                              + ([_("{count} more").format(count=len(strangers) - 3)] if len(strangers) > 3 else []))
            raise Unwritable(_("{path}: holds {files}, which no earlier run wrote; give an empty folder or a new one "
                               "(nothing was deleted)").format(path=describe_path(self.folder), files=shown))
        for name in [*sorted(earlier), CLASS]:
            old = self.folder / name
            if old.is_file() and not old.is_symlink():
                old.unlink()
        with _opened(index, _REPLACED):
            pass

    def write(self, agent_id: str, voice: str, text: str, scene_id: str | None, wav: bytes) -> Path:
        """The utterance's file and its index line; CannotWrite names the file (a cut one is removed)."""
        safe = re.sub(r"[^A-Za-z0-9_.-]", "_", agent_id)[:40] or "agent"
        path = self.folder / f"{self.count + 1:04d}-{safe}.wav"
        _write_new(path, lambda out: out.write(wav))
        self.count += 1
        self.written.append(path)
        line = {"file": path.name, "agentId": agent_id, "voice": voice, "text": text, "sceneId": scene_id,
                "seconds": round(read_wav(wav).seconds, 3)}
        index = self.folder / INDEX
        try:
            with _opened(index, os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0)) as out:
                out.write((json_safe(json.dumps(line, ensure_ascii=False)) + "\n").encode("utf-8"))
        except OSError as exc:
            raise CannotWrite(_cannot(index, exc)) from None
        return path

    def write_class(self, pause: float) -> Path:
        """``class.wav``: every utterance written, in order, ``pause`` seconds apart. CannotWrite names it;
        NotAudio when the whole would be too large."""
        path = check_target(self.folder / CLASS, "audio")
        _write_new(path, lambda out: write_joined([p.read_bytes for p in self.written], out, pause), _REPLACED)
        return path

    def so_far(self) -> str:
        """What was written before a problem, for the line that says it."""
        if not self.written:
            return _("nothing was written to {path}").format(path=describe_path(self.folder))
        names = [path.name for path in self.written]
        shown = ", ".join(names[:5]) + (f" … {names[-1]}" if len(names) > 5 else "")
        return ngettext("{count} utterance written before it ({files}, listed in {index})",
                        "{count} utterances written before it ({files}, listed in {index})", len(names)).format(
            count=len(names), files=shown, index=INDEX)


def _named_by(index: Path) -> set[str]:
    """The files an earlier run's index names (only names this writer gives: an index is text anyone can edit)."""
    names = set()
    with contextlib.suppress(OSError, UnicodeDecodeError):
        for line in index.read_text(encoding="utf-8").splitlines():
            with contextlib.suppress(ValueError, AttributeError):
                name = json.loads(line).get("file")
                if isinstance(name, str) and _OURS.fullmatch(name):
                    names.add(name)
    return names


@contextlib.contextmanager
def _opened(path: Path, flags: int) -> Iterator[BinaryIO]:
    with os.fdopen(os.open(path, flags, 0o644), "wb") as out:
        yield out


def _write_new(path: Path, write: Callable[[BinaryIO], object], flags: int = _NEW) -> None:
    """``path`` written by ``write``, created new (or, with ``_REPLACED``, replacing a plain file), never through a
    link; on any failure nothing cut is left behind."""
    created = False
    try:
        with _opened(path, flags) as out:
            created = True
            write(out)
    except OSError as exc:
        if created:
            path.unlink(missing_ok=True)
        raise CannotWrite(_cannot(path, exc)) from None
    except BaseException:
        if created:
            path.unlink(missing_ok=True)
        raise


def _cannot(path: Path, exc: OSError) -> str:
    if exc.errno == getattr(os, "ELOOP", None):
        return _("cannot write {path}: it is a symbolic link").format(path=describe_path(path))
    if isinstance(exc, FileExistsError):
        return _("cannot write {path}: a file of that name appeared (it is left as it is)").format(
            path=describe_path(path))
    return _("cannot write {path}: {reason}").format(path=describe_path(path), reason=exc.strerror or exc)
