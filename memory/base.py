"""The seam between the loop and memory.

The loop makes a memory for one task, asks it what the next prompt should show (`context()`, a pure read),
hands back each finished step together with the context its prompt showed (`add`), and tells it how the run
ended (`finish`). A memory made for a stored run returns that run's steps from `steps()`, and the loop resumes
after them.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from core.llm import Message
from core.schema import RunResult, Step


@dataclass
class Context:
    """What memory puts in the next prompt, and where it came from.

    background: long-term summary, items remembered from earlier runs and relevant earlier steps, as text.
    recent: the latest steps (observations possibly shortened), which the prompt shows as the conversation's
    latest turns: small models track their progress far better in their own turns than in a quoted log.
    The rest is provenance, stored with the step this prompt produces (`ponder memory`, notebooks).
    """
    background: str = ""
    recent: list[Step] = field(default_factory=list)
    recall: str = ""  # recalled for this moment only: shown after the latest observation, where it costs only its own
    #                   tokens and leaves the prompt before it unchanged (the backend's prefix cache holds)
    retrieved: list[int] = field(default_factory=list)  # indices of earlier steps recalled into the background
    summary_upto: int | None = None                     # the summary shown covers steps up to this one
    space_runs: list[str] = field(default_factory=list)  # earlier runs whose remembered items were shown
    tokens: int | None = None                           # the context's size with the memory's token counter

    @property
    def shown_indices(self) -> set[int]:
        """The steps this context shows whole: the recent ones and those recalled (any other is folded)."""
        return {step.index for step in self.recent} | set(self.retrieved)

    @property
    def text(self) -> str:
        """Everything as one text (the forced final answer's prompt, the summariser, tests)."""
        recent = f"Recent steps:\n{render_steps(self.recent)}" if self.recent else ""
        return "\n\n".join(part for part in (self.background, recent, self.recall) if part)

    def _repr_html_(self) -> str:  # Jupyter's rich display
        from core.html import esc, fragment, step_html, step_link
        facts = [f"{len(self.recent)} recent steps"]
        if self.tokens is not None:
            facts.append(f"{self.tokens} tokens")
        if self.summary_upto is not None:
            facts.append(f"summary covers steps up to {self.summary_upto}")
        if self.space_runs:
            facts.append(f"notes of runs {', '.join(self.space_runs)}")
        parts = [f'<div class="muted">context: {esc(" · ".join(facts))}</div>']
        if self.retrieved:
            parts.append(f'<div class="field recalled"><span class="label">retrieved</span>'
                         f'{"".join(step_link(i) for i in self.retrieved)}</div>')
        if self.background:
            parts.append(f'<details class="background" open><summary>background</summary>'
                         f'<pre>{esc(self.background)}</pre></details>')
        parts.extend(step_html(step) for step in self.recent)
        if self.recall:
            parts.append(f'<details class="recall" open><summary>recall</summary>'
                         f'<pre>{esc(self.recall)}</pre></details>')
        return fragment("".join(parts))


@runtime_checkable
class Memory(Protocol):
    task: str

    def steps(self) -> list[Step]:
        """Every step stored so far, in order (a resumed run continues after them)."""
        ...

    def context(self) -> Context:
        """What the next prompt shows after the task. Reads only."""
        ...

    def add(self, step: Step, shown: Context | None = None, sent: list[Message] | None = None,
            fold: bool = True) -> None:
        """Store a finished step with the context its prompt showed (persisted before the next LLM call).
        sent: the messages of that prompt, a conversation the memory may continue (a cache-friendly compaction).
        fold: whether to fold now what no longer fits (compact, summarise); the loop passes False and calls
        `fold()` only before a model call, so steps no model reads (a lead's planned helper calls) fold nothing."""
        ...

    def fold(self) -> None:
        """Fold what no longer fits into the prompt (a compaction, a summary), before a model call reads it."""
        ...

    def finish(self, result: RunResult) -> None:
        """Record how the run ended."""
        ...

    def annotate(self, kind: str, text: str) -> None:
        """Keep a run-level annotation ("plan", "lesson"), stored with the run; with a memory space a lesson is
        also kept for later runs."""
        ...

    def annotation(self, kind: str) -> str | None:
        """The run's latest annotation of this kind (a resumed run keeps its plan)."""
        ...


def step_turns(step: Step) -> list[Message]:
    """The one layout of a step as chat turns: the model's call, then the observation it got."""
    return [Message(role="assistant", content=step.as_call()),
            Message(role="user", content=f"Observation: {step.observation}")]


def render_steps(steps: list[Step]) -> str:
    """Steps in the model's own format, each marked with its step number."""
    return "\n\n".join(f"[step {s.index}]\n{s.as_text()}" for s in steps)
