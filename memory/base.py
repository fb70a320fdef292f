"""The seam between the loop and memory: the loop tells memory each step and asks it for prompt context."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from agent.schema import Step


@dataclass
class Context:
    """What memory puts in the next prompt.

    background: long-term summary, notes from earlier runs and relevant earlier steps, as text.
    recent: the latest steps (observations possibly shortened), which the prompt shows as the conversation's
    latest turns: small models track their progress far better in their own turns than in a quoted log.
    """
    background: str = ""
    recent: list[Step] = field(default_factory=list)

    @property
    def text(self) -> str:
        """Everything as one text (the forced final answer's prompt, the summariser, tests)."""
        recent = f"Recent steps:\n{render_steps(self.recent)}" if self.recent else ""
        return "\n\n".join(part for part in (self.background, recent) if part)

    def __str__(self) -> str:
        return self.text


@runtime_checkable
class Memory(Protocol):
    def add(self, step: Step) -> None:
        """Store a finished step (persisted before the next LLM call)."""
        ...

    def context(self, task: str) -> Context:
        """What goes into the next prompt after the task: summary, relevant and recent steps."""
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

    def context(self, task: str) -> Context:
        return Context(recent=list(self.steps))
