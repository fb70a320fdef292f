"""Memory strategies side by side: prompt tokens, recall of old facts, and per-step overhead.

    python -m ponder.bench.speed.memory [--seeds 5] [--sizes 1000,10000] [--embedders minilm,minilm-onnx-int8]

Real Chroma (in memory), the real MiniLM embedder and tokenizer, synthetic Wikipedia-like research steps
(ponder/bench/synthetic.py). The summariser LLM is scripted (extractive: the first sentence of each observation),
so summary *content* is not what is measured here; its size and cost are. Prompt tokens = task + memory context,
counted with MiniLM's tokenizer (the loop's system prompt and tool list come on top). Timings are noisy on a
shared machine.
"""
from __future__ import annotations

import argparse
import random
import re
import statistics
import time
import uuid

from agent.llm.replay import Replay
from core.chroma import make_client
from core.embedding import get_embedder
from memory.factory import make_memory
from memory.store import Store
from memory.strategies import STRATEGIES
from memory.tokens import minilm_token_counter
from ponder.bench.synthetic import TASK, distractor_step, research_run


def extractive_summary(messages) -> str:
    """A scripted summariser: keeps the previous summary's facts and adds each new step's first sentence."""
    prompt = messages[-1].content
    previous = prompt.split("Current notes:\n", 1)[1].split("\n\nNew steps:", 1)[0]
    facts = [line for line in previous.splitlines() if line.startswith("- ")]
    for number, observation in re.findall(r"\[step (\d+)\].*?Observation: ([^\n]*)", prompt, re.S):
        facts.append(f"- {observation.split('. ')[0]} (step {number})")
    return "Facts:\n" + "\n".join(facts[-12:]) + "\nOpen questions: none yet"


def new_memory(strategy: str, store: Store, run_id: str | None = None):
    llm = Replay(responder=extractive_summary) if strategy in ("retrieval+summary", "compact") else None
    return make_memory(strategy, run_id or f"bench-{uuid.uuid4().hex[:10]}", store=store, summariser_llm=llm,
                       task=TASK)


def strategy_run(strategy: str, store: Store, seed: int, n_steps: int = 100):
    """Prompt tokens per step and, for each needed fact, whether its step was in the next prompt."""
    steps, needs = research_run(n_steps, seed=seed)
    memory = new_memory(strategy, store)
    count = minilm_token_counter().count
    task_tokens = count(TASK)
    tokens, hits = {}, []
    for step in steps:
        context = memory.context()
        shown = set(context.retrieved) | {recent.index for recent in context.recent}
        tokens[step.index] = task_tokens + context.tokens
        if step.index - 1 in needs:
            hits.append(needs[step.index - 1] in shown)
        memory.add(step, context)
    return tokens, hits


def compare_strategies(store: Store, seeds: int) -> None:
    print(f"\n== prompt tokens (task + memory context) and recall of facts observed >= 20 steps earlier, "
          f"{seeds} seeded 100-step runs ==")
    print(f"{'strategy':<20}{'step 10':>9}{'step 50':>9}{'step 100':>10}{'recall':>10}{'trials':>8}")
    results = {}
    for strategy in STRATEGIES:
        runs = [strategy_run(strategy, store, seed) for seed in range(seeds)]
        at = {n: statistics.mean(tokens[n] for tokens, _ in runs) for n in (10, 50, 100)}
        hits = [hit for _, run_hits in runs for hit in run_hits]
        results[strategy] = at[100]
        print(f"{strategy:<20}{at[10]:>9.0f}{at[50]:>9.0f}{at[100]:>10.0f}{sum(hits) / len(hits):>10.0%}"
              f"{len(hits):>8}")
    full = results["full"]
    for strategy in (name for name in STRATEGIES if name != "full"):
        print(f"  step 100: {strategy} is {full / results[strategy]:.1f}x smaller than full")


def overhead(store: Store, size: int, measured: int = 60) -> tuple[list[float], list[float]]:
    """Per-step add + context time (ms) with `size` steps already stored; also the embedding part alone."""
    rng = random.Random(size)
    run_id = f"bench-{size}-{uuid.uuid4().hex[:8]}"
    prefill = [distractor_step(i, rng) for i in range(1, size + 1)]
    store.add_steps(run_id, prefill)
    memory = new_memory("retrieval+summary", store, run_id)
    memory.context()
    totals, embeds = [], []
    for i in range(size + 1, size + 1 + measured):
        step = distractor_step(i, rng)
        start = time.perf_counter()
        memory.add(step)
        memory.context()
        totals.append((time.perf_counter() - start) * 1000)
        start = time.perf_counter()
        store.embedder.embed([step.as_text()])
        embeds.append((time.perf_counter() - start) * 1000)
    return totals, embeds


def compact_overhead(store: Store, seeds: int, n_steps: int = 150) -> None:
    """The compact strategy's own time per step (add + context), apart from the steps that compact."""
    plain, compacting, folded_plain = [], [], []
    for seed in range(seeds):
        steps, _ = research_run(n_steps, seed=seed)
        memory = new_memory("compact", store)
        for step in steps:
            context = memory.context()
            before = memory.summary.upto if memory.summary else None
            start = time.perf_counter()
            memory.add(step, context)
            memory.context()
            elapsed = (time.perf_counter() - start) * 1000
            after = memory.summary.upto if memory.summary else None
            if after != before:
                compacting.append(elapsed)
            elif memory.summary is None:
                plain.append(elapsed)
            else:
                folded_plain.append(elapsed)  # steps have left the log: recall (and its query embedding) runs
    print(f"\n== compact: memory time per step, ms ({seeds} runs of {n_steps} synthetic steps) ==")
    print(f"  before any compaction: median {statistics.median(plain):.1f}, p95 {p95(plain):.1f} ({len(plain)} steps)")
    if folded_plain:
        print(f"  after compactions, with recall: median {statistics.median(folded_plain):.1f}, "
              f"p95 {p95(folded_plain):.1f} ({len(folded_plain)} steps)")
    if compacting:
        print(f"  a compaction (scripted summariser, embeds the folded steps): median "
              f"{statistics.median(compacting):.0f}, {len(compacting)} compactions")


def p95(values: list[float]) -> float:
    return sorted(values)[int(0.95 * (len(values) - 1))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ponder.bench.speed.memory", description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--sizes", default="1000,10000")
    parser.add_argument("--embedders", default="minilm,minilm-onnx-int8")
    args = parser.parse_args(argv)
    client = make_client("memory")
    kinds = args.embedders.split(",")
    start = time.perf_counter()
    store = Store(client, get_embedder(kinds[0]))
    print(f"embedder {store.embedder.name} loaded in {time.perf_counter() - start:.1f} s")
    compare_strategies(store, args.seeds)
    compact_overhead(store, args.seeds)

    print("\n== memory overhead per step, retrieval+summary (embed + store + retrieve + assemble), ms ==")
    print(f"{'embedder':<28}{'stored':>8}{'median':>9}{'p95':>8}{'embed median':>14}{'rest median':>13}")
    medians = {}
    for kind in list(kinds):
        try:
            store = Store(client, get_embedder(kind))
        except RuntimeError as exc:  # an optional embedder that is not installed
            print(f"{kind:<28}skipped: {exc}")
            kinds.remove(kind)
            continue
        for size in (int(s) for s in args.sizes.split(",")):
            totals, embeds = overhead(store, size)
            medians[kind, size] = statistics.median(totals)
            rest = statistics.median(t - e for t, e in zip(totals, embeds))
            print(f"{store.embedder.name:<28}{size:>8}{statistics.median(totals):>9.1f}{p95(totals):>8.1f}"
                  f"{statistics.median(embeds):>14.1f}{rest:>13.1f}")
    if len(kinds) == 2:
        for size in (int(s) for s in args.sizes.split(",")):
            print(f"  {size} stored: {kinds[1]} is {medians[kinds[0], size] / medians[kinds[1], size]:.2f}x "
                  f"faster per step than {kinds[0]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
