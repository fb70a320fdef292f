# %% [markdown]
# # Research with sub-agents
#
# How `ponder ask` answers a question about many things by default: a lead agent splits the question, hands each
# sub-question to a helper (a sub-agent with its own context, memory and run id), and builds the answer from the
# facts the helpers found. A fact enters the run's facts ledger only when code finds its quote on the page.
#
# This notebook runs one such question and shows the split, each helper's own run, the ledger and the lead's
# computation. With the embedded model, expect a few minutes on a laptop CPU (each helper makes two or three
# model calls).

# %% tags=["parameters"]
MODEL = "embedded"  # "embedded": the local model. "replay": a scripted lead and helpers (what CI runs)
QUESTION = ("Which is the longest of these rivers: the Godavari River, the Krishna River, the Yamuna and the "
            "Loire?")

# %% [markdown]
# ## Set up
#
# The store is an in-memory Chroma, so the notebook writes nothing to disk. The run is built as `ponder ask`
# builds it, with `research=True` (its default there).
#
# With `MODEL = "replay"`, a script plays the model: it splits the question by naming one river only (code asks
# the same question of every river the question lists), and each helper looks its river up and answers.

# %%
import uuid

from IPython.display import HTML, display

from agent.config import AgentConfig
from agent.llm.replay import Replay
from agent.llm.select import select_llm
from agent.runs import build_agent
from core.chroma import make_client
from core.html import esc, fragment
from memory.ledger import table as ledger_table
from memory.store import Store
from tools.defaults import default_tools
from tools.wiki_select import make_backend


def step(thought, action, action_input):
    return f"Thought: {thought}\nAction: {action}\nAction Input: {action_input}"


tools = default_tools(make_backend("offline"))
if MODEL == "embedded":
    llm = select_llm(backend="local", prompt_cache=True)
elif MODEL == "replay":
    lengths = {"Godavari River": "1,465", "Krishna River": "1,400", "Yamuna": "1,376", "Loire": "1,006"}
    helpers = [reply for river, length in lengths.items()
               for reply in (step("I read the page.", "wikipedia_summary", river),
                             step("It says so.", "Final", f"The {river} is {length} kilometres long."))]
    llm = Replay(["1. How long is the Godavari River?\nThen: max\n", *helpers])
else:
    raise ValueError(f"MODEL must be 'embedded' or 'replay', not {MODEL!r}")

store = Store(make_client("memory"))
run_id = f"research-{uuid.uuid4().hex[:8]}"
agent = build_agent(QUESTION, llm, tools, store=store, strategy="compact", run_id=run_id,
                    config=AgentConfig(research=True, max_wall_seconds=3600))
print(f"model: {llm.name} · run: {run_id}")

# %% [markdown]
# ## Run
#
# One line per step of the lead. A research step's observation is the helper's answer with its source.

# %%
from agent.events import StepRecorded


def watch(event):
    if isinstance(event, StepRecorded):
        s = event.step
        helper = f"  (helper run {s.findings.subrun})" if s.findings and s.findings.subrun else ""
        print(f"step {s.index:>2}  {s.action:<10} {s.action_input[:60]}{helper}")


result = agent.run(QUESTION, on_event=watch)
print(f"\nanswer: {result.answer}")

# %% [markdown]
# ## The split
#
# The sub-questions the lead handed out, and what it computes from their answers. It is kept with the run, so a
# resumed run goes on with the same split.

# %%
print(agent.memory.annotation("split"))

# %% [markdown]
# ## Each helper's own run
#
# A helper is a run of its own: stored, traced, resumable with `ponder resume <its id>`, linked to the lead's
# step. Here are its steps, read back from the store.

# %%
for s in result.steps:
    if s.findings is None or not s.findings.subrun:
        continue
    child = s.findings.subrun
    print(f"lead step {s.index}: {s.action_input}\n  helper {child} (parent {store.run_info(child).parent})")
    for record in store.step_records(child):
        c = record.step
        print(f"    step {c.index}  {c.action:<18} {c.action_input[:40]:<40} -> {c.observation[:60]!r}")

# %% [markdown]
# ## The facts ledger
#
# Each fact with the page and the sentence that states it; the lead's prompt shows this table, and its Final
# answer is checked against it. `result.facts` is the same list, as data.

# %%
print(ledger_table(result.facts))
rows = "".join(f"<tr><td>F{n}</td><td>{esc(f.subject)}</td><td>{esc(f.value)} {esc(f.unit)}</td>"
               f"<td>{esc(f.page)}</td><td>“{esc(f.quote[:120])}”</td></tr>"
               for n, f in enumerate(result.facts, 1))
display(HTML(fragment(f'<table class="run"><tr><th></th><th>subject</th><th>value</th><th>page</th>'
                      f"<th>quote</th></tr>{rows}</table>")))

# %% [markdown]
# ## The computation and the answer
#
# The lead's calculator step was planned by code from the question's words ("the longest": the largest value);
# its result names the fact it equals. Code then writes the answer from that result: a question whose every part
# code can compute is answered without another model call (a 1.5B lead, shown the result, still answered with
# the table's largest number once). Any other question is answered by the lead model, from the same table.

# %%
for s in result.steps:
    if s.action == "calculator":
        print(f"step {s.index}: {s.thought}\n  calculator {s.action_input} -> {s.observation}")
display(result)
