"""The embedded model on a table of short research tasks, offline, through the real agent loop.

    .venv/bin/python benchmarks/bench_local_tasks.py [--only N ...] [--max-steps 10]

Each task needs the offline Wikipedia corpus and the calculator or date tools. Prints, per task: correct or
not, stop reason, steps, seconds and the answer; then the totals. An answer is correct when it contains every
expected piece (an age may be off by one: the corpus gives birth years, not dates, for most people).
Timings are noisy when other jobs share the machine.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agent.config import AgentConfig  # noqa: E402
from agent.llm.local_llama import LocalLlama  # noqa: E402
from agent.loop import Agent  # noqa: E402
from tools.clock import today  # noqa: E402
from tools.defaults import default_tools  # noqa: E402
from tools.wiki_select import make_backend  # noqa: E402


def years_since(year: int) -> tuple[str, ...]:
    """Either age: the day in the birth year is unknown to the corpus."""
    span = today().year - year
    return (str(span), str(span - 1))


# (question, pieces that must all appear; a tuple piece means any one of its alternatives)
TASKS: list[tuple[str, list]] = [
    ("What is Python, and what is 15 raised to the power of 2?", [("programming", "language"), "225"]),
    ("Who invented the light bulb, and how old would they be today if they were alive?",
     ["Edison", years_since(1847)]),
    ("Who painted the Mona Lisa, and how many years ago was the painter born?", ["Leonardo", years_since(1452)]),
    ("Who wrote Pride and Prejudice, and how old was the author when she died?", ["Austen", ("41", "42")]),
    ("Who developed the theory of relativity, and what is the year of his birth multiplied by 2?",
     ["Einstein", ("3758", "3,758")]),
    ("What is the square root of 1764 plus 8?", ["50"]),
]


def correct(answer: str, pieces: list) -> bool:
    text = answer.lower()
    return all(any(alt.lower() in text for alt in (piece if isinstance(piece, tuple) else (piece,)))
               for piece in pieces)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", type=int, nargs="*", help="task numbers (1-based) to run")
    ap.add_argument("--max-steps", type=int, default=10)
    ap.add_argument("-v", "--verbose", action="store_true", help="show the steps of every task, not only failures")
    args = ap.parse_args()
    llm = LocalLlama()
    tools = default_tools(make_backend("offline"))
    chosen = [(i, t) for i, t in enumerate(TASKS, 1) if not args.only or i in args.only]
    ok, total_s = 0, 0.0
    for number, (question, pieces) in chosen:
        llm.forget_prompt_cache()
        started = time.perf_counter()
        result = Agent(llm, tools, config=AgentConfig(max_steps=args.max_steps)).run(question)
        seconds = time.perf_counter() - started
        good = correct(result.answer or "", pieces)
        ok += good
        total_s += seconds
        print(f"{number}. {'OK  ' if good else 'FAIL'} {result.stop_reason.value:<15} {len(result.steps):>2} steps "
              f"{seconds:6.1f} s  {question}", flush=True)
        for s in result.steps if args.verbose or not good else []:
            observation = " ".join(s.observation.split())
            print(f"     {s.action}({s.action_input[:70]!r}) -> {observation[:90]!r}")
        print(f"   answer: {result.answer!r}", flush=True)
    print(f"correct: {ok}/{len(chosen)}, total {total_s:.0f} s, mean {total_s / max(len(chosen), 1):.1f} s a task")
    llm.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
