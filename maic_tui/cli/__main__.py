"""``python -m maic_tui.cli`` works like ``maic-tui``."""

import sys

from maic_tui.cli import main

sys.exit(main())
