"""Figures from bench records: per-strategy aggregates, the markdown report and the plots."""
from __future__ import annotations

import statistics
from collections import Counter
from pathlib import Path
from typing import Sequence

from pydantic import BaseModel

from agent.bench.runner import RunRecord

GROWTH_AT = (0, 4, 9, 19, 39, 79, 119, 149)  # step indices at which prompt growth is reported


class StrategyFigures(BaseModel):
    strategy: str
    runs: int
    strict_accuracy: float
    loose_accuracy: float
    mean_steps: float
    prompt_tokens_per_step: float      # mean over all steps of all runs
    max_prompt_tokens_per_step: int
    evaluated_tokens_per_step: float
    prompt_tokens: int                 # totals over all runs and calls
    evaluated_prompt_tokens: int
    completion_tokens: int
    seconds_per_question: float
    llm_seconds_per_step: float
    tool_seconds_per_step: float
    memory_seconds_per_step: float
    other_seconds_per_step: float
    stops: dict[str, int]
    context_overflows: int
    parse_errors: int
    evidence_recall: float | None
    evidence_in_final_prompt: float | None
    growth: dict[int, float]           # step index -> mean prompt tokens sent at that step
    cache_reported: bool


def _mean(values) -> float:
    values = list(values)
    return statistics.fmean(values) if values else 0.0


def _mean_or_none(values) -> float | None:
    values = [v for v in values if v is not None]
    return statistics.fmean(values) if values else None


def figures(records: Sequence[RunRecord], strategies: Sequence[str]) -> list[StrategyFigures]:
    rows = []
    for strategy in strategies:
        runs = [r for r in records if r.strategy == strategy]
        if not runs:
            continue
        steps = max(sum(r.steps for r in runs), 1)
        per_step = [t for r in runs for t in r.step_prompt_tokens]
        growth = {}
        for index in GROWTH_AT:
            at = [r.step_prompt_tokens[index] for r in runs if len(r.step_prompt_tokens) > index]
            if at:
                growth[index] = _mean(at)
        rows.append(StrategyFigures(
            strategy=strategy, runs=len(runs), strict_accuracy=_mean(r.strict for r in runs),
            loose_accuracy=_mean(r.loose for r in runs), mean_steps=_mean(r.steps for r in runs),
            prompt_tokens_per_step=_mean(per_step), max_prompt_tokens_per_step=max(per_step, default=0),
            evaluated_tokens_per_step=_mean(t for r in runs for t in r.step_evaluated_tokens),
            prompt_tokens=sum(r.prompt_tokens for r in runs),
            evaluated_prompt_tokens=sum(r.evaluated_prompt_tokens for r in runs),
            completion_tokens=sum(r.completion_tokens for r in runs),
            seconds_per_question=_mean(r.seconds for r in runs),
            llm_seconds_per_step=sum(r.llm_seconds for r in runs) / steps,
            tool_seconds_per_step=sum(r.tool_seconds for r in runs) / steps,
            memory_seconds_per_step=sum(r.memory_seconds for r in runs) / steps,
            other_seconds_per_step=sum(r.other_seconds for r in runs) / steps,
            stops=dict(Counter(r.stop_reason for r in runs)), context_overflows=sum(r.context_overflow for r in runs),
            parse_errors=sum(r.parse_errors for r in runs),
            evidence_recall=_mean_or_none(r.evidence_recall for r in runs),
            evidence_in_final_prompt=_mean_or_none(r.evidence_in_final_prompt for r in runs),
            growth=growth, cache_reported=any(r.cache_reported for r in runs)))
    return rows


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{value:.0%}"


def markdown(rows: Sequence[StrategyFigures], records: Sequence[RunRecord], header: dict) -> str:
    lines = [f"# ponder bench: {header.get('suite', '?')}", ""]
    shown = {key: value for key, value in header.items() if key not in ("suite", "suite_name", "questions_file")}
    if isinstance(shown.get("machine"), dict):
        m = shown["machine"]
        shown["machine"] = f"{m.get('cpus')} CPUs, {m.get('processor')}, Python {m.get('python')}"
    lines += [f"- {key}: {value}" for key, value in shown.items()]
    lines += ["", "## Strategies", "",
              "| strategy | runs | strict | loose | steps | prompt tok/step (mean / max) | evaluated tok/step | "
              "total sent | total evaluated | s/question | s/step LLM / tool / memory / other | stops | "
              "overflows | evidence looked up / in final prompt |",
              "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        stops = ", ".join(f"{k} {v}" for k, v in sorted(r.stops.items()))
        evaluated = f"{r.evaluated_tokens_per_step:,.0f}" + ("" if r.cache_reported else " (no cache info)")
        lines.append(
            f"| {r.strategy} | {r.runs} | {r.strict_accuracy:.0%} | {r.loose_accuracy:.0%} | {r.mean_steps:.1f} | "
            f"{r.prompt_tokens_per_step:,.0f} / {r.max_prompt_tokens_per_step:,} | {evaluated} | "
            f"{r.prompt_tokens:,} | {r.evaluated_prompt_tokens:,} | {r.seconds_per_question:.1f} | "
            f"{r.llm_seconds_per_step:.2f} / {r.tool_seconds_per_step:.2f} / {r.memory_seconds_per_step:.3f} / "
            f"{r.other_seconds_per_step:.3f} | {stops} | {r.context_overflows} | "
            f"{_pct(r.evidence_recall)} / {_pct(r.evidence_in_final_prompt)} |")
    indices = sorted({i for r in rows for i in r.growth})
    if indices:
        lines += ["", "## Prompt tokens sent at step", "",
                  "| strategy | " + " | ".join(str(i) for i in indices) + " |",
                  "|---|" + "---|" * len(indices)]
        for r in rows:
            lines.append(f"| {r.strategy} | " + " | ".join(f"{r.growth[i]:,.0f}" if i in r.growth else "–"
                                                          for i in indices) + " |")
    strategies = [r.strategy for r in rows]
    kinds = sorted({record.kind for record in records if record.kind})
    if len(kinds) > 1:
        lines += ["", "## Strict accuracy by kind", "", "| kind | " + " | ".join(strategies) + " |",
                  "|---|" + "---|" * len(strategies)]
        for kind in kinds:
            cells = []
            for strategy in strategies:
                runs = [r for r in records if r.kind == kind and r.strategy == strategy]
                cells.append(f"{sum(r.strict for r in runs)}/{len(runs)}" if runs else "–")
            lines.append(f"| {kind} | " + " | ".join(cells) + " |")
    by_question: dict[str, dict[str, RunRecord]] = {}
    for record in records:
        by_question.setdefault(record.question_id, {})[record.strategy] = record
    lines += ["", "## Questions", "", "| question | kind | " + " | ".join(strategies) + " |",
              "|---|---|" + "---|" * len(strategies)]
    for qid, runs in by_question.items():
        kind = next(iter(runs.values())).kind
        cells = []
        for strategy in strategies:
            run = runs.get(strategy)
            tries = f", {run.attempts} attempts" if run is not None and run.attempts > 1 else ""
            cells.append("–" if run is None else f"{'✓' if run.strict else f'{run.loose:.0%}'} "
                                                 f"({run.steps} st, {run.stop_reason}{tries})")
        lines.append(f"| {qid} | {kind} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def plots(rows: Sequence[StrategyFigures], records: Sequence[RunRecord], out_dir: Path) -> list[Path]:
    """Three PNGs: prompt tokens per step index, accuracy against evaluated tokens, seconds per step by part."""
    import matplotlib
    matplotlib.use("Agg")  # files only, no display
    import matplotlib.pyplot as plt

    out_dir = Path(out_dir)
    written = []

    fig, ax = plt.subplots(figsize=(8, 4.5))
    for row in rows:
        runs = [r for r in records if r.strategy == row.strategy]
        longest = max((len(r.step_prompt_tokens) for r in runs), default=0)
        xs, sent, evaluated = [], [], []
        for i in range(longest):
            at = [r for r in runs if len(r.step_prompt_tokens) > i]
            xs.append(i)
            sent.append(_mean(r.step_prompt_tokens[i] for r in at))
            evaluated.append(_mean(r.step_evaluated_tokens[i] for r in at))
        line, = ax.plot(xs, sent, label=f"{row.strategy} sent")
        ax.plot(xs, evaluated, linestyle="--", color=line.get_color(), label=f"{row.strategy} evaluated")
    ax.set(xlabel="step index", ylabel="prompt tokens (mean over questions)", title="Prompt tokens per step")
    ax.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    written.append(out_dir / "prompt_tokens_per_step.png")
    fig.savefig(written[-1], dpi=110)
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(6, 4.5))
    for row in rows:
        tokens = row.evaluated_prompt_tokens / max(row.runs, 1)
        ax.scatter([tokens], [row.loose_accuracy], s=60)
        ax.annotate(f"{row.strategy} (strict {row.strict_accuracy:.0%})", (tokens, row.loose_accuracy),
                    textcoords="offset points", xytext=(6, 4), fontsize=8)
    ax.set(xlabel="prompt tokens evaluated per question (mean)", ylabel="loose accuracy", ylim=(-0.05, 1.05),
           title="Accuracy against cost")
    fig.tight_layout()
    written.append(out_dir / "accuracy_vs_tokens.png")
    fig.savefig(written[-1], dpi=110)
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(7, 4.5))
    names = [row.strategy for row in rows]
    bottom = [0.0] * len(rows)
    for part in ("llm", "tool", "memory", "other"):
        values = [getattr(row, f"{part}_seconds_per_step") for row in rows]
        ax.bar(names, values, bottom=bottom, label=part)
        bottom = [b + v for b, v in zip(bottom, values)]
    ax.set(ylabel="seconds per step (mean)", title="Where a step's time goes")
    ax.legend()
    fig.tight_layout()
    written.append(out_dir / "seconds_per_step.png")
    fig.savefig(written[-1], dpi=110)
    plt.close(fig)
    return written
