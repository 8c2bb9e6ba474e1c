"""The offline demo model: it plays the director and every agent from the classroom's own material, with no
network and no key (ARCHITECTURE.md, *The demo*). Its face is ``DemoChatModel``, the chat model the provider hands
out for ``--model demo``; ``DemoLearner`` plays a learner from the same material for ``maic-tui simulate``.

Exports load on first use, as ``maic_tui.llm``'s do (the model needs LangChain).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from maic_tui.lazy import lazy_exports

if TYPE_CHECKING:
    from maic_tui.demo.chat_model import DemoChatModel
    from maic_tui.demo.simulated_learner import DemoLearner

__all__ = ["DemoChatModel", "DemoLearner"]

__getattr__ = lazy_exports(__name__, {"DemoChatModel": "chat_model", "DemoLearner": "simulated_learner"})
