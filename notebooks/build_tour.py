"""Writes notebooks/ponder_tour.ipynb (nbformat 4.5, no outputs) from the cells below.

Edit the cells here and rerun `python notebooks/build_tour.py`: the tests check that the notebook matches.
"""
from __future__ import annotations

import json
from pathlib import Path

NOTEBOOK = Path(__file__).with_name("ponder_tour.ipynb")

CELLS: list[tuple[str, str]] = [
    ("markdown", """
# A tour of Ponder

Ponder is a ReAct research agent: at every step the model writes a *Thought*, an *Action* (a tool) and an
*Action Input*; Ponder runs the tool and feeds the *Observation* back, until the model gives its *Final* answer.

This notebook shows, all offline and in well under a minute:

1. a run with a **scripted model** (`Replay`) and the **real tools** (offline Wikipedia, calculator), printing
   the events as they stream;
2. the **`RunResult`**: answer, stop reason, usage and the steps as a table;
3. how the **memory strategies** change the prompt size on a longer run;
4. optionally, the **embedded local model** answering a question by itself.

Run it from the repository root or from `notebooks/`, with the project's virtual environment as the kernel.
"""),
    ("code", """
import sys
from pathlib import Path

# Import Ponder from this checkout, whether Jupyter started in the repo root or in notebooks/.
ROOT = Path.cwd() if (Path.cwd() / "agent").is_dir() else Path.cwd().parent
sys.path.insert(0, str(ROOT))

RUN_LOCAL_MODEL = False  # True: section 4 runs the embedded local model (needs the [local] extra, ~1 GB, slow)
"""),
    ("markdown", """
## 0. The tools

`default_tools` gives the calculator, two date tools and three Wikipedia tools over a backend. We pick the
**offline** backend explicitly (about 10k real Wikipedia intros shipped as a package), so the tour is the same on
every machine; `make_backend("auto")` would use live Wikipedia when it is reachable.
"""),
    ("code", """
from tools.defaults import default_tools
from tools.wiki_select import make_backend

tools = default_tools(make_backend("offline"))
print(tools.names)
"""),
    ("markdown", """
## 1. A run with a scripted model, event by event

`Replay` is an LLM backend that answers from a script, so the run costs nothing and is deterministic, while the
tools are real: the observations below come from the offline Wikipedia corpus and the calculator.
"""),
    ("code", """
from agent.llm.replay import Replay


def step(thought: str, action: str, action_input: str) -> str:
    \"\"\"One model turn in the format Ponder parses.\"\"\"
    return f"Thought: {thought}\\nAction: {action}\\nAction Input: {action_input}"


QUESTION = "Who designed the Eiffel Tower, and what is 15 raised to the power of 2?"
tour_llm = Replay([
    step("The designer should be in the tower's article.", "wikipedia_summary", "Eiffel Tower"),
    step("Gustave Eiffel's company designed it. Now the arithmetic.", "calculator", "15**2"),
    step("I have both parts.", "Final",
         "The Eiffel Tower was designed by Gustave Eiffel's company, and 15 raised to the power of 2 is 225."),
])
"""),
    ("markdown", """
`Agent.stream` yields typed events (`agent/events.py`): `StepStarted`, `PromptSent` (the full messages),
`LLMOutput`, `ActionEvent`, `ObservationEvent`, `StepRecorded`, and last a `FinalEvent` carrying the `RunResult`.
Here each event becomes one short line.
"""),
    ("code", """
from agent.loop import Agent
from agent.events import ActionEvent, FinalEvent, LLMOutput, ObservationEvent, PromptSent, StepStarted


def show(event) -> None:
    if isinstance(event, StepStarted):
        print(f"--- step {event.index}")
    elif isinstance(event, PromptSent):
        print(f"  prompt: {len(event.messages)} messages, {sum(len(m['content']) for m in event.messages)} chars")
    elif isinstance(event, LLMOutput):
        print(f"  model: {event.usage.completion_tokens} tokens in {event.seconds * 1000:.1f} ms")
    elif isinstance(event, ActionEvent):
        print(f"  thought: {event.thought}\\n  action: {event.action}({event.action_input!r})")
    elif isinstance(event, ObservationEvent):
        print(f"  observation: {event.observation[:160]!r}")
    elif isinstance(event, FinalEvent):
        print(f"=== {event.result.stop_reason.value}: {event.result.answer}")


events = []
for event in Agent(tour_llm, tools).stream(QUESTION):
    events.append(event)
    show(event)
result = events[-1].result
"""),
    ("markdown", """
## 2. The `RunResult`

`Agent.run(task)` returns the same `RunResult` without the event loop. It is a pydantic model:
`result.model_dump_json()` saves it, and every step keeps its raw model output, parse status, usage and timings.
"""),
    ("code", """
def print_table(headers, rows) -> None:
    \"\"\"A plain-text table, columns as wide as their longest cell.\"\"\"
    cells = [[str(h) for h in headers]] + [[str(c) for c in row] for row in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]
    for number, row in enumerate(cells):
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths)))
        if number == 0:
            print("  ".join("-" * width for width in widths))


print(f"answer:      {result.answer}")
print(f"stop reason: {result.stop_reason.value} (forced answer: {result.forced_answer})")
print(f"usage:       {result.usage.prompt_tokens} prompt + {result.usage.completion_tokens} completion tokens "
      f"(Replay counts ~4 characters a token)")
print(f"wall time:   {result.wall_seconds:.3f} s\\n")
print_table(["step", "action", "input", "parse", "prompt tok", "tool ms", "observation"],
            [(s.index, s.action, s.action_input[:30], s.parse_status.value, s.usage.prompt_tokens,
              f"{s.timings.tool_seconds * 1000:.1f}", s.observation.replace("\\n", " ")[:50])
             for s in result.steps])
"""),
    ("markdown", """
`Replay` records every call, so you can read exactly what the model was shown at the last step: after the
system prompt, the question, then each earlier step as the model's own turn with its observation as the reply:
"""),
    ("code", """
for message in tour_llm.calls[-1][1:]:
    print(f"[{message.role}] {message.content}\\n")
"""),
    ("markdown", """
## 3. Memory strategies and prompt size

By default the loop keeps every step in the prompt, so the prompt grows with each step. `make_memory` gives the
other strategies, all storing each step (with its MiniLM embedding) in Chroma:

| strategy | in the prompt |
|---|---|
| `full` | every step, verbatim |
| `window` | the last `recent_window` steps |
| `retrieval` | earlier steps similar to the current situation + the window |
| `retrieval+summary` | the above + running notes written by a summariser LLM |
| `mask` | every thought and action; observations older than the window replaced by a placeholder |
| `compact` (the CLI's default) | notes, then every step since the last compaction verbatim: a prompt that only grows at its end |

A longer scripted run: the tower's completion year (step 0) and Curie's first Nobel Prize (step 4) are needed
again at step 10. We use an in-memory Chroma client and a fresh run id per run, so nothing is written to disk.
"""),
    ("code", """
LONG_TASK = ("How many years passed between the completion of the Eiffel Tower and Marie Curie's first "
             "Nobel Prize, and who shared that prize with her?")
LONG_SCRIPT = [
    step("Start with the tower.", "wikipedia_summary", "Eiffel Tower"),
    step("Who was its engineer?", "wikipedia_summary", "Gustave Eiffel"),
    step("Eiffel also built the frame of the Statue of Liberty.", "wikipedia_summary", "Statue of Liberty"),
    step("Now Marie Curie.", "wikipedia_summary", "Marie Curie"),
    step("When was her first Nobel Prize?", "wikipedia_lookup", "Marie Curie | Nobel"),
    step("Who shared it? Pierre Curie first.", "wikipedia_summary", "Pierre Curie"),
    step("And Henri Becquerel.", "wikipedia_summary", "Henri Becquerel"),
    step("Some background on the prize.", "wikipedia_summary", "Nobel Prize"),
    step("What she discovered: radium.", "wikipedia_summary", "Radium"),
    step("And polonium. Then I need the year the tower was completed and the year of her first Nobel Prize.",
         "wikipedia_summary", "Polonium"),
    step("The tower was finished in 1889 and the prize was in 1903.", "calculator", "1903 - 1889"),
    step("I have every part.", "Final",
         "14 years passed (1889 to 1903); she shared the 1903 Nobel Prize in Physics with Pierre Curie and "
         "Henri Becquerel."),
]
"""),
    ("markdown", """
`retrieval+summary` needs an LLM for its summariser. A scripted stand-in keeps the notes deterministic: for each
new step it notes the source and the years its observation mentions (a real model writes fuller notes).
"""),
    ("code", """
import re


def scripted_notes(messages) -> str:
    if "Current notes:" not in messages[-1].content:  # asked inside the agent's own conversation (compact)
        seen = [m.content for m in messages if m.role == "user" and m.content.startswith("Observation: ")]
        return "Facts and sources:\\n" + "\\n".join(f"- {text[13:110]}" for text in seen)
    current, new_steps = messages[-1].content.split("Current notes:\\n", 1)[1].split("\\n\\nNew steps:\\n", 1)
    notes = [line for line in current.splitlines() if line.startswith("- ")]
    for block in new_steps.split("[step ")[1:]:
        number = block.split("]", 1)[0]
        source = re.search(r"Action Input: (.*)", block).group(1)
        years = sorted(set(re.findall(r"\\b1[5-9]\\d\\d\\b", block)))
        notes.append(f"- step {number}: {source}" + (f" (years: {', '.join(years)})" if years else ""))
    return "Facts and sources:\\n" + "\\n".join(notes)
"""),
    ("code", """
import uuid

from core.chroma import make_client
from memory.strategies import STRATEGIES, make_memory
from memory.tokens import minilm_token_counter

chroma = make_client("memory")
count_tokens = minilm_token_counter().count  # the tokenizer the memory budget uses


def run_with(strategy: str):
    run_id = f"tour-{strategy.replace('+', '-')}-{uuid.uuid4().hex[:8]}"
    memory = make_memory(strategy, run_id, client=chroma, task=LONG_TASK, recent_window=3,
                         summariser_llm=Replay(responder=scripted_notes, name="scripted-notes"))
    llm = Replay(LONG_SCRIPT)
    run = Agent(llm, tools, memory=memory, run_id=run_id).run(LONG_TASK)
    prompt_tokens = [sum(count_tokens(m.content) for m in call) for call in llm.calls]
    return run, memory, llm, prompt_tokens


runs = {strategy: run_with(strategy) for strategy in STRATEGIES}
prompt_tokens = {strategy: runs[strategy][3] for strategy in STRATEGIES}
"""),
    ("markdown", """
Prompt tokens at every step, per strategy (MiniLM tokens; the system prompt with the tool list is the same
part in all of them). `full` grows with every step; the others stay bounded by the window and the
memory's token budget. The second table checks whether the two years the calculator step needs were in
that step's prompt: only what memory kept can be used.
"""),
    ("code", """
print_table(["step", *STRATEGIES], [(i, *(prompt_tokens[s][i] for s in STRATEGIES))
                                    for i in range(len(LONG_SCRIPT))])
print()
CALC_STEP = 10  # the prompt that needs both years
needed = {year: {s: any(year in m.content for m in runs[s][2].calls[CALC_STEP][1:]) for s in STRATEGIES}
          for year in ("1889", "1903")}
print_table(["strategy", "total prompt tokens", "largest prompt", "step-10 prompt has 1889", "... has 1903"],
            [(s, sum(prompt_tokens[s]), max(prompt_tokens[s]), needed["1889"][s], needed["1903"][s])
             for s in STRATEGIES])
"""),
    ("markdown", """
Every step is stored with what memory showed the model when it was produced: here, which earlier steps retrieval
brought back into each prompt, and the summariser's notes at the end of the run.
"""),
    ("code", """
summary_memory = runs["retrieval+summary"][1]
records = summary_memory.store.step_records(summary_memory.run_id)
print_table(["step", "action", "retrieved earlier steps", "context tokens", "summary covers up to"],
            [(r.step.index, r.step.action, r.retrieved, r.context_tokens, r.summary_upto) for r in records])
print("\\nnotes:\\n" + (summary_memory.summary.text if summary_memory.summary else "(none)"))
"""),
    ("markdown", """
## 4. Optional: the embedded local model

With `RUN_LOCAL_MODEL = True` (first cell), this runs the default local model (Qwen2.5-Coder-1.5B, llama.cpp on
the CPU) on a question of its own. The first run assembles the ~1 GB model file into `$PONDER_HOME/models`; each
answer then takes from several seconds to a minute or two on a laptop CPU. `select_llm()` without `backend=`
would pick a remote OpenAI-compatible server when `OPENAI_API_KEY` or `OPENAI_BASE_URL` is set.
"""),
    ("code", """
if RUN_LOCAL_MODEL:
    from agent.llm.select import select_llm

    local_result = Agent(select_llm(backend="local"), tools).run("What is 15 raised to the power of 2?",
                                                                  on_event=show)
else:
    print("Skipped: set RUN_LOCAL_MODEL = True in the first cell to run the local model.")
"""),
]


def cell(kind: str, text: str, number: int) -> dict:
    lines = text.strip("\n").splitlines(keepends=True)
    made = {"cell_type": kind, "id": f"tour-{number:02d}", "metadata": {}, "source": lines}
    if kind == "code":
        made.update(execution_count=None, outputs=[])
    return made


def notebook() -> dict:
    return {
        "cells": [cell(kind, text, number) for number, (kind, text) in enumerate(CELLS)],
        "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
                     "language_info": {"name": "python"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }


def render() -> str:
    return json.dumps(notebook(), indent=1, ensure_ascii=False) + "\n"


if __name__ == "__main__":
    NOTEBOOK.write_text(render(), encoding="utf-8")
    print(f"wrote {NOTEBOOK}")
