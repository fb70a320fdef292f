"""Loop overhead per step with a Replay model (no LLM time): prompt building, parsing, tool call, recording.

    python -m ponder.bench.speed.loop [--steps 200]
"""
from __future__ import annotations

import argparse
import statistics
import time

from agent.config import AgentConfig
from agent.llm.replay import Replay
from agent.loop import Agent
from memory.strategies import full_history
from tools.base import ToolRegistry, tool
from tools.calculator import calculator

WARM_UP_STEPS = 20  # the first steps are reported apart: imports and caches warm up in them


def measure(steps: int) -> tuple[int, str, list[float]]:
    """(steps run, stop reason, seconds per step) of a scripted run of `steps` calculator calls and a Final."""
    script = [f"Thought: step {i}\nAction: calculator\nAction Input: {i} * 3 + 1" for i in range(steps)]
    script.append("Thought: done\nAction: Final\nAction Input: finished")
    durations: list[float] = []
    last = [time.perf_counter()]

    def tick(event) -> None:
        if event.type == "step_recorded":
            now = time.perf_counter()
            durations.append(now - last[0])
            last[0] = now

    config = AgentConfig(max_steps=steps + 1, repeat_limit=steps, max_total_tokens=10**9)
    agent = Agent(Replay(script), ToolRegistry([tool(calculator)]), memory=full_history("benchmark"), config=config)
    last[0] = time.perf_counter()
    result = agent.run("benchmark", on_event=tick)
    return len(result.steps), result.stop_reason.value, durations


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ponder.bench.speed.loop", description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=200, help="calculator steps before the Final (default 200)")
    args = parser.parse_args(argv)
    if args.steps < 1:
        parser.error(f"--steps must be at least 1, got {args.steps}")
    ran, stop, durations = measure(args.steps)
    first, rest = durations[:WARM_UP_STEPS], durations[WARM_UP_STEPS:]
    print(f"{ran} steps, stop={stop}")
    print(f"loop overhead per step, first {len(first)} steps: median {statistics.median(first) * 1e3:.2f} ms")
    if rest:
        print(f"loop overhead per step, steps {WARM_UP_STEPS}-{args.steps}: median "
              f"{statistics.median(rest) * 1e3:.2f} ms, p95 {sorted(rest)[int(len(rest) * 0.95)] * 1e3:.2f} ms "
              "(full_history prompt grows each step)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
