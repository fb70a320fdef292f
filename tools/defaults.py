"""The default tool set: calculator, current_time, date_diff and the three Wikipedia tools; opt-in extras."""
from __future__ import annotations

from typing import Sequence

from tools.base import ToolRegistry
from tools.calculator import calculator
from tools.clock import current_time, date_diff
from tools.composite import make_wikipedia_fact
from tools.wiki_base import WikiBackend
from tools.wikipedia import make_wikipedia_tools

# Off by default: every tool adds to the system prompt, and the defaults' prompt is what benchmarks measured.
OPTIONAL_TOOLS = ("wikipedia_fact",)


def default_tools(wiki_backend: WikiBackend | None = None, extra: Sequence[str] = ()) -> ToolRegistry:
    """A fresh registry; without a backend, the one PONDER_WIKI selects (offline, live or auto).

    extra: names from OPTIONAL_TOOLS to add after the defaults.
    """
    unknown = [name for name in extra if name not in OPTIONAL_TOOLS]
    if unknown:
        raise ValueError(f"unknown optional tool(s) {', '.join(map(repr, unknown))}; "
                         f"valid: {', '.join(OPTIONAL_TOOLS)}")
    if wiki_backend is None:
        from tools.wiki_select import make_backend  # lazy: selecting may load an offline corpus
        wiki_backend = make_backend()
    wiki_tools = make_wikipedia_tools(wiki_backend)
    registry = ToolRegistry([calculator, current_time, date_diff, *wiki_tools])
    if "wikipedia_fact" in extra:
        registry.add(make_wikipedia_fact(wiki_tools))  # the same tool objects the model calls directly
    return registry
