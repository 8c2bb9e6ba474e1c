"""What the command-line verbs do (``cli/`` defines each verb's arguments and calls these)."""
