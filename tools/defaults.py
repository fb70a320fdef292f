"""The default tool set: calculator, current_time, date_diff and the three Wikipedia tools."""
from __future__ import annotations

from tools.base import ToolRegistry
from tools.calculator import calculator
from tools.clock import current_time, date_diff
from tools.wiki_base import WikiBackend
from tools.wikipedia import make_wikipedia_tools


def default_tools(wiki_backend: WikiBackend | None = None) -> ToolRegistry:
    """A fresh registry; without a backend, the one PONDER_WIKI selects (offline, live or auto)."""
    if wiki_backend is None:
        from tools.wiki_select import make_backend  # lazy: selecting may load an offline corpus
        wiki_backend = make_backend()
    return ToolRegistry([calculator, current_time, date_diff, *make_wikipedia_tools(wiki_backend)])
