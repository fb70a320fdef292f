"""The embedded model on the demo question, offline, through the real agent loop; plus raw llama.cpp figures.

    python -m ponder.bench.speed.llm [--question "..."] [--runs N] [--skip-raw]

Prints: model load time, prompt and generation tokens/s, what the KV prefix cache saves on a repeated
prompt prefix, and for the agent run the wall time, time to first step, steps and the answer.
Target: the demo question answered correctly in <= 60 s on 2 cores. Timings are noisy when other jobs share
the machine.
"""
from __future__ import annotations

import argparse
import os
import time

from agent.config import AgentConfig
from agent.events import LLMOutput, StepRecorded
from agent.llm.local_llama import LocalLlama
from agent.loop import Agent
from core.llm import Message
from tools.base import ToolRegistry
from tools.defaults import default_tools
from tools.wiki_select import make_backend

DEMO = "What is Python, and what is 15 raised to the power of 2?"


def raw_figures(llm: LocalLlama) -> None:
    """Prompt/generation speed and the saving of the KV prefix cache on the next ReAct step's prompt."""
    system = "You are a careful assistant. " + " ".join(f"Fact {i}: the number {i} squared is {i * i}."
                                                        for i in range(60))
    first = [Message(role="system", content=system), Message(role="user", content="Say OK.")]
    second = [first[0], Message(role="user", content="Say OK. Then say the number 7 squared.")]

    llm.forget_prompt_cache()
    t = time.perf_counter()
    cold = llm.complete(first)
    cold_s = time.perf_counter() - t
    t = time.perf_counter()
    warm = llm.complete(second)  # shares the long system prefix with the previous call
    warm_s = time.perf_counter() - t
    llm.forget_prompt_cache()
    t = time.perf_counter()
    llm.complete(second)
    second_cold_s = time.perf_counter() - t

    gen = [Message(role="user", content="Write the numbers from 1 to 60 separated by commas.")]
    llm.forget_prompt_cache()
    t = time.perf_counter()
    out = llm.complete(gen)
    gen_s = time.perf_counter() - t

    print(f"prompt eval (cold, {cold.usage.prompt_tokens} prompt tokens): {cold_s:.2f} s "
          f"-> {cold.usage.prompt_tokens / cold_s:.0f} tok/s incl. {cold.usage.completion_tokens} generated")
    print(f"next prompt, same prefix ({warm.usage.prompt_tokens} tokens): cached {warm_s:.2f} s vs cold "
          f"{second_cold_s:.2f} s  -> prefix cache saves {second_cold_s - warm_s:.2f} s "
          f"({second_cold_s / max(warm_s, 1e-6):.1f}x)")
    print(f"generation: {out.usage.completion_tokens} tokens in {gen_s:.2f} s "
          f"-> {out.usage.completion_tokens / gen_s:.1f} tok/s (incl. a {out.usage.prompt_tokens}-token prompt)")


def agent_run(llm: LocalLlama, question: str, tools: ToolRegistry) -> bool:
    agent = Agent(llm, tools, config=AgentConfig(max_steps=8, max_wall_seconds=300))
    started = time.perf_counter()
    first_step_s = None
    llm_s = 0.0

    def on_event(event) -> None:
        nonlocal first_step_s, llm_s
        if isinstance(event, LLMOutput):
            llm_s += event.seconds
        if isinstance(event, StepRecorded):
            if first_step_s is None:
                first_step_s = time.perf_counter() - started
            s = event.step
            print(f"  step {s.index}: {s.action}({s.action_input[:60]!r}) "
                  f"[{s.usage.prompt_tokens}+{s.usage.completion_tokens} tok] -> {s.observation[:70]!r}")

    result = agent.run(question, on_event=on_event)
    wall = time.perf_counter() - started
    answer = result.answer or ""
    correct = "225" in answer and any(w in answer.lower() for w in ("programming", "language"))
    print(f"answer: {answer!r}")
    print(f"stop: {result.stop_reason.value}{' (forced)' if result.forced_answer else ''}, steps: "
          f"{len(result.steps)}, tokens: {result.usage.prompt_tokens} prompt + "
          f"{result.usage.completion_tokens} generated")
    print(f"wall: {wall:.1f} s (target <= 60 s), first step: {first_step_s or 0:.1f} s, in the LLM: {llm_s:.1f} s, "
          f"correct: {correct}")
    return correct


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m ponder.bench.speed.llm", description=__doc__.splitlines()[0])
    ap.add_argument("--question", default=DEMO)
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--skip-raw", action="store_true", help="only the agent run, not the raw llama.cpp figures")
    args = ap.parse_args(argv)
    print(f"cores: {os.cpu_count()}, load average: {os.getloadavg()[0]:.2f} (other jobs make timings noisy)")
    t = time.perf_counter()
    llm = LocalLlama()
    print(f"model: {llm.name}, load: {time.perf_counter() - t:.1f} s, n_ctx {llm.n_ctx}")
    if not args.skip_raw:
        raw_figures(llm)
    tools = default_tools(make_backend("offline"))
    ok = 0
    for run in range(args.runs):
        print(f"run {run + 1}: {args.question}")
        llm.forget_prompt_cache()
        ok += agent_run(llm, args.question, tools)
    print(f"correct: {ok}/{args.runs}")
    llm.close()
    return 0 if ok == args.runs else 1


if __name__ == "__main__":
    raise SystemExit(main())
