"""Benchmarks: `python -m bench` (or `make bench`) runs them all and prints measured ratios."""

import maic_tui.tui  # noqa: F401  # before any bench imports Textual: the app's frame rate is set on that import
