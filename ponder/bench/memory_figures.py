"""What memory did in one bench run, read back from the store: its compactions, what it recalled and whether
that was used, and whether the facts the answer needs were still before the model at the end.

Read from the stored run (steps with what each prompt showed, the notes of each compaction with their cost), so
the figures describe what happened, not what the memory intended.
"""
from __future__ import annotations

import statistics
from typing import Any, Sequence

from pydantic import BaseModel

from core.schema import RunResult, Step
from core.units import quantities, scaled
from memory.summariser import numbers_in
from ponder.bench.metrics import pages_looked_up


class MemoryFigures(BaseModel):
    compactions: int = 0             # notes written (compact: one per fold; retrieval+summary: per summariser call)
    compaction_tokens_in: int = 0    # previous notes and folded steps, over all compactions
    compaction_tokens_out: int = 0   # the notes they became
    compaction_seconds: float = 0.0
    summariser_failures: int = 0     # notes extracted without the model (its call failed or was unusable)
    recalled: int = 0                # earlier steps recalled into a prompt, over all steps
    recalled_used: int = 0           # ... whose number or page the next thought, input or the answer used
    facts_needed: int = 0            # the question's facts whose page the run looked up
    facts_kept: int = 0              # ... whose value was in the final prompt or the ledger
    memory_ms_median: float = 0.0    # memory's time per step, median (a step that compacts is the exception)

    @property
    def recall_precision(self) -> float | None:
        return self.recalled_used / self.recalled if self.recalled else None


def memory_figures(store, result: RunResult, last_prompt: str, question_facts: Sequence[dict[str, Any]] = ()
                   ) -> MemoryFigures:
    """The figures of result's run (its last attempt) as the store holds it; last_prompt: the final answer's prompt.
    question_facts: the suite's facts ({"page", "value"}), the values the answer is computed from."""
    records = store.step_records(result.run_id) if result.run_id else []
    summaries = store.summaries(result.run_id) if result.run_id else []
    by_index = {record.step.index: record.step for record in records}
    recalled = used = 0
    for record in records:
        later = f"{record.step.thought} {record.step.action_input} {result.answer or ''}"
        for index in record.retrieved:
            if index in by_index:
                recalled += 1
                used += _uses(later, by_index[index])
    seen = set(pages_looked_up(result.steps))
    shown = last_prompt + " " + " ".join(f"{f.value} {f.unit} {f.quote}" for f in result.facts)
    # "64.3 million" holds the suite's 64300000
    multiplied = [(scaled(number, unit), unit) for number, unit in quantities(shown)]
    before_model = set(numbers_in(_digits(shown))) | {number for (number, left), unit in multiplied if left != unit}
    needed = [fact for fact in question_facts if fact.get("page") in seen]
    kept = [fact for fact in needed if _values(fact.get("value")) <= before_model]
    timings = [step.timings.memory_seconds * 1000 for step in result.steps]
    return MemoryFigures(
        compactions=len(summaries), compaction_tokens_in=sum(s.tokens_in for s in summaries),
        compaction_tokens_out=sum(s.tokens_out for s in summaries),
        compaction_seconds=sum(s.seconds for s in summaries),
        summariser_failures=sum(not s.by_model for s in summaries), recalled=recalled, recalled_used=used,
        facts_needed=len(needed), facts_kept=len(kept),
        memory_ms_median=statistics.median(timings) if timings else 0.0)


def _values(value: Any) -> set[str]:
    """A suite fact's value as the numbers a text states it with: 4909, 2256.25, [1564, 1642] (born, died)."""
    values = value if isinstance(value, list) else [value]
    return {str(int(v)) if isinstance(v, float) and v.is_integer() else str(v) for v in values}


def _digits(text: str) -> str:
    return text.replace(",", "").replace("\u00a0", " ")


def _uses(text: str, step: Step) -> bool:
    """Whether text states one of step's observed numbers or names one of the pages it read."""
    said = set(numbers_in(_digits(text)))
    if said & set(numbers_in(step.observation)):
        return True
    lowered = text.lower()
    return any(title.lower() in lowered for title in pages_looked_up([step]))
