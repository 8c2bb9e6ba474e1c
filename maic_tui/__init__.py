"""maic-tui: a multi-agent AI classroom in the terminal."""

__version__ = "0.1.0"
