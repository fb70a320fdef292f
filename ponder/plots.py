"""Per-step plots of runs, as matplotlib Figures (no pyplot: no global state, no display; `fig.savefig(path)`
writes one, and a notebook shows a returned one once its inline backend is on, e.g. `%matplotlib inline`).

    prompt_tokens_figure(result)                          # or {"compact": r1, "full": r2}, or [("a", r1), ...]
    step_seconds_figure(result)                           # LLM / tool / memory stacked
    retrieval_similarity_figure([[0.61, 0.4], [], [0.7]]) # per step: similarities of what memory recalled
    run_figure(result, similarities=None)                 # the three above in one Figure
"""
from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from matplotlib.axes import Axes
from matplotlib.figure import Figure

from core.schema import RunResult

Runs = RunResult | Mapping[str, RunResult] | Sequence[tuple[str, RunResult]]
Similarities = Sequence[float | Sequence[float] | None]
PART_COLORS = {"LLM": "#8250df", "tool": "#2da44e", "memory": "#d4a72c"}


def _labelled(runs: Runs) -> list[tuple[str, RunResult]]:
    if isinstance(runs, RunResult):
        return [(runs.run_id or "run", runs)]
    if isinstance(runs, Mapping):
        return list(runs.items())
    return [(str(label), result) for label, result in runs]


def plot_prompt_tokens(ax: Axes, runs: Runs) -> None:
    """Two lines a run: prompt tokens sent (solid) and evaluated by the backend (dashed, what the prefix cache
    did not serve)."""
    for label, result in _labelled(runs):
        xs = [step.index for step in result.steps]
        line, = ax.plot(xs, [step.usage.prompt_tokens for step in result.steps], marker=".", label=f"{label} sent")
        ax.plot(xs, [step.usage.evaluated_prompt_tokens for step in result.steps], linestyle="--",
                color=line.get_color(), label=f"{label} evaluated")
    ax.set(xlabel="step", ylabel="prompt tokens", title="Prompt tokens per step")
    ax.legend(fontsize=8)


def plot_step_seconds(ax: Axes, result: RunResult) -> None:
    """One stacked bar a step: LLM, tool and memory seconds."""
    xs = [step.index for step in result.steps]
    parts = {"LLM": [s.timings.llm_seconds for s in result.steps],
             "tool": [s.timings.tool_seconds for s in result.steps],
             "memory": [s.timings.memory_seconds for s in result.steps]}
    bottom = [0.0] * len(xs)
    for name, values in parts.items():
        ax.bar(xs, values, bottom=bottom, label=name, color=PART_COLORS[name])
        bottom = [b + v for b, v in zip(bottom, values)]
    ax.set(xlabel="step", ylabel="seconds", title="Time per step")
    ax.legend(fontsize=8)


def plot_retrieval_similarity(ax: Axes, similarities: Similarities) -> None:
    """The best similarity per step as a line (a gap where nothing was recalled), every recalled step's as dots."""
    best, xs_all, ys_all = [], [], []
    for index, value in enumerate(similarities):
        if value is None:
            values = []
        else:
            values = [float(value)] if isinstance(value, (int, float)) else [float(v) for v in value]
        best.append(max(values) if values else math.nan)
        xs_all.extend([index] * len(values))
        ys_all.extend(values)
    ax.plot(range(len(best)), best, marker="o", label="best")
    if xs_all:
        ax.scatter(xs_all, ys_all, s=12, alpha=0.5, label="each recalled step")
    ax.set(xlabel="step", ylabel="similarity", title="Retrieval similarity per step")
    if all(0 <= y <= 1 for y in ys_all):
        ax.set_ylim(0, 1.02)  # cosine similarities: the same scale across runs
    ax.legend(fontsize=8)


def prompt_tokens_figure(runs: Runs) -> Figure:
    fig = Figure(figsize=(8, 4), layout="constrained")
    plot_prompt_tokens(fig.add_subplot(), runs)
    return fig


def step_seconds_figure(result: RunResult) -> Figure:
    fig = Figure(figsize=(8, 4), layout="constrained")
    plot_step_seconds(fig.add_subplot(), result)
    return fig


def retrieval_similarity_figure(similarities: Similarities) -> Figure:
    fig = Figure(figsize=(8, 3.5), layout="constrained")
    plot_retrieval_similarity(fig.add_subplot(), similarities)
    return fig


def run_figure(result: RunResult, similarities: Similarities | None = None) -> Figure:
    """Tokens, time and (if given) retrieval similarity of one run, stacked on a shared step axis."""
    rows = 3 if similarities is not None else 2
    fig = Figure(figsize=(8, 3 * rows), layout="constrained")
    axes = fig.subplots(rows, 1, sharex=True, squeeze=False)[:, 0]
    plot_prompt_tokens(axes[0], result)
    plot_step_seconds(axes[1], result)
    if similarities is not None:
        plot_retrieval_similarity(axes[2], similarities)
    return fig
