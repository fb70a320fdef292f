# %% [markdown]
# # A small benchmark
#
# `ponder bench` runs every question of a suite under every memory strategy you name, through the real loop,
# tools and memory, and writes one record per run, a report and plots. This notebook runs a small bench and
# shows what it wrote.
#
# Suites:
#
# - `offline-multihop`: 48 questions with 2 to 8 lookups each, all answerable from the offline corpus. The
#   defaults below take the first question of each of its 4 kinds and answer them with the embedded model.
#   That makes 8 runs; on a 2-core CPU, expect 10 to 15 minutes.
# - `long-recall`: scripted runs of 50 to 150 steps with no LLM. Do the facts found in the first steps stay
#   reachable to the end, and at what prompt cost? It takes seconds a run.
# - `fanoutqa-dev-offline`: the 8 FanOutQA questions whose evidence pages are all in the offline corpus.

# %% tags=["parameters"]
SUITE = "offline-multihop"   # offline-multihop, long-recall (scripted, no LLM) or fanoutqa-dev-offline
STRATEGIES = "full,compact"  # the memory strategies to compare, comma-separated
PER_KIND = 1                 # only the first N questions of each kind (None: every question)
LIMIT = None                 # at most this many questions (None: no limit)
MAX_STEPS = 10               # step limit per run

# %% [markdown]
# ## Run `ponder bench`
#
# The bench runs in its own process, exactly as in a terminal, and writes its results into a new directory under
# `$PONDER_HOME/bench`. A line prints as each run finishes. If the bench is interrupted,
# `ponder bench --resume DIR` finishes it without running anything twice.

# %%
import os
import subprocess
import sys
import time

from ponder.bench.runner import read_records
from core.paths import ponder_home

out = ponder_home() / "bench" / f"notebook-{SUITE}-{time.strftime('%Y%m%d-%H%M%S')}"
command = ["ponder", "bench", "--suite", SUITE, "--strategies", STRATEGIES, "--max-steps", str(MAX_STEPS),
           "--out", str(out)]
if PER_KIND:
    command += ["--per-kind", str(PER_KIND)]
if LIMIT:
    command += ["--limit", str(LIMIT)]
if SUITE != "long-recall":
    command += ["--backend", "local"]  # the embedded model, even when an OpenAI-compatible server is configured
print("$ " + " ".join(command))

# The same command through this kernel's Python, so it works whether or not `ponder` is on the PATH. Jupyter asks
# programs for colours and live redraws (FORCE_COLOR): the bench's log gets plain lines instead.
env = {name: value for name, value in os.environ.items() if name not in ("FORCE_COLOR", "CLICOLOR_FORCE")}
out.mkdir(parents=True)
with open(out / "bench.log", "w") as log:
    process = subprocess.Popen([sys.executable, "-m", "ponder.cli", *command[1:]], stdout=subprocess.DEVNULL,
                               stderr=log, env=env)
    shown = 0
    while True:
        finished = process.poll() is not None  # checked before reading, so the last records are not missed
        for r in read_records(out)[shown:]:
            right = r.correct and not r.forced_answer
            print(f"  {r.question_id} · {r.strategy}: {'correct' if right else 'not correct'}, {r.steps} steps, "
                  f"{r.seconds:.0f} s")
            shown += 1
        if finished:
            break
        time.sleep(2)
print((out / "bench.log").read_text(encoding="utf-8"))
if process.returncode != 0:
    raise RuntimeError(f"ponder bench exited with code {process.returncode}; to retry the runs that failed: "
                       f"ponder bench --resume {out}")

# %% [markdown]
# ## The report
#
# `report.md`: one row per strategy (accuracy, steps, prompt tokens sent and evaluated, seconds split into
# LLM, tool and memory, how runs stopped), the prompt size at a few step numbers, and each question's outcome.
# "Evaluated" tokens are those the model had to process; its prefix cache served the rest.

# %%
from IPython.display import Image, Markdown, display

display(Markdown((out / "report.md").read_text(encoding="utf-8")))

# %% [markdown]
# ## The plots
#
# The bench draws three plots: prompt tokens per step, accuracy against the tokens evaluated, and the seconds
# per step split into LLM, tool and memory.

# %%
import json

summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
for name in summary["plots"]:
    print(name)
    display(Image(filename=str(out / name)))

# %% [markdown]
# ## Every run
#
# `results.jsonl` holds one record per run. `ponder.bench.runner.read_records` reads it back, so you can
# analyse the runs yourself. Here: each run's outcome, then its prompt tokens evaluated so far at each step,
# which is what the run has cost up to that step.

# %%
from itertools import accumulate

records = read_records(out)
print(f"{'question':<24} {'strategy':<18} {'correct':<8} {'steps':>5} {'stop':<16} {'evaluated':>9}  answer")
for r in records:
    right = r.correct and not r.forced_answer   # the verdict, on a Final answer (a forced one never counts)
    print(f"{r.question_id:<24} {r.strategy:<18} {'yes' if right else 'no':<8} {r.steps:>5} {r.stop_reason:<16} "
          f"{r.evaluated_prompt_tokens:>9}  {(r.answer or '')[:60]}")

# %%
# %matplotlib inline
from matplotlib.figure import Figure

fig = Figure(figsize=(8, 4), layout="constrained")
ax = fig.add_subplot()
colors = {}
for r in records:
    line, = ax.plot(list(accumulate(r.step_evaluated_tokens)), color=colors.get(r.strategy),
                    label=None if r.strategy in colors else r.strategy)
    colors.setdefault(r.strategy, line.get_color())
ax.set(xlabel="step", ylabel="prompt tokens evaluated so far", title="Cost of each run, step by step")
ax.legend(fontsize=8)
display(fig)

# %% [markdown]
# Each run's trace is in the `runs` folder of the output directory. To read one as a web page:
# `ponder trace DIR/runs/RUN_ID --html run.html`. The run ids are in `results.jsonl`.

# %%
print(out)
for r in records:
    print(f"  {r.strategy:<18} {r.question_id:<24} runs/{r.run_id}")
