"""The Textual app (the only layer that imports Textual)."""

import os

# Textual draws a changed screen at its next frame, at most 60 a second by default: a learner's key waited up to
# 16.7 ms for it. At 120 the wait is at most 8.3 ms; frames are still drawn only when something changed.
# Textual reads this once, on its first import; a value the user set wins (ARCHITECTURE.md, *The app*).
os.environ.setdefault("TEXTUAL_FPS", "120")
