"""The room's parts (ARCHITECTURE.md, *The app*): what the room's screen owns besides its widgets, each with its own
state: the class open in it (``the_class.py``), its voice (``class_voice.py``), the learning records' key
(``learning_records.py``), switching classroom or session (``switching.py``), and what opens over the room
(``overlays.py``)."""
