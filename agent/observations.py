"""Turning tool output into a safe, bounded observation, and running tools under a time limit."""
from __future__ import annotations

import threading
from typing import Callable

from agent.outcomes import ToolObserved
from core.text import clip
from core.untrusted import neutralise
from tools.base import ToolRegistry


def clean_observation(text: str, max_chars: int) -> str:
    text = neutralise(str(text)).strip() or "(the tool returned nothing)"
    # The count is of the characters past max_chars, trailing spaces of the kept part not included (unused when
    # the text fits).
    return clip(text, max_chars, marker=f" ... [truncated {len(text) - max_chars} chars]", within=False)


_abandoned: list[threading.Thread] = []


def abandoned_tool_threads() -> list[threading.Thread]:
    """Tool threads that timed out and are still running (native code in them can abort a normal exit)."""
    return [t for t in _abandoned if t.is_alive()]


def call_with_timeout(fn: Callable[[], tuple[str, float]], seconds: float, label: str) -> tuple[str, float]:
    """Run fn in a daemon thread; a tool that hangs past `seconds` becomes an error observation.

    The thread cannot be killed, but it is a daemon, so it never keeps the process alive.
    """
    box: list = []
    worker = threading.Thread(target=lambda: box.append(fn()), daemon=True, name=f"tool-{label}")
    worker.start()
    worker.join(seconds)
    if not box:
        _abandoned.append(worker)
        return f"Error: {label} timed out after {seconds:g} s. Try a simpler input or another tool.", seconds
    return box[0]


def observe(tools: ToolRegistry, action: str, action_input: str, timeout: float, max_chars: int) -> ToolObserved:
    """Run a tool under a time limit; its output as a safe, bounded observation, with a composite tool's inner
    calls (kept even if it times out) and what it found as fields."""
    calls: list = []
    found: list = []

    def run() -> tuple[str, float]:
        result = tools.run(action, action_input)
        calls.extend(result.calls)
        found.append(result.findings)
        return result.observation, result.seconds

    own_limit = getattr(tools.get(action), "timeout_seconds", None)
    observation, seconds = call_with_timeout(run, own_limit or timeout, action)
    return ToolObserved(clean_observation(observation, max_chars), seconds, calls=[c.model_dump() for c in calls],
                        findings=found[0] if found else None)
