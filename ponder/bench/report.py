"""Figures from bench records: per-strategy aggregates, the markdown report and the plots."""
from __future__ import annotations

import statistics
from collections import Counter
from pathlib import Path
from typing import Sequence

from pydantic import BaseModel

from core.text import clip
from ponder.bench.runner import RunRecord

GROWTH_AT = (0, 4, 9, 19, 39, 79, 119, 149)  # step indices at which prompt growth is reported


ANSWER_CLIP = 220   # characters of each answer the report shows, enough to audit a verdict


class StrategyFigures(BaseModel):
    strategy: str
    runs: int
    accuracy: float                    # the verdict: right, and a Final answer (a forced answer never counts)
    correct: int
    forced: int                        # answers forced after a limit stopped the run
    forced_right: int                  # ... that the verdict would call right: counted here, not as correct
    f1: float                          # mean token F1
    judge_agreement: float | None      # share of runs where an LLM judge agrees with the verdict
    strict_accuracy: float             # FanOutQA's metric (string found anywhere): lenient, kept for comparison
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
    work: list[float] = []             # step index -> mean tokens evaluated, helpers' calls included (runner.step_work)
    cache_reported: bool
    memory: MemoryRow | None = None


class MemoryRow(BaseModel):
    """What memory did, over a strategy's runs (those whose records carry memory figures)."""
    runs: int
    compactions: int
    tokens_in: int
    tokens_out: int
    compaction_seconds: float
    summariser_failures: int
    recalled: int
    recalled_used: int
    steps: int
    facts_needed: int
    facts_kept: int
    memory_ms_median: float             # the median of the runs' medians


def memory_row(runs: Sequence[RunRecord]) -> MemoryRow | None:
    measured = [r for r in runs if r.memory is not None]
    if not measured:
        return None
    figures = [r.memory for r in measured]
    return MemoryRow(runs=len(measured), compactions=sum(m.compactions for m in figures),
                     tokens_in=sum(m.compaction_tokens_in for m in figures),
                     tokens_out=sum(m.compaction_tokens_out for m in figures),
                     compaction_seconds=sum(m.compaction_seconds for m in figures),
                     summariser_failures=sum(m.summariser_failures for m in figures),
                     recalled=sum(m.recalled for m in figures), recalled_used=sum(m.recalled_used for m in figures),
                     steps=sum(r.steps for r in measured), facts_needed=sum(m.facts_needed for m in figures),
                     facts_kept=sum(m.facts_kept for m in figures),
                     memory_ms_median=statistics.median(m.memory_ms_median for m in figures))


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
        correct = [r for r in runs if r.correct and not r.forced_answer]
        judged = [r for r in runs if r.judge is not None and r.judge.correct is not None]
        rows.append(StrategyFigures(
            strategy=strategy, runs=len(runs), accuracy=len(correct) / len(runs), correct=len(correct),
            forced=sum(r.forced_answer for r in runs), forced_right=sum(r.forced_answer and r.correct for r in runs),
            f1=_mean(r.f1 for r in runs),
            judge_agreement=(sum(r.judge.correct == r.correct for r in judged) / len(judged)) if judged else None,
            strict_accuracy=_mean(r.strict for r in runs),
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
            growth=growth, work=_per_index([r.step_work_evaluated for r in runs]),
            cache_reported=any(r.cache_reported for r in runs), memory=memory_row(runs)))
    return rows


def _per_index(series: Sequence[Sequence[int]]) -> list[float]:
    """The mean at each index over the series long enough to have it."""
    longest = max((len(s) for s in series), default=0)
    return [_mean(s[i] for s in series if len(s) > i) for i in range(longest)]


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{value:.0%}"


def _one_line(text: str | None, limit: int) -> str:
    """Text for a table cell: on one line, at most `limit` characters."""
    return clip(" ".join((text or "").split()), limit)


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def _mark(run: RunRecord) -> str:
    if run.forced_answer:
        return "forced ✓" if run.correct else "forced ✗"
    return "✓" if run.correct else "✗"


def markdown(rows: Sequence[StrategyFigures], records: Sequence[RunRecord], header: dict,
             questions: Sequence | None = None) -> str:
    from ponder.bench.provenance import dirty_warning
    warning = dirty_warning(header)
    lines = ([warning, ""] if warning else []) + [f"# ponder bench: {header.get('suite', '?')}", ""]
    hidden = ("suite", "suite_name", "questions_file", "before_rescore", "rescored")
    shown = {key: value for key, value in header.items() if key not in hidden and value not in (None, "")}
    if isinstance(shown.get("machine"), dict):
        m = shown["machine"]
        shown["machine"] = f"{m.get('cpus')} CPUs, {m.get('processor')}, Python {m.get('python')}"
    if isinstance(shown.get("model_file"), dict):
        m = shown["model_file"]
        shown["model_file"] = " · ".join(str(m[k]) for k in ("name", "sha256") if m.get(k))
    if isinstance(shown.get("corpus"), dict):
        c = shown["corpus"]
        shown["corpus"] = " · ".join(f"{k} {c[k]}" for k in ("backend", "path", "pages", "fingerprint") if c.get(k))
    lines += [f"- {key}: {value}" for key, value in shown.items()]
    before = header.get("before_rescore") or {}
    if header.get("rescored"):
        r = header["rescored"]
        lines += ["", f"Re-scored {r.get('at')} at commit {str(r.get('commit'))[:12]}"
                      f"{' (uncommitted changes)' if r.get('dirty') else ''} with that commit's scorer; "
                      "\"before\" is the accuracy the report showed until then."]
    lines += ["", "**correct**: the verdict of `ponder/bench/verdict.py` (a pick among the question's options, numbers "
                  "as numbers, every part of the answer) on a Final answer; answers forced after a limit stopped the "
                  "run are counted apart and never as correct. FanOutQA strict/loose is FanOutQA's string metric "
                  "(a reference found anywhere in the answer), shown for comparison only.",
              "", "## Strategies", "",
              "| strategy | runs | correct | forced (right by the verdict) | token F1 | FanOutQA strict / loose | "
              + ("before | " if before else "") + ("judge agrees | " if any(r.judge_agreement is not None
                                                                             for r in rows) else "")
              + "steps | prompt tok/step (mean / max) | evaluated tok/step | total sent | total evaluated | "
              "s/question | s/step LLM / tool / memory / other | stops | overflows | "
              "evidence looked up / in final prompt |"]
    columns = 17 + bool(before) + any(r.judge_agreement is not None for r in rows)
    lines.append("|" + "---|" * columns)
    for r in rows:
        stops = ", ".join(f"{k} {v}" for k, v in sorted(r.stops.items()))
        evaluated = f"{r.evaluated_tokens_per_step:,.0f}" + ("" if r.cache_reported else " (no cache info)")
        old = before.get(r.strategy)
        before_cell = (f"{old:.0%} | " if isinstance(old, (int, float)) else "– | ") if before else ""
        judge_cell = (f"{_pct(r.judge_agreement)} | " if any(x.judge_agreement is not None for x in rows) else "")
        lines.append(
            f"| {r.strategy} | {r.runs} | {r.correct}/{r.runs} ({r.accuracy:.0%}) | {r.forced} ({r.forced_right}) | "
            f"{r.f1:.2f} | {r.strict_accuracy:.0%} / {r.loose_accuracy:.0%} | {before_cell}{judge_cell}"
            f"{r.mean_steps:.1f} | "
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
    if any(any(r.work) for r in rows):
        longest = max(len(r.work) for r in rows)
        lines += ["", "## Prompt tokens evaluated at step, helpers' calls included", "",
                  "What each step cost the backend: its own call, plus the whole run of a helper it asked (a research "
                  "lead's planned steps call no model themselves). Mean over questions; step index across.", "",
                  "| strategy | " + " | ".join(str(i) for i in range(longest)) + " |", "|---|" + "---|" * longest]
        for r in rows:
            lines.append(f"| {r.strategy} | " + " | ".join(f"{r.work[i]:,.0f}" if i < len(r.work) else "–"
                                                          for i in range(longest)) + " |")
    lines += memory_table(rows)
    strategies = [r.strategy for r in rows]
    kinds = sorted({record.kind for record in records if record.kind})
    if len(kinds) > 1:
        lines += ["", "## Correct by kind", "", "| kind | " + " | ".join(strategies) + " |",
                  "|---|" + "---|" * len(strategies)]
        for kind in kinds:
            cells = []
            for strategy in strategies:
                runs = [r for r in records if r.kind == kind and r.strategy == strategy]
                right = sum(r.correct and not r.forced_answer for r in runs)
                cells.append(f"{right}/{len(runs)}" if runs else "–")
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
            cells.append("–" if run is None else f"{_mark(run)} ({run.steps} st, {run.stop_reason}{tries})")
        lines.append(f"| {qid} | {kind} | " + " | ".join(cells) + " |")
    references = {q.id: q.answers for q in questions or []}
    lines += ["", "## Answers", "", "Each answer as the run gave it (clipped), and why the verdict is what it is.",
              ""]
    for qid, runs in by_question.items():
        first = next(iter(runs.values()))
        wanted = f" (reference: {', '.join(map(str, references[qid]))})" if qid in references else ""
        lines += [f"### {qid}: {_cell(first.question)}{_cell(wanted)}", "",
                  "| strategy | verdict | answer | why |", "|---|---|---|---|"]
        for strategy in strategies:
            run = runs.get(strategy)
            if run is None:
                continue
            judge = f" Judge ({run.judge.model}): {run.judge.correct}, {run.judge.reason}" if run.judge else ""
            answer = _cell(_one_line(run.answer, ANSWER_CLIP)) or "(no answer)"
            lines.append(f"| {strategy} | {_mark(run)} | {answer} | {_cell(_one_line(run.verdict + judge, 300))} |")
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def memory_table(rows: Sequence[StrategyFigures]) -> list[str]:
    measured = [r for r in rows if r.memory is not None and (r.memory.compactions or r.memory.recalled
                                                              or r.memory.facts_needed)]
    if not measured:
        return []
    lines = ["", "## Memory", "",
             "Read back from each run's stored steps and notes (the lead's run; a sub-agent's memory is its own). "
             "Recall precision: recalled steps whose number or page the next thought, its input or the answer "
             "used. Facts kept: the question's facts whose page was looked up, and whose value the final prompt or "
             "the ledger still held.", "",
             "| strategy | compactions / run | tokens in → out per compaction | s / compaction | "
             "summariser failures | recalled / step | recall precision | facts kept | memory ms/step (median) |",
             "|---|---|---|---|---|---|---|---|---|"]
    for row in measured:
        m = row.memory
        per = max(m.compactions, 1)
        folds = (f"{m.tokens_in / per:,.0f} → {m.tokens_out / per:,.0f}" if m.compactions else "–")
        lines.append(f"| {row.strategy} | {m.compactions / m.runs:.1f} | {folds} | "
                     f"{(f'{m.compaction_seconds / per:.1f}' if m.compactions else '–')} | {m.summariser_failures} | "
                     f"{m.recalled / max(m.steps, 1):.2f} | "
                     f"{_pct(m.recalled_used / m.recalled if m.recalled else None)} | "
                     f"{m.facts_kept}/{m.facts_needed} | {m.memory_ms_median:.1f} |")
    return lines


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
        if any(row.work):  # with helpers' calls: the fair line for a research lead
            ax.plot(range(len(row.work)), row.work, linestyle=":", color=line.get_color(),
                    label=f"{row.strategy} evaluated, helpers included")
    ax.set(xlabel="step index", ylabel="prompt tokens (mean over questions)", title="Prompt tokens per step")
    ax.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    written.append(out_dir / "prompt_tokens_per_step.png")
    fig.savefig(written[-1], dpi=110)
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(6, 4.5))
    for row in rows:
        tokens = row.evaluated_prompt_tokens / max(row.runs, 1)
        ax.scatter([tokens], [row.accuracy], s=60)
        ax.annotate(f"{row.strategy} ({row.correct}/{row.runs})", (tokens, row.accuracy),
                    textcoords="offset points", xytext=(6, 4), fontsize=8)
    ax.set(xlabel="prompt tokens evaluated per question (mean)", ylabel="correct (verdict)", ylim=(-0.05, 1.05),
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
