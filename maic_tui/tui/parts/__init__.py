"""The room's parts (ARCHITECTURE.md, *The app*): what the room's screen owns besides its widgets, each with its own
state: the class open in it (``the_class.py``), its voice (``voice.py``), the learning records' key
(``records.py``), and switching classroom or session (``switching.py``)."""
