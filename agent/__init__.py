"""The agent: the ReAct loop, its parser, prompts, checks, planning and reflection, the LLM backends and the run
builder (agent/runs.py). It stands on core/, memory/ and tools/; the application around it lives in ponder/."""
