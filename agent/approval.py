"""Tools marked needs_approval: whether a call may run, and what the step records about it."""
from __future__ import annotations

from collections.abc import Callable

from agent.outcomes import Outcome, ToolDenied, ToolObserved
from tools.base import ToolRegistry


def approved(tools: ToolRegistry, approver: Callable[[str, str], bool] | None, action: str, action_input: str) -> bool:
    """A tool that needs approval runs only on the approver's yes (no approver: nobody to ask, so no)."""
    tool = tools.get(action)
    if tool is None or not tool.needs_approval:
        return True
    return bool(approver and approver(tool.name, action_input))


def approval_of(tools: ToolRegistry, action: str, outcome: Outcome) -> str:
    """What the step records: "denied", "approved" for a call of such a tool that ran, else ""."""
    if isinstance(outcome, ToolDenied):
        return "denied"
    tool = tools.get(action)
    return "approved" if isinstance(outcome, ToolObserved) and tool and tool.needs_approval else ""
