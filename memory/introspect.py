"""Plain-text views of the memory store for `ponder memory`: runs, one run's steps, summaries and retrievals."""
from __future__ import annotations

import time

from memory.store import RunInfo, Store


def _when(timestamp: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(timestamp)) if timestamp else "?"


def _short(text: str, width: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[:width - 1] + "…"


def format_runs(runs: list[RunInfo]) -> str:
    """One line per run, oldest first."""
    if not runs:
        return "No runs stored yet."
    lines = [f"{'run id':<28} {'created':<16} {'status':<16} {'steps':>5}  task"]
    for run in runs:
        lines.append(f"{run.run_id:<28} {_when(run.created):<16} {run.status:<16} {run.steps:>5}  "
                     f"{_short(run.task, 60)}")
    return "\n".join(lines)


def format_run(store: Store, run_id: str, *, observation_chars: int = 300) -> str:
    """A run's registry entry, its summaries, and each step with what memory retrieved into its prompt."""
    info = store.run_info(run_id)
    if info is None:
        return f"No run {run_id!r} in this store (see `ponder memory` for the list)."
    lines = [f"Run {info.run_id}", f"  task:     {info.task}", f"  created:  {_when(info.created)}",
             f"  status:   {info.status}", f"  strategy: {info.strategy or '?'}", f"  steps:    {info.steps}"]
    if info.space:
        lines.append(f"  space:    {info.space}")
    if info.answer:
        lines.append(f"  answer:   {_short(info.answer, 200)}")
    for summary in store.summaries(run_id):
        lines += ["", f"Summary of steps {summary.first}-{summary.upto} ({_when(summary.created)}):", summary.text]
    for record in store.step_records(run_id):
        step = record.step
        shown = ", ".join(str(i) for i in record.retrieved) or "none"
        context = f", prompt context {record.context_tokens} tokens" if record.context_tokens is not None else ""
        summary = f", summary to step {record.summary_upto}" if record.summary_upto is not None else ""
        lines += ["", f"[step {step.index}] retrieved: {shown}{summary}{context}",
                  f"  Thought: {_short(step.thought, 300)}", f"  Action: {step.action}  Input: {_short(step.action_input, 120)}"]
        if step.observation:
            lines.append(f"  Observation: {_short(step.observation, observation_chars)}")
    return "\n".join(lines)
