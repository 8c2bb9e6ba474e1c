"""Routing evaluation: scenario files, expectations, runs and reports (`maic-tui eval`)."""
