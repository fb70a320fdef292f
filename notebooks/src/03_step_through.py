# %% [markdown]
# # Step through a run
#
# Run the agent one step at a time: see the prompt before it is sent, stop at a breakpoint when the model
# proposes an action, put in an action of your own, and compare the outcome with a run you left alone.
#
# `agent.start(question)` returns a `Run` that waits before each step:
#
# | call | what it does |
# |---|---|
# | `run.next_prompt` | the messages the next model call will get |
# | `run.propose()` | calls the model for the next step and returns its action; the tool has not run yet |
# | `run.inject_action(action, input)` | uses this action for the pending step instead of the model's |
# | `run.inject_observation(text)` | uses this text as the pending step's tool result; the tool does not run |
# | `run.step()` | finishes the pending step and returns it |
# | `run.run_until(step=, tool=, when=)` | runs to a breakpoint: a step, a proposed tool, or a test on the action |
# | `run.finish()` / `run.stop()` | runs to the end / stops here (`ponder resume` continues a stored run) |
#
# The same controls are in the terminal: `ponder ask --step "question"`.

# %% tags=["parameters"]
MODEL = "embedded"  # "embedded": the local model. "replay": a scripted model for the default QUESTION (no LLM)
QUESTION = "What is 17 times 23?"
BREAK_AT_TOOL = "calculator"               # pause when the model proposes this tool...
INJECTED_ACTION = ("calculator", "17*24")  # ...and run this action instead
MAX_STEPS = 6

# %% [markdown]
# ## Set up
#
# The scripted model (`MODEL = "replay"`) calls the calculator with `17*23` and then answers with whatever
# the calculator returned, as a model that trusts its tools would.

# %%
from IPython.display import display

from agent.config import AgentConfig
from agent.llm.replay import Replay
from agent.llm.select import select_llm
from agent.loop import Agent
from tools.defaults import default_tools
from tools.wiki_select import make_backend


def scripted_model(messages):
    """Plays the model for the default question: call the calculator, then answer from what it returned."""
    last = messages[-1].content
    if last.startswith("Observation: "):
        result = last[len("Observation: "):].strip()
        return f"Thought: The calculator answered.\nAction: Final\nAction Input: 17 times 23 is {result}."
    return "Thought: This is arithmetic, so I use the calculator.\nAction: calculator\nAction Input: 17*23"


if MODEL == "embedded":
    llm = select_llm(backend="local", prompt_cache=True)
elif MODEL == "replay":
    llm = Replay(responder=scripted_model, name="scripted")
else:
    raise ValueError(f"MODEL must be 'embedded' or 'replay', not {MODEL!r}")

tools = default_tools(make_backend("offline"))
config = AgentConfig(max_steps=MAX_STEPS)


def describe(result):
    """One line a step, then the answer."""
    for step in result.steps:
        mark = f"  [injected: {', '.join(step.injected)}]" if step.injected else ""
        if step.is_final:
            print(f"  step {step.index}: Final answer{mark}")
        else:
            print(f"  step {step.index}: {step.action}({step.action_input!r}) -> {step.observation[:80]!r}{mark}")
    print(f"  answer: {result.answer} ({result.stop_reason.value})")

# %% [markdown]
# ## 1. The run left alone
#
# First, the run as the model makes it, for comparison.

# %%
baseline = Agent(llm, tools, config=config).run(QUESTION)
describe(baseline)

# %% [markdown]
# ## 2. The same question, one step at a time
#
# `agent.start` stops before the first model call. `run.next_prompt` is exactly what the model will see: the
# system prompt (tools, rules, examples), then the question.

# %%
run = Agent(llm, tools, config=config).start(QUESTION)
print(f"pending step: {run.index}")
for message in run.next_prompt:
    print(f"[{message.role}] {message.content[:300]}{' ...' if len(message.content) > 300 else ''}\n")

# %% [markdown]
# ### Breakpoint
#
# `run_until(tool=...)` lets the model work until it proposes a call of that tool, and stops there before the
# tool runs. It returns the proposed action, or `None` if the run ended first.

# %%
proposed = run.run_until(tool=BREAK_AT_TOOL)
if proposed is None:
    print(f"The model never proposed {BREAK_AT_TOOL}; the run ended:")
    describe(run.result)
else:
    print(f"breakpoint: the model proposes {proposed.action}({proposed.action_input!r}) at step {proposed.index}")
    print(f"its thought: {proposed.thought}")

# %% [markdown]
# ### Inject an action
#
# Replace the proposed action with `INJECTED_ACTION` and finish that step. The tool runs on your input, the
# observation goes back to the model as usual, and the step is marked as injected, in the trace and in memory.
# The model's own proposal stays on record in the step's `raw` output.

# %%
if not run.done:
    run.inject_action(*INJECTED_ACTION, thought="What if the calculator were asked this instead?")
    injected_step = run.step()
    display(injected_step)

# %% [markdown]
# Then let the run go on to its end.

# %%
stepped = run.finish() if not run.done else run.result
describe(stepped)
display(stepped)

# %% [markdown]
# ## 3. Compare the outcomes
#
# Side by side: the actions of each run (`*` marks the injected one), and the answers.

# %%
from itertools import zip_longest

print(f"{'left alone':<44} | with the injected action")
for left, right in zip_longest(baseline.steps, stepped.steps):
    cells = [f"{s.action}({s.action_input[:30]!r}){' *' if s.injected else ''}" if s else "" for s in (left, right)]
    print(f"{cells[0]:<44} | {cells[1]}")
print(f"\nanswer left alone:          {baseline.answer}")
print(f"answer with the injection:  {stepped.answer}")
if baseline.answer == stepped.answer:
    print("The injected action did not change the answer.")
else:
    print("The injected action changed the answer.")

# %% [markdown]
# Other breakpoints: `run.run_until(step=3)` stops before step 3, and
# `run.run_until(when=lambda action: "Paris" in action.action_input)` stops at any action you can test. To
# write a tool's result yourself, call `run.inject_observation("...")` before `run.step()`.
