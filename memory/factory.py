"""make_memory: the stored Memory of one run, of any strategy. Kept apart from the strategies so that no
strategy module and this factory import each other (compact builds on strategies' RunMemory)."""
from __future__ import annotations

from typing import Callable

from memory.compact import CompactMemory
from memory.strategies import (
    DEFAULT_STRATEGY,
    STRATEGIES,
    SUMMARISING,
    MemoryConfig,
    RunMemory,
)
from memory.summariser import Summariser
from memory.tokens import TokenCounter, as_token_counter


def make_memory(strategy: str | MemoryConfig = DEFAULT_STRATEGY, run_id: str = "", *, task: str = "",
                client=None, store=None, summariser_llm=None,
                token_counter: TokenCounter | Callable[[str], int] | None = None, **settings) -> RunMemory:
    """The stored Memory for one run. An existing run_id reopens that run (its task, steps and summary).

    strategy: a strategy name or a whole MemoryConfig; **settings: MemoryConfig fields (recent_window, top_k...).
    client: a Chroma client (default: core.chroma.make_client(), i.e. $PONDER_HOME/chroma or the server
    named by PONDER_CHROMA_HOST); store: a Store to share between runs in one process (overrides client).
    summariser_llm: a core.llm.LLM, required by retrieval+summary.
    token_counter: the LLM's tokenizer as count(text) -> int or a callable; default MiniLM's tokenizer.
    """
    if isinstance(strategy, MemoryConfig):
        config = strategy.model_copy(update=settings)
    else:
        if strategy not in STRATEGIES:
            raise ValueError(f"unknown memory strategy {strategy!r}: choose one of {', '.join(STRATEGIES)}")
        config = MemoryConfig(strategy=strategy, **settings)
    counter = as_token_counter(token_counter)
    summariser = None
    if config.strategy in SUMMARISING:
        if summariser_llm is None:
            raise ValueError(f"memory strategy {config.strategy} needs summariser_llm (an LLM)")
        summariser = Summariser(summariser_llm, counter, max_tokens=config.summary_tokens)
    if store is None:
        from memory.store import (
            Store,  # imports Chroma: only when a stored memory is made
        )
        store = Store(client)
    if config.strategy == "compact":
        return CompactMemory(task, config, store=store, run_id=run_id, summariser=summariser, counter=counter)
    return RunMemory(task, config, store=store, run_id=run_id, summariser=summariser, counter=counter)
