"""`ponder bench`: every question under every memory strategy, one record per run, resumable.

A run's cost is measured as the backend sees it: prompt tokens sent, and prompt tokens evaluated (not served from
the backend's prefix cache), over every LLM call the run made, the summariser's included.
"""
from __future__ import annotations

import json
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Callable, Sequence

from pydantic import BaseModel, Field

from ponder.bench.memory_figures import MemoryFigures, memory_figures
from ponder.bench.metrics import evidence_recall, pages_looked_up, score
from ponder.bench.suites import BenchQuestion
from ponder.bench.verdict import judge_answer
from agent.config import AgentConfig
from agent.events import LLMOutput, PromptSent, StepRecorded
from agent.reflection import solve
from agent.runs import attempts
from core.llm import LLM, Completion, Message
from core.schema import RunResult, StepOutcome, StopReason, Usage
from memory.strategies import STRATEGIES
from tools.base import ToolRegistry
from tools.composite import make_wikipedia_fact

RESULTS_FILE = "results.jsonl"
# Agent options a bench label may add to a strategy ("compact+plan+reflect"), as AgentConfig fields.
# "fact" adds the optional wikipedia_fact tool instead.
VARIANT_OPTIONS = {"plan": {"plan": True}, "reflect": {"reflect_retries": 1}, "fact": {"extra_tools": ["fact"]},
                   "research": {"research": True}}


def split_variant(label: str) -> tuple[str, dict]:
    """("compact", {"plan": True}) for "compact+plan"; ValueError for an unknown strategy or option."""
    parts = label.split("+")
    # "retrieval+summary" is a strategy whose name holds a "+": options are the known words after it.
    options = [part for part in parts if part in VARIANT_OPTIONS]
    strategy = "+".join(part for part in parts if part not in VARIANT_OPTIONS)
    if strategy not in STRATEGIES or len(options) != len(set(options)):
        raise ValueError(f"unknown strategy {label!r}")
    config: dict = {}
    for option in options:
        config.update(VARIANT_OPTIONS[option])
    return strategy, config


class JudgeVerdict(BaseModel):
    model: str
    correct: bool | None             # None: the judge's reply could not be read
    reason: str


class RunRecord(BaseModel):
    """One (question, strategy) run."""
    question_id: str
    strategy: str
    question: str
    kind: str = ""
    answer: str | None = None
    correct: bool = False            # the verdict (ponder/bench/verdict.py): right, by rules a wrong answer can't game
    verdict: str = ""                # what matched where, or what was missing / which option clashed
    f1: float = 0.0                  # token F1 against the best reference alternative
    strict: bool = False             # FanOutQA's metric: every reference string of some alternative is in the answer
    loose: float = 0.0               # FanOutQA's metric: the best share of reference strings found
    judge: JudgeVerdict | None = None  # an LLM judge's verdict (--judge), beside the rule-based one
    stop_reason: str = ""
    forced_answer: bool = False
    attempts: int = 1                # --reflect retries count here; steps and cost cover every attempt
    steps: int = 0
    parse_errors: int = 0
    repeated_action: bool = False
    context_overflow: bool = False   # the prompt no longer fit the model's window
    llm_calls: int = 0               # steps, summariser and forced answer
    prompt_tokens: int = 0           # sent, over all calls
    evaluated_prompt_tokens: int = 0  # not served from the backend's prefix cache
    cache_reported: bool = False     # the backend said how much it reused (else evaluated = sent)
    completion_tokens: int = 0
    seconds: float = 0.0
    llm_seconds: float = 0.0
    tool_seconds: float = 0.0
    memory_seconds: float = 0.0
    step_prompt_tokens: list[int] = Field(default_factory=list)     # per step index, the step's own call
    step_evaluated_tokens: list[int] = Field(default_factory=list)
    # per recorded step: what its own call evaluated plus its tool's own model calls (a helper's whole run), so a
    # research lead's planned steps, which call no model themselves, count what their helpers cost
    step_work_evaluated: list[int] = Field(default_factory=list)
    evidence_recall: float | None = None       # share of gold evidence pages the run looked up
    evidence_in_final_prompt: float | None = None  # ... whose steps the final answer's prompt still showed
    memory: MemoryFigures | None = None  # compactions, recall and the answer's facts, read back from the store
    run_id: str = ""
    error: str | None = None

    @property
    def other_seconds(self) -> float:
        return max(self.seconds - self.llm_seconds - self.tool_seconds - self.memory_seconds, 0.0)


class MeteredLLM:
    """Passes calls through and adds up every call's usage, including the calls the loop does not see (the
    summariser's)."""

    def __init__(self, llm: LLM):
        self.llm, self.name = llm, llm.name
        self.usage, self.calls, self.cache_reported = Usage(), 0, False
        if hasattr(llm, "count_tokens"):
            self.count_tokens = llm.count_tokens

    def complete(self, messages: Sequence[Message], stop: Sequence[str] = (),
                 tool_names: Sequence[str] = (), grammar: str | None = None) -> Completion:
        completion = self.llm.complete(messages, stop=stop, tool_names=tool_names, grammar=grammar)
        self.usage, self.calls = self.usage + completion.usage, self.calls + 1
        self.cache_reported |= completion.usage.cached_prompt_tokens is not None
        return completion


def step_work(step) -> int:
    """The prompt tokens a step cost the backend: its own call's and its tool's model calls' (a helper's run)."""
    tool = step.findings.usage if step.findings and step.findings.usage else None
    return step.usage.evaluated_prompt_tokens + (tool.evaluated_prompt_tokens if tool else 0)


def run_one(question: BenchQuestion, strategy: str, llm: LLM, tools: ToolRegistry, *, store, max_steps: int,
            max_seconds: float, trace_dir: Path | None = None, memory_settings: dict | None = None,
            n_ctx: int | None = None) -> RunRecord:
    """One question under one strategy (with its agent options: "compact+plan+reflect"), through the real loop
    and the real memory."""
    if hasattr(llm, "forget_prompt_cache"):
        llm.forget_prompt_cache()  # every run starts cold, so the order of runs does not favour any strategy
    metered = MeteredLLM(llm)
    strategy_name, options = split_variant(strategy)
    run_id = f"bench-{uuid.uuid4().hex[:12]}"
    if options.pop("extra_tools", None):
        wiki = [tools.get(name) for name in ("wikipedia_search", "wikipedia_summary", "wikipedia_lookup")]
        tools = ToolRegistry([*(tools.get(name) for name in tools.names), make_wikipedia_fact(wiki)])
    config = AgentConfig(max_steps=max_steps, max_wall_seconds=max_seconds, trace_dir=trace_dir, **options)
    attempt = attempts(question.question, run_id, llm, tools, store=store, strategy=strategy_name, config=config,
                       n_ctx=n_ctx, memory_settings=memory_settings, via=metered)

    step_prompt, step_evaluated, last_prompt, steps, own_call = [], [], "", [], False

    def watch(event) -> None:
        nonlocal last_prompt, own_call
        if isinstance(event, PromptSent):
            last_prompt = "\n".join(m["content"] for m in event.messages)
            own_call = True
        elif isinstance(event, LLMOutput) and own_call:  # not the retry of a reply cut at the token limit
            own_call = False
            step_prompt.append(event.usage.prompt_tokens)
            step_evaluated.append(event.usage.evaluated_prompt_tokens)
        elif isinstance(event, StepRecorded):
            steps.append(event.step)

    result = solve(question.question, attempt, llm=metered, retries=config.reflect_retries, on_event=watch)
    seen = pages_looked_up(steps)
    return RunRecord(
        question_id=question.id, strategy=strategy, question=question.question, kind=question.kind,
        answer=result.answer, **grade(question, result.answer), stop_reason=result.stop_reason.value,
        forced_answer=result.forced_answer, attempts=result.attempts, steps=len(steps),
        parse_errors=sum(s.outcome is StepOutcome.parse_error for s in steps),
        repeated_action=result.stop_reason is StopReason.repeated_action,
        context_overflow=result.stop_reason is StopReason.llm_error and "context" in (result.error or "").lower(),
        llm_calls=metered.calls, prompt_tokens=metered.usage.prompt_tokens,
        evaluated_prompt_tokens=metered.usage.evaluated_prompt_tokens, cache_reported=metered.cache_reported,
        completion_tokens=metered.usage.completion_tokens, seconds=result.wall_seconds,
        llm_seconds=sum(s.timings.llm_seconds for s in steps),
        tool_seconds=sum(s.timings.tool_seconds for s in steps),
        memory_seconds=sum(s.timings.memory_seconds for s in steps),
        step_prompt_tokens=step_prompt, step_evaluated_tokens=step_evaluated,
        step_work_evaluated=[step_work(s) for s in steps],
        evidence_recall=evidence_recall(question.evidence, seen),
        evidence_in_final_prompt=_in_prompt(question.evidence, result, last_prompt),
        memory=memory_figures(store, result, last_prompt, (question.model_extra or {}).get("facts") or []),
        run_id=run_id, error=result.error)


def grade(question: BenchQuestion, answer: str | None) -> dict:
    """A record's scores: the verdict with its reason and token F1, and FanOutQA's strict and loose string
    accuracy beside them."""
    verdict = judge_answer(question.question, question.answers, answer, options=question.options,
                           tolerance=question.tolerance, evidence=question.evidence)
    fanoutqa = score(question, answer)
    return {"correct": verdict.correct, "verdict": verdict.reason, "f1": round(verdict.f1, 4),
            "strict": fanoutqa.strict, "loose": fanoutqa.loose}


def _in_prompt(evidence: list[str], result: RunResult, prompt: str) -> float | None:
    """Of the gold pages the run looked up, the share whose observation the last prompt still showed."""
    if not evidence:
        return None
    shown = [title for step in result.steps for title in pages_looked_up([step])
             if step.observation[:120] in prompt]
    return evidence_recall(evidence, shown)


def read_records(out_dir: Path) -> list[RunRecord]:
    path = Path(out_dir) / RESULTS_FILE
    if not path.is_file():
        return []
    records = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            try:
                records.append(RunRecord.model_validate_json(line))
            except ValueError:
                continue  # a line torn by a kill mid-write: that run is simply done again
    return records


def write_records(out_dir: Path, records: Sequence[RunRecord]) -> None:
    """Replace results.jsonl with these records (a re-scoring), atomically: a kill leaves the old file or the
    new one, never half of each."""
    path = Path(out_dir) / RESULTS_FILE
    tmp = path.with_name(f".{RESULTS_FILE}.{uuid.uuid4().hex[:8]}.partial")
    tmp.write_text("".join(record.model_dump_json() + "\n" for record in records), encoding="utf-8")
    tmp.replace(path)


def run_bench(questions: Sequence[BenchQuestion], strategies: Sequence[str], *,
              llm_for: Callable[[BenchQuestion], LLM], tools_for: Callable[[BenchQuestion], ToolRegistry],
              store, out_dir: Path, max_steps: int, max_seconds: float = 600.0, concurrency: int = 1,
              memory_settings: dict | None = None, n_ctx: int | None = None,
              on_record: Callable[[RunRecord], None] | None = None,
              on_failure: Callable[[BenchQuestion, str, Exception], None] | None = None) -> list[RunRecord]:
    """Run every pending (question, strategy) pair, appending each finished record to results.jsonl at once, so
    an interrupted bench resumes where it stopped. Returns all records of the questions and strategies asked."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    done = {(r.question_id, r.strategy): r for r in read_records(out_dir)}
    pending = [(q, s) for q in questions for s in strategies if (q.id, s) not in done]
    lock = threading.Lock()

    def work(pair: tuple[BenchQuestion, str]) -> RunRecord | None:
        question, strategy = pair
        try:
            record = run_one(question, strategy, llm_for(question), tools_for(question), store=store,
                             max_steps=max_steps, max_seconds=max_seconds, trace_dir=out_dir / "runs",
                             memory_settings=memory_settings, n_ctx=n_ctx)
        except Exception as exc:  # one broken run must not cost the others; it is not recorded, so a resume retries it
            if on_failure is None:
                raise
            on_failure(question, strategy, exc)
            return None
        with lock:
            with open(out_dir / RESULTS_FILE, "ab+") as results:
                results.seek(0, 2)
                if results.tell():
                    results.seek(-1, 2)
                    if results.read(1) != b"\n":
                        results.write(b"\n")  # after a line torn by a kill, start a fresh one
                results.write(record.model_dump_json().encode() + b"\n")
            done[(question.id, strategy)] = record
            if on_record:
                on_record(record)
        return record

    if concurrency <= 1:
        for pair in pending:
            work(pair)
    else:
        with ThreadPoolExecutor(max_workers=concurrency, thread_name_prefix="bench") as pool:
            for _ in pool.map(work, pending):
                pass
    return [done[(q.id, s)] for q in questions for s in strategies if (q.id, s) in done]


def now() -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S %Z")


def dumps(data) -> str:
    return json.dumps(data, indent=2, default=str)
