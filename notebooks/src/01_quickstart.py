# %% [markdown]
# # Ponder quickstart
#
# Ask Ponder a question on your own machine, then read its answer, the steps that led to it and the run's trace.
# Everything here runs offline: the embedded model (Qwen2.5-Coder-1.5B through llama.cpp, on the CPU), an
# offline Wikipedia corpus and a calculator. You need no API key.
#
# The first time, Ponder assembles the model file (about 1 GB) into `$PONDER_HOME/models`. After that, an answer
# takes from a few seconds to a minute or two, depending on your CPU.

# %% tags=["parameters"]
MODEL = "embedded"  # "embedded": the local model. "replay": a scripted model for the default QUESTION (no LLM)
QUESTION = "What is 15 raised to the power of 2?"
MAX_STEPS = 8

# %% [markdown]
# ## Set up the model and the tools
#
# `select_llm(backend="local")` loads the embedded model. `default_tools` gives the agent a calculator, date
# tools and Wikipedia over the offline corpus. The scripted model (`Replay`) stands in for the LLM when
# `MODEL = "replay"`. It calls the real calculator and answers from the result.

# %%
from IPython.display import HTML, display

from agent.config import AgentConfig
from agent.events import ActionEvent, ObservationEvent
from agent.llm.replay import Replay
from agent.llm.select import select_llm
from agent.loop import Agent
from core.paths import ponder_home
from tools.defaults import default_tools
from tools.wiki_select import make_backend


def scripted_model(messages):
    """Plays the model for the default question: call the calculator, then answer from what it returned."""
    last = messages[-1].content
    if last.startswith("Observation: "):
        result = last[len("Observation: "):].strip()
        return ("Thought: The calculator answered.\nAction: Final\n"
                f"Action Input: 15 raised to the power of 2 is {result}.")
    return "Thought: This is arithmetic, so I use the calculator.\nAction: calculator\nAction Input: 15**2"


if MODEL == "embedded":
    llm = select_llm(backend="local", prompt_cache=True)  # the prompt cache makes later runs start faster
elif MODEL == "replay":
    llm = Replay(responder=scripted_model, name="scripted")
else:
    raise ValueError(f"MODEL must be 'embedded' or 'replay', not {MODEL!r}")

tools = default_tools(make_backend("offline"))
config = AgentConfig(max_steps=MAX_STEPS, trace_dir=ponder_home() / "runs")  # where `ponder trace` looks
agent = Agent(llm, tools, config=config)
print(f"model: {llm.name}")
print(f"tools: {', '.join(tools.names)}")

# %% [markdown]
# ## Ask
#
# At every step the model writes a *Thought*, an *Action* (a tool, or `Final`) and an *Action Input*. Ponder
# runs the tool and feeds its *Observation* back to the model, until the model gives its final answer. The
# steps print as they happen.

# %%
def show(event):
    if isinstance(event, ActionEvent):
        print(f"[{event.index}] {event.thought}\n    -> {event.action}: {event.action_input}")
    elif isinstance(event, ObservationEvent):
        print(f"    <- {event.observation[:200]}")


result = agent.run(QUESTION, on_event=show)

# %% [markdown]
# ## The result
#
# A `RunResult` shows as a table in Jupyter. It holds the answer, why the run stopped, the tokens used and the
# time taken. Click "steps" to open the steps.

# %%
display(result)

# %% [markdown]
# It is a pydantic model, so you can read each field, or save the whole run with `result.model_dump_json()`.
# Each step keeps the model's raw output, how it was parsed, and its tokens and timings.

# %%
print("answer:     ", result.answer)
print("stopped by: ", result.stop_reason.value)
print("tokens:     ", result.usage.prompt_tokens, "prompt +", result.usage.completion_tokens, "completion")
for step in result.steps:
    print(f"step {step.index}: {step.action}({step.action_input!r}) parsed {step.parse_status.value}, "
          f"LLM {step.timings.llm_seconds:.2f} s, tool {step.timings.tool_seconds:.3f} s")

# %% [markdown]
# ## The trace
#
# Every run writes a trace, one JSON event a line: every prompt sent, every raw model output, each tool call and
# each recorded step. In a terminal, `ponder trace RUN_ID` prints it, and `ponder trace RUN_ID --html FILE`
# writes it as a web page.

# %%
from collections import Counter

from agent.trace import read_trace

events = list(read_trace(result.trace_path))
print(result.trace_path)
print(dict(Counter(event["type"] for event in events)))

# %% [markdown]
# The last prompt the model saw: the system prompt (tools, rules and two worked examples), the question, then
# each earlier step as the model's own turn with the observation as the reply.

# %%
last_prompt = [event for event in events if event["type"] == "prompt"][-1]
for message in last_prompt["messages"]:
    text = message["content"]
    shown = text if len(text) <= 400 else text[:400] + f" ... ({len(text)} characters)"
    print(f"[{message['role']}]\n{shown}\n")

# %% [markdown]
# The same page that `ponder trace --html` writes, shown below in a sandboxed frame. It has charts of tokens
# and time per step and a timeline of the steps.

# %%
import html

from ponder.html import render_trace_html

page = render_trace_html(events)
display(HTML(f'<div><iframe sandbox="allow-scripts" srcdoc="{html.escape(page)}" '
             'style="width:100%;height:640px;border:1px solid #d0d7de"></iframe></div>'))

# %% [markdown]
# ## Plots
#
# `ponder.plots` draws a run with matplotlib: the prompt tokens per step (sent, and evaluated by the model
# after its prefix cache), and the seconds each step spent in the LLM, the tool and memory.

# %%
# %matplotlib inline
from ponder.plots import run_figure

display(run_figure(result))

# %% [markdown]
# ## Next
#
# - Change `QUESTION` in the parameters cell and run the notebook again. For example, try
#   "What is Python, and what is 15 raised to the power of 2?", which looks up a page on Wikipedia too.
# - `02_memory_explorer`: a long run, and what memory stored, recalled and summarised at each step.
# - `03_step_through`: pause a run, replace an action and compare the outcomes.
# - `04_benchmark`: compare memory strategies with `ponder bench`.
