"""Benchmarks: `python -m bench` (or `make bench`) runs them all and prints measured ratios."""
