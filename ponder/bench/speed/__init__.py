"""Speed benchmarks: figures printed on stdout, not timed tests (a shared machine makes timings noisy).

Each module has main(argv) -> exit code and its own options: `python -m ponder.bench.speed.NAME --help`.
`ponder bench --speed NAME` runs one with its defaults.

- loop: the agent loop's own time per step, with a scripted model (no LLM time)
- memory: the memory strategies side by side: prompt tokens, recall of old facts, time per step
- wiki: the offline Wikipedia: corpus and index load, query latency per channel, top-5 hit rate
- llm: the embedded model on the demo question through the loop, plus raw llama.cpp speed
"""
from __future__ import annotations

import importlib

NAMES = ("loop", "memory", "wiki", "llm")


def run(name: str) -> int:
    """Run the speed benchmark `name` with its defaults; its exit code."""
    if name not in NAMES:
        raise ValueError(f"unknown speed benchmark {name!r}: choose from {', '.join(NAMES)}")
    return importlib.import_module(f"{__name__}.{name}").main([])
