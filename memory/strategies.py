"""Memory strategies selectable by name. With a store, every strategy persists every step to Chroma (so any run
can be resumed and inspected); without one (the loop's default), steps live in this process only.

- full: every step verbatim (the seed's behaviour; the benchmark baseline)
- mask: every thought and action, observations older than the recent window replaced by a one-line placeholder
  (observation masking, the simple baseline of "The Complexity Trap", arXiv 2508.21433)
- window: the last `recent_window` steps
- retrieval: steps retrieved by similarity to the current situation + the recent window
- retrieval+summary: the above + a running summary written by the summariser agent
- compact (default): an append-only prompt between compactions (memory/compact.py): the summary, then every
  step verbatim; when it passes the token budget, older steps are folded into the summary in one summariser call
"""
from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING, Literal, get_args

import numpy as np
from pydantic import BaseModel, Field

from core.llm import Message
from core.schema import RunResult, Step, StopReason
from core.support import support
from memory.assembler import Assembler
from memory.base import Context
from memory.ledger import fact_note
from memory.records import Summary, check_name
from memory.summariser import Summariser
from memory.tokens import TokenCounter, as_token_counter

if TYPE_CHECKING:
    from memory.store import Store

log = logging.getLogger(__name__)

Strategy = Literal["compact", "retrieval+summary", "retrieval", "window", "mask", "full"]
STRATEGIES: tuple[str, ...] = get_args(Strategy)  # the default first
# compact became the default on `ponder bench` (see the README's Benchmarks): on real questions it answered as
# well as full history and masking at full history's cost, and on 50-150-step runs it kept every early fact
# while full history overflowed the window and masking lost them.
DEFAULT_STRATEGY: Strategy = "compact"
_SEARCHING = ("retrieval", "retrieval+summary")  # strategies that search the store at every step
_STORED = (*_SEARCHING, "compact")                # strategies that cannot work without a store
SUMMARISING = ("retrieval+summary", "compact")

# The retrieval query mixes three embeddings: the latest thought (the agent's current information need, the
# strongest signal), the latest whole step (what was just seen) and the task (constant over the run).
THOUGHT_WEIGHT, STEP_WEIGHT, TASK_WEIGHT = 1.0, 0.3, 0.3


def masked_observation(step: Step) -> str:
    return f"[observation of step {step.index} omitted: {len(step.observation)} characters]"


class MemoryConfig(BaseModel):
    """Every knob of a run's memory, with its default, in one place."""
    strategy: Strategy = DEFAULT_STRATEGY
    token_budget: int = Field(2000, ge=100, description="tokens the memory's part of a prompt may take")
    recent_window: int = Field(3, ge=1, description="latest steps shown verbatim")
    top_k: int = Field(4, ge=0, description="earlier steps recalled by similarity")
    min_similarity: float = Field(0.3, ge=-1.0, le=1.0, description="weaker recalls are left out")
    space: str | None = Field(None, description="long-term memory space shared across runs (--remember)")
    space_k: int = Field(2, ge=0, description="items of earlier runs recalled from the space")
    summarise_after: int = Field(6, ge=1, description="summarise once this many steps left the recent window")
    summarise_batch: int = Field(10, ge=1, description="most steps folded into the summary per call")
    summary_tokens: int = Field(350, ge=20, description="bound on the summary kept in every prompt")


class RunMemory:
    """The Memory of one run under one strategy: `add` persists a step, `context` shapes the next prompt."""

    def __init__(self, task: str = "", config: MemoryConfig | None = None, *, store: Store | None = None,
                 run_id: str | None = None, summariser: Summariser | None = None,
                 counter: TokenCounter | None = None):
        self.config = config = config or MemoryConfig(strategy="full")
        if store is None and (config.strategy in _STORED or config.space):
            raise ValueError(f"memory strategy {config.strategy} needs a store (memory.store.Store)")
        if store is not None and not run_id:
            raise ValueError("a stored memory needs a run id")
        if config.strategy in SUMMARISING and summariser is None:
            raise ValueError(f"memory strategy {config.strategy} needs an LLM for its summariser")
        self.store, self.strategy = store, config.strategy
        self.run_id = check_name("run id", run_id) if run_id else None
        self.space = check_name("memory space", config.space) if config.space else None
        self.counter = as_token_counter(counter)
        self.assembler = Assembler(self.counter, config.token_budget)
        self.summariser = summariser if config.strategy in SUMMARISING else None

        self.task, self._steps, self.summary = task, [], None
        if store is not None:  # reopening a stored run resumes from its steps, task and summary
            info = store.open_run(run_id, task=task, strategy=config.strategy, space=self.space)
            self.task = task or info.task
            self._steps = store.load_steps(run_id)
            summaries = store.summaries(run_id)
            self.summary: Summary | None = summaries[-1] if summaries else None
        self._task_vector: np.ndarray | None = None
        self._latest: tuple[np.ndarray, np.ndarray | None] | None = None  # (step, thought) vectors
        if self._steps and self.searches:
            self._latest = (store.embedder.embed([self._steps[-1].as_text()])[0], self._embed_thought(self._steps[-1]))
        self._summarise_from = 0  # len(self._steps) at which the summariser may be called again
        self._annotations: dict[str, str] = store.run_annotations(run_id) if store is not None else {}

    @property
    def searches(self) -> bool:
        return self.strategy in _SEARCHING

    # ---- Memory protocol ----

    def steps(self) -> list[Step]:
        return list(self._steps)

    def add(self, step: Step, shown: Context | None = None, sent: list[Message] | None = None,
            fold: bool = True) -> None:
        if self.store is not None:
            vector = self.store.embedder.embed([step.as_text()])[0]
            self.store.add_step(self.run_id, step, vector, retrieved=shown.retrieved if shown else (),
                                context_tokens=shown.tokens if shown else None,
                                summary_upto=shown.summary_upto if shown else None)
            if self.searches:
                self._latest = (vector, self._embed_thought(step))
        self._steps = [s for s in self._steps if s.index != step.index] + [step]  # a re-added step replaces
        self._steps.sort(key=lambda s: s.index)
        if fold:
            self.fold()

    def fold(self) -> None:
        if self.summariser is not None:
            self._maybe_summarise()

    def context(self) -> Context:
        cfg = self.config
        if self.strategy == "full":
            return Context(recent=list(self._steps), tokens=self._tokens(self._steps))
        if self.strategy == "mask":
            cut = len(self._steps) - cfg.recent_window
            shown = [step.model_copy(update={"observation": masked_observation(step)}) if i < cut else step
                     for i, step in enumerate(self._steps)]
            return Context(recent=shown, tokens=self._tokens(shown))
        recent = self._steps[-cfg.recent_window:]
        retrieved, space_items = [], []
        if self.searches:
            query = self._query()
            recent_indices = {step.index for step in recent}
            hits = self.store.search_steps(self.run_id, query, cfg.top_k + len(recent)) if cfg.top_k else []
            retrieved = [hit for hit in hits
                         if hit.step.index not in recent_indices and hit.similarity >= cfg.min_similarity]
            retrieved = retrieved[:cfg.top_k]
            if self.space:
                space_items = [item for item in self.store.search_space(self.space, query, cfg.space_k,
                                                                        exclude_run=self.run_id)
                               if item.similarity >= cfg.min_similarity]
        return self.assembler.assemble(summary=self.summary, recent=recent, retrieved=retrieved,
                                       space_items=space_items)

    def annotate(self, kind: str, text: str) -> None:
        self._annotations[kind] = text
        if self.store is None:
            return
        # stored as note_<kind>: the run metadata key existing stores hold
        self.store.update_run(self.run_id, **{f"note_{check_name('note kind', kind)}": text})
        if self.space and kind == "lesson":
            self.store.remember(self.space, self.run_id, self.task,
                                [("lesson", f"Task: {self.task}\nLesson from a failed attempt: {text}")])

    def annotation(self, kind: str) -> str | None:
        return self._annotations.get(kind)

    def finish(self, result: RunResult) -> None:
        """Record the run's outcome; with a memory space, keep its answer (with the observations that support it,
        or marked unverified) and its summary for later runs."""
        if self.store is None:
            return
        self.store.update_run(self.run_id, status=result.stop_reason.value, answer=(result.answer or "")[:2000],
                              finished=time.time())
        if not self.space or result.stop_reason is StopReason.interrupted:
            return  # an interrupted run is resumed later; it has nothing final to remember yet
        if self.summariser is not None:
            self._summarise(self._unsummarised(include_recent=True))
        items = []
        if result.answer:
            items.append(("answer", remembered_answer(self.task, result)))
        if self.summary is not None:
            items.append(("summary", f"Task: {self.task}\nNotes:\n{self.summary.text}"))
        items.extend(("fact", fact_note(fact, self.task)) for fact in result.facts)  # each with its source
        self.store.remember(self.space, self.run_id, self.task, items)

    # ---- internals ----

    def _tokens(self, steps: list[Step]) -> int:
        return sum(self.counter.count(step.as_text()) for step in steps)  # the counter caches per step text

    def _query(self) -> np.ndarray:
        if self._task_vector is None:
            self._task_vector = self.store.embedder.embed([self.task])[0]
        query = TASK_WEIGHT * self._task_vector
        if self._latest is not None:
            step_vector, thought_vector = self._latest
            query = query + STEP_WEIGHT * step_vector
            if thought_vector is not None:
                query = query + THOUGHT_WEIGHT * thought_vector
        return query / max(float(np.linalg.norm(query)), 1e-12)

    def _embed_thought(self, step: Step) -> np.ndarray | None:
        # A call of its own, not a batch with the step: padding the short thought to the step's length would
        # cost as much as a second full embedding.
        return self.store.embedder.embed([step.thought])[0] if step.thought.strip() else None

    def _unsummarised(self, include_recent: bool = False) -> list[Step]:
        older = self._steps if include_recent else self._steps[:-self.config.recent_window]
        upto = self.summary.upto if self.summary else -1
        return [step for step in older if step.index > upto]

    def _maybe_summarise(self) -> None:
        pending = self._unsummarised()
        if len(pending) >= self.config.summarise_after and len(self._steps) >= self._summarise_from:
            # At most one summariser call per summarise_after steps, also when catching up a backlog
            # (after failures or a resume): each call costs an LLM round trip.
            self._summarise_from = len(self._steps) + self.config.summarise_after
            self._summarise(pending)

    def _summarise(self, pending: list[Step]) -> None:
        if not pending:
            return
        batch = pending[:self.config.summarise_batch]  # bounds the summariser's prompt; the rest waits
        started = time.perf_counter()
        previous = self.summary.text if self.summary else ""
        text = self.summariser.fold(self.task, previous, batch)
        if text is None:
            return
        self.summary = Summary(text=text, first=self.summary.first if self.summary else batch[0].index,
                               upto=batch[-1].index, created=time.time(), seconds=time.perf_counter() - started,
                               tokens_in=self.counter.count(previous) + sum(self.counter.count(s.as_text())
                                                                             for s in batch),
                               tokens_out=self.counter.count(text))
        self.store.save_summary(self.run_id, self.summary)


def remembered_answer(task: str, result: RunResult) -> str:
    """An answer as later runs see it: with the steps whose observations state its names and numbers, or marked
    unverified, so that a wrong answer from an earlier run is checked rather than trusted."""
    found = support(result.answer or "", task, result.steps)
    if not found.verified:
        missing = f" ({', '.join(found.unsupported)} appear in no observation)" if found.unsupported else ""
        return (f"Task: {task}\nAnswer (UNVERIFIED: no observation of that run supported it{missing}; check it "
                f"before using it): {result.answer}")
    sources = "; ".join(f"step {step.index} {step.action}({step.action_input[:60]!r}): "
                        f"{' '.join(step.observation.split())[:100]}" for step in found.sources[:3])
    return f"Task: {task}\nAnswer: {result.answer}\nSources: {sources}"


def full_history(task: str = "") -> RunMemory:
    """Every step verbatim in every prompt, kept in this process: the loop's default memory."""
    return RunMemory(task, MemoryConfig(strategy="full"))
