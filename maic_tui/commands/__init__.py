"""What the command-line verbs do (``cli.py`` only parses arguments and calls these)."""
