"""Bundled data, shipped inside the package: the sample classrooms (with the routing scenarios) and the themes.

The folders here are links to ``sample_classrooms/`` and ``themes/`` at the top of the repository, where
people look for them; building a wheel copies what they point to. Read them through ``maic_tui.paths``.
"""
