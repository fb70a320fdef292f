"""Loop overhead per step with a Replay model (no LLM time): prompt building, parsing, tool call, recording.

    python benchmarks/bench_loop.py [steps]
"""
from __future__ import annotations

import statistics
import sys
import time

from agent.config import AgentConfig
from agent.llm.replay import Replay
from agent.loop import Agent
from memory.strategies import full_history
from tools.base import ToolRegistry, tool
from tools.calculator import calculator


def main(steps: int = 200) -> None:
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
    first, rest = durations[:20], durations[20:]
    print(f"{len(result.steps)} steps, stop={result.stop_reason.value}")
    print(f"loop overhead per step, first 20 steps: median {statistics.median(first) * 1e3:.2f} ms")
    print(f"loop overhead per step, steps 20-{steps}: median {statistics.median(rest) * 1e3:.2f} ms, "
          f"p95 {sorted(rest)[int(len(rest) * 0.95)] * 1e3:.2f} ms (full_history prompt grows each step)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200)
