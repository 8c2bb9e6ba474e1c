"""What the authoring tests share: a scripted editor set as $EDITOR, and what it was shown."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest

EDITOR_SCRIPT = Path(__file__).with_name("scripted_editor.py")


def script_editor(monkeypatch: pytest.MonkeyPatch, folder: Path, *steps: dict[str, Any]) -> Path:
    """$EDITOR does ``steps`` in turn (then keeps the draft as it is); returns the folder of what it saw."""
    folder.mkdir(parents=True, exist_ok=True)
    plan = folder / "plan.json"
    plan.write_text(json.dumps(list(steps)), encoding="utf-8")
    monkeypatch.delenv("VISUAL", raising=False)
    monkeypatch.setenv("EDITOR", f"{shlex.quote(sys.executable)} {shlex.quote(str(EDITOR_SCRIPT))} "
                                 f"{shlex.quote(str(plan))}")
    return folder


def seen(folder: Path) -> list[str]:
    """What the editor was shown, in order."""
    count = len(list(folder.glob("seen-*")))
    return [(folder / f"seen-{n}").read_text(encoding="utf-8") for n in range(1, count + 1)]
