"""Memory strategies selectable by name, all persisting every step to Chroma (so any run can be resumed).

- full: every step verbatim (the seed's FullHistory behaviour; the benchmark baseline)
- window: the last `recent_window` steps
- retrieval: steps retrieved by similarity to the current situation + the recent window
- retrieval+summary (default): the above + a running summary written by the summariser agent
"""
from __future__ import annotations

import logging
import time
from typing import Callable

import numpy as np

from agent.schema import RunResult, Step
from memory.base import Context, render_steps
from memory.context import Assembled, Assembler
from memory.store import Store, Summary, check_name
from memory.summariser import Summariser
from memory.tokens import TokenCounter, as_token_counter

log = logging.getLogger(__name__)

STRATEGIES = ("full", "window", "retrieval", "retrieval+summary")
DEFAULT_STRATEGY = "retrieval+summary"
DEFAULT_SPACE = "default"  # the CLI's --remember

# The retrieval query mixes three embeddings: the latest thought (the agent's current information need, the
# strongest signal), the latest whole step (what was just seen) and the task (constant over the run).
THOUGHT_WEIGHT, STEP_WEIGHT, TASK_WEIGHT = 1.0, 0.3, 0.3


class RunMemory:
    """The Memory of one run: add(step) persists it; context(task) is the text for the next prompt."""

    def __init__(self, store: Store, run_id: str, strategy: str = DEFAULT_STRATEGY, *, task: str = "",
                 summariser: Summariser | None = None, counter: TokenCounter | None = None,
                 token_budget: int = 2000, recent_window: int = 3, top_k: int = 4, min_similarity: float = 0.3,
                 space: str | None = None, space_k: int = 2, summarise_after: int = 6, summarise_batch: int = 10):
        if strategy not in STRATEGIES:
            raise ValueError(f"unknown memory strategy {strategy!r}: choose one of {', '.join(STRATEGIES)}")
        if strategy == "retrieval+summary" and summariser is None:
            raise ValueError("memory strategy retrieval+summary needs an LLM for its summariser")
        if recent_window < 1 or top_k < 0:
            raise ValueError("recent_window must be >= 1 and top_k >= 0")
        self.store, self.run_id, self.strategy = store, check_name("run id", run_id), strategy
        self.space = check_name("memory space", space) if space else None
        self.counter = as_token_counter(counter)
        self.assembler = Assembler(self.counter, token_budget)
        self.summariser = summariser if strategy == "retrieval+summary" else None
        self.recent_window, self.top_k, self.min_similarity = recent_window, top_k, min_similarity
        self.space_k, self.summarise_after, self.summarise_batch = space_k, summarise_after, summarise_batch

        info = store.open_run(run_id, task=task, strategy=strategy, space=self.space)
        self.task = task or info.task
        self.steps: list[Step] = store.load_steps(run_id)  # reopening a run resumes from its stored steps
        summaries = store.summaries(run_id)
        self.summary: Summary | None = summaries[-1] if summaries else None
        self.last: Assembled | None = None  # what the latest context() showed, recorded with the next step
        self._task_vectors: dict[str, np.ndarray] = {}
        self._latest: tuple[np.ndarray, np.ndarray | None] | None = None  # (step, thought) vectors
        if self.steps:
            self._latest = (store.embedder.embed([self.steps[-1].as_text()])[0], self._embed_thought(self.steps[-1]))
        self._summarise_from = 0  # len(self.steps) at which the summariser may be called again

    # ---- Memory protocol ----

    def add(self, step: Step) -> None:
        vector = self.store.embedder.embed([step.as_text()])[0]
        shown = self.last
        self.store.add_step(self.run_id, step, vector, retrieved=shown.retrieved if shown else (),
                            context_tokens=shown.tokens if shown else None,
                            summary_upto=shown.summary_upto if shown else None)
        self.last = None
        if self.steps and self.steps[-1].index >= step.index:  # the loop re-added a stored step: replace it
            self.steps = [s for s in self.steps if s.index != step.index]
            self.steps.append(step)
            self.steps.sort(key=lambda s: s.index)
        else:
            self.steps.append(step)
        self._latest = (vector, self._embed_thought(step))
        if self.summariser is not None:
            self._maybe_summarise()

    def context(self, task: str) -> Context:
        if task and task != self.task:
            self.task = task
            self.store.update_run(self.run_id, task=task)
        if self.strategy == "full":
            text = render_steps(self.steps)
            tokens = sum(self.counter.count(render_steps([step])) for step in self.steps)  # cached per step
            self.last = Assembled(text=text, tokens=tokens, recent_steps=list(self.steps),
                                  recent=[step.index for step in self.steps])
            return Context(recent=list(self.steps))
        recent = self.steps[-self.recent_window:]
        retrieved, notes = [], []
        if self.strategy != "window":
            query = self._query(task)
            recent_indices = {step.index for step in recent}
            hits = self.store.search_steps(self.run_id, query, self.top_k + len(recent)) if self.top_k else []
            retrieved = [hit for hit in hits
                         if hit.step.index not in recent_indices and hit.similarity >= self.min_similarity]
            retrieved = retrieved[:self.top_k]
            if self.space:
                notes = [item for item in self.store.search_space(self.space, query, self.space_k,
                                                                  exclude_run=self.run_id)
                         if item.similarity >= self.min_similarity]
        self.last = self.assembler.assemble(summary=self.summary, recent=recent, retrieved=retrieved, notes=notes)
        return Context(background=self.last.background, recent=self.last.recent_steps)

    # ---- end of run ----

    def finish(self, result: RunResult | None = None, *, answer: str | None = None, status: str | None = None) -> None:
        """Record the run's outcome; with a memory space, keep its answer and notes for later runs."""
        if result is not None:
            answer = result.answer if answer is None else answer
            status = status or result.stop_reason.value
        self.store.update_run(self.run_id, status=status or "finished", answer=(answer or "")[:2000],
                              finished=time.time())
        if not self.space:
            return
        if self.summariser is not None:
            self._summarise(self._unsummarised(include_recent=True))
        items = []
        if answer:
            items.append(("answer", f"Task: {self.task}\nAnswer: {answer}"))
        if self.summary is not None:
            items.append(("summary", f"Task: {self.task}\nNotes:\n{self.summary.text}"))
        self.store.remember(self.space, self.run_id, self.task, items)

    # ---- internals ----

    def _query(self, task: str) -> np.ndarray:
        if task not in self._task_vectors:
            self._task_vectors[task] = self.store.embedder.embed([task])[0]
        query = TASK_WEIGHT * self._task_vectors[task]
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
        older = self.steps if include_recent else self.steps[:-self.recent_window]
        upto = self.summary.upto if self.summary else -1
        return [step for step in older if step.index > upto]

    def _maybe_summarise(self) -> None:
        pending = self._unsummarised()
        if len(pending) >= self.summarise_after and len(self.steps) >= self._summarise_from:
            # At most one summariser call per summarise_after steps, also when catching up a backlog
            # (after failures or a resume): each call costs an LLM round trip.
            self._summarise_from = len(self.steps) + self.summarise_after
            self._summarise(pending)

    def _summarise(self, pending: list[Step]) -> None:
        if not pending:
            return
        batch = pending[:self.summarise_batch]  # bounds the summariser's prompt; the rest waits for next time
        previous = self.summary.text if self.summary else ""
        text = self.summariser.fold(self.task, previous, batch)
        if text is None:
            return
        self.summary = Summary(text=text, first=self.summary.first if self.summary else batch[0].index,
                               upto=batch[-1].index, created=time.time())
        self.store.save_summary(self.run_id, self.summary)


def make_memory(strategy: str = DEFAULT_STRATEGY, run_id: str = "", *, client=None, store: Store | None = None,
                summariser_llm=None, token_counter: TokenCounter | Callable[[str], int] | None = None,
                token_budget: int = 2000, recent_window: int = 3, top_k: int = 4, space: str | None = None,
                task: str = "", min_similarity: float = 0.3, summary_tokens: int = 350) -> RunMemory:
    """The Memory for one run. An existing run_id reopens that run (its steps and summary) for resume.

    client: a Chroma client (default: memory.chroma.make_client(), i.e. $PONDER_HOME/chroma or the server
    named by PONDER_CHROMA_HOST); store: a Store to share between runs in one process (overrides client).
    summariser_llm: an agent.llm.base.LLM, required by retrieval+summary.
    token_counter: the LLM's tokenizer as count(text) -> int or a callable; default MiniLM's tokenizer.
    space: a named long-term memory space shared across runs ("default" for --remember), or None.
    """
    if strategy not in STRATEGIES:
        raise ValueError(f"unknown memory strategy {strategy!r}: choose one of {', '.join(STRATEGIES)}")
    counter = as_token_counter(token_counter)
    summariser = None
    if strategy == "retrieval+summary":
        if summariser_llm is None:
            raise ValueError("memory strategy retrieval+summary needs summariser_llm (an LLM)")
        summariser = Summariser(summariser_llm, counter, max_tokens=summary_tokens)
    return RunMemory(store or Store(client), run_id, strategy, task=task, summariser=summariser, counter=counter,
                     token_budget=token_budget, recent_window=recent_window, top_k=top_k,
                     min_similarity=min_similarity, space=space)
