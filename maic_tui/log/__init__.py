"""The recorded log of a session: its records, the SQLite store, the writer thread, replay and exports."""
