"""Package exports that import their module on first use (PEP 562), for packages the app needs early."""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from importlib import import_module
from typing import Any


def lazy_exports(package: str, home: Mapping[str, str]) -> Callable[[str], Any]:
    """A module ``__getattr__`` that finds ``name`` in ``package.<home[name]>`` and caches it."""
    namespace = sys.modules[package].__dict__

    def __getattr__(name: str) -> Any:
        if name not in home:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = namespace[name] = getattr(import_module(f"{package}.{home[name]}"), name)
        return value

    return __getattr__
