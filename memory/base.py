"""The seam between the loop and memory: the loop tells memory each step and asks it for prompt context."""
from __future__ import annotations

from typing import Protocol, runtime_checkable

from agent.schema import Step


@runtime_checkable
class Memory(Protocol):
    def add(self, step: Step) -> None:
        """Store a finished step (persisted before the next LLM call)."""
        ...

    def context(self, task: str) -> str:
        """Text that goes into the next prompt after the task: summary, relevant and recent steps."""
        ...


def render_steps(steps: list[Step]) -> str:
    """Steps in the model's own format, each marked with its step number."""
    return "\n\n".join(f"[step {s.index}]\n{s.as_text()}" for s in steps)


class FullHistory:
    """The seed's behaviour: every step, verbatim, in every prompt. Kept as the benchmark baseline."""

    def __init__(self) -> None:
        self.steps: list[Step] = []

    def add(self, step: Step) -> None:
        self.steps.append(step)

    def context(self, task: str) -> str:
        return render_steps(self.steps)
