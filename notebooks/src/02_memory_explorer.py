# %% [markdown]
# # Memory explorer
#
# A long run, and what Ponder's memory did at each step: what it stored, what it recalled into the prompt and
# what it summarised.
#
# Ponder does not send the full history with every prompt. It stores every step in Chroma. The default strategy,
# `compact`, keeps the prompt growing only at its end, so the model's prefix cache stays useful. When the steps
# pass the memory's token budget, it folds the older steps into notes, and it recalls a folded step when a later
# thought needs it again. See "Memory strategies" in the README for the other strategies.
#
# With the embedded model, this run makes about 20 model calls: expect several minutes on a laptop CPU.

# %% tags=["parameters"]
MODEL = "embedded"  # "embedded": the local model. "replay": the scripted 50-step run of the long-recall bench
QUESTION = ("Look up Thomas Edison, Marie Curie, Isaac Newton, Charles Darwin and Nikola Tesla. Which of them "
            "was born first, and how many years after that was the youngest of them born?")
MAX_STEPS = 20
STRATEGY = "compact"  # compact (the default), retrieval+summary, retrieval, window, mask or full

# %% [markdown]
# ## Set up
#
# The store is an in-memory Chroma, so this notebook writes nothing to disk. `RecordingStore` is a `Store` that
# also keeps the hits of each similarity search, so that we can show how similar each recalled step was.
#
# With `MODEL = "replay"`, a scripted researcher plays the model: the one that `ponder bench --suite long-recall`
# uses. It looks up four people, reads background pages for 40 steps or more, and then answers with the birth
# years that its prompt still shows. It brings its own question and length.

# %%
import uuid

from IPython.display import HTML, display

from ponder.bench import long_recall
from agent.config import AgentConfig
from agent.events import StepRecorded, StepStarted
from agent.llm.select import select_llm
from agent.runs import build_agent
from core.chroma import make_client
from core.html import esc, fragment
from memory.store import Store
from tools.defaults import default_tools
from tools.wiki_select import make_backend

wiki = make_backend("offline")
tools = default_tools(wiki)
if MODEL == "embedded":
    llm = select_llm(backend="local", prompt_cache=True)
elif MODEL == "replay":
    scenario = long_recall.scenarios(wiki.docs, limit=1)[0]
    llm = long_recall.llm_for(scenario)
    QUESTION, MAX_STEPS = scenario.question, scenario.steps + 2
else:
    raise ValueError(f"MODEL must be 'embedded' or 'replay', not {MODEL!r}")


class RecordingStore(Store):
    """A Store that also keeps what each similarity search found, by the step whose prompt asked."""

    def __init__(self, client):
        super().__init__(client)
        self.step, self.searches = 0, {}

    def search_steps(self, run_id, query, n, *, before=None):
        hits = super().search_steps(run_id, query, n, before=before)
        self.searches.setdefault(self.step, []).extend(hits)
        return hits


store = RecordingStore(make_client("memory"))
run_id = f"explorer-{uuid.uuid4().hex[:8]}"
# Built as `ponder ask` builds a run: memory's budget is its share of this model's context window.
agent = build_agent(QUESTION, llm, tools, store=store, strategy=STRATEGY, run_id=run_id,
                    config=AgentConfig(max_steps=MAX_STEPS, max_wall_seconds=3600))
memory = agent.memory
print(f"model: {llm.name} · memory: {STRATEGY}, budget {memory.config.token_budget} tokens · run: {run_id}")
print(f"question: {QUESTION}")

# %% [markdown]
# ## Run
#
# One line per step. A "notes rewritten" line means memory has just folded older steps into its notes.

# %%
notes_upto = None


def watch(event):
    global notes_upto
    if isinstance(event, StepStarted):
        store.step = event.index  # searches from now on are for this step's prompt
    elif isinstance(event, StepRecorded):
        step = event.step
        print(f"step {step.index:>3}  {step.action:<18} {step.action_input[:44]:<44} "
              f"prompt {step.usage.prompt_tokens:>5} tokens")
        summary = memory.summary
        if summary is not None and summary.upto != notes_upto:
            notes_upto = summary.upto
            print(f"          notes rewritten: they now cover steps {summary.first}-{summary.upto}")


result = agent.run(QUESTION, on_event=watch)
display(result)

# %% [markdown]
# ## What was stored, step by step
#
# `store.step_records(run_id)` returns each stored step together with what memory showed in the prompt that
# produced it:
#
# - **memory tokens**: the size of memory's part of that prompt (the notes, the steps and anything recalled);
# - **recalled**: earlier steps brought back into that prompt, each with its similarity to the query (or
#   "named" when the latest thought named the step's page);
# - **notes cover**: the last step that the notes in that prompt summarise.

# %%
records = store.step_records(run_id)
summaries = store.summaries(run_id)


def similarity(step_index, recalled_index):
    hits = [hit.similarity for hit in store.searches.get(step_index, []) if hit.step.index == recalled_index]
    return f"{max(hits):.2f}" if hits else "named"


def table(headers, rows):
    cell = '<td style="overflow-wrap:normal;padding-right:16px">{}</td>'
    head = "".join(f"<th>{esc(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(cell.format(esc(value)) for value in row) + "</tr>" for row in rows)
    return HTML(fragment(f'<table class="run"><tr>{head}</tr>{body}</table>'))


print(f"{len(records)} steps stored, {len(summaries)} versions of the notes")
table(["step", "action", "input", "prompt tokens (evaluated)", "memory tokens", "recalled", "notes cover"],
      [(r.step.index, r.step.action, r.step.action_input[:50],
        f"{r.step.usage.prompt_tokens} ({r.step.usage.evaluated_prompt_tokens})", r.context_tokens,
        ", ".join(f"step {i} ({similarity(r.step.index, i)})" for i in r.retrieved),
        "" if r.summary_upto is None else f"up to step {r.summary_upto}")
       for r in records])

# %% [markdown]
# ## What was summarised
#
# Each time memory folded steps, it wrote a new version of the notes. Every version is stored. Numbers and page
# names that the model's notes left out are carried over word for word, with the step they came from.

# %%
if not summaries:
    print(f"No notes: {STRATEGY} does not summarise, or the run never passed the token budget.")
blocks = []
for number, summary in enumerate(summaries, 1):
    # Notes are written while a step is stored; the next prompt is the first to show them.
    shown = next((r.step.index for r in records if r.summary_upto == summary.upto), records[-1].step.index + 1)
    opened = " open" if number == len(summaries) else ""
    blocks.append(f"<details{opened}><summary>Version {number}, written after step {shown - 1}: covers steps "
                  f"{summary.first}-{summary.upto} ({memory.counter.count(summary.text)} tokens)</summary>"
                  f"<pre>{esc(summary.text)}</pre></details>")
display(HTML(fragment("".join(blocks))))

# %% [markdown]
# ## What was recalled
#
# The prompts that recalled earlier steps: the thought before that prompt (it drives what is recalled), then each
# recalled step, with the start of its observation.

# %%
by_index = {r.step.index: r.step for r in records}
items = []
for r in records:
    if not r.retrieved:
        continue
    before = by_index.get(r.step.index - 1)
    recalled = "".join(f"<li>step {i} ({similarity(r.step.index, i)}): <code>{esc(by_index[i].action)} "
                       f"{esc(by_index[i].action_input)}</code> → {esc(by_index[i].observation[:120])}</li>"
                       for i in r.retrieved if i in by_index)
    items.append(f"<li><b>step {r.step.index}</b>, after the thought “{esc(before.thought if before else '')}”, "
                 f"recalled:<ul>{recalled}</ul></li>")
if items:
    display(HTML(fragment(f"<ul>{''.join(items)}</ul>")))
else:
    print("No prompt recalled an earlier step.")

# %% [markdown]
# ## The next prompt
#
# `memory.context()` is what memory would put in the next prompt: the notes (background), the steps still in the
# conversation, and anything recalled. It shows as HTML too.

# %%
display(memory.context())

# %% [markdown]
# ## Plots
#
# Prompt tokens sent per step and those the model evaluated (a prefix cache serves the rest), time per step,
# and the similarity of what memory recalled. Then memory's part of each prompt against its budget. A dotted
# line marks each point where the notes changed.

# %%
# %matplotlib inline
from itertools import pairwise

from matplotlib.figure import Figure

from ponder.plots import run_figure

similarities = [[hit.similarity for hit in store.searches.get(r.step.index, []) if hit.step.index in r.retrieved]
                for r in records]
display(run_figure(result, similarities=similarities))

fig = Figure(figsize=(8, 3.5), layout="constrained")
ax = fig.add_subplot()
ax.plot([r.step.index for r in records], [r.context_tokens or 0 for r in records], marker=".",
        label="memory's part of the prompt")
ax.axhline(memory.config.token_budget, color="#cf222e", linestyle="--", label="token budget")
for previous, r in pairwise(records):
    if r.summary_upto != previous.summary_upto:
        ax.axvline(r.step.index, color="#8c959f", linestyle=":")
ax.set(xlabel="step", ylabel="tokens", title="Memory's tokens per prompt")
ax.legend(fontsize=8)
display(fig)
