"""An editor for tests, run as ``$EDITOR`` (``python tests/scripted_editor.py PLAN``): each time it is opened it
keeps a copy of what it was shown (``seen-N``, beside the plan) and does the plan's next step: ``replace``
(old, new) in the file, ``write`` a whole text, ``keep`` it as it is, or ``exit`` with a status; a step with
``wait_for`` (a path) first waits until that file exists, as an author takes their time."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path


def main(plan_path: str, file: str) -> int:
    plan = Path(plan_path)
    steps = json.loads(plan.read_text(encoding="utf-8"))
    opened = len(list(plan.parent.glob("seen-*")))
    draft = Path(file)
    text = draft.read_text(encoding="utf-8")
    (plan.parent / f"seen-{opened + 1}").write_text(text, encoding="utf-8")
    step = steps[opened] if opened < len(steps) else {"keep": True}
    while "wait_for" in step and not Path(step["wait_for"]).exists():
        time.sleep(0.05)
    if "replace" in step:
        old, new = step["replace"]
        assert old in text, f"the editor's step {opened + 1} expected {old!r} in the draft"
        draft.write_text(text.replace(old, new, 1), encoding="utf-8")
    elif "write" in step:
        draft.write_text(step["write"], encoding="utf-8")
    return int(step.get("exit", 0))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[-1]))
