"""Property tests (hypothesis) of the parts that read untrusted text: the parser, the calculator, the date tools,
the context assembler and the memory strategies, and the trace reader behind `ponder trace`.

These extend the plain "any text" properties in test_parser.py, test_calculator.py and test_clock.py with inputs
built to hit the corners (deep JSON, label soup, big numbers inside functions, date-like pieces, long steps under
small budgets, traces of the wrong shape), and check more than "does not raise". Every test runs a fixed, bounded
set of cases (derandomize=True, max_examples), so the suite stays deterministic; the regressions found while
writing them are pinned with @example.
"""
from __future__ import annotations

import argparse
import contextlib
import io
import json
import logging
import re
import tempfile
import time
import uuid
from datetime import datetime, timezone
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from agent.parser import parse
from core.clock import fixed_clock
from core.llm import LLMError, count_tokens_fallback
from core.schema import FINAL_ACTION as FINAL
from core.schema import ParseStatus, Step
from memory.assembler import Assembler
from memory.compact import KEPT_SHARE, RECALL_SHARE, SUMMARY_SHARE
from memory.records import Retrieved, SpaceItem, Summary
from memory.strategies import MemoryConfig, RunMemory, masked_observation
from memory.tokens import as_token_counter
from tools.base import ToolError, ToolRegistry
from tools.calculator import FUNCTIONS, calculator
from tools.clock import clock_tools


def fuzz(max_examples: int):
    """Fixed cases (derandomize), no example database, no per-example deadline (the tests time work themselves,
    in CPU time of the calling thread, which other jobs on the machine do not inflate)."""
    return settings(max_examples=max_examples, derandomize=True, database=None, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.function_scoped_fixture])


def cpu_seconds(fn):
    start = time.thread_time()
    result = fn()
    return result, time.thread_time() - start


# ---- the parser -------------------------------------------------------------------------------------------------

_PARSER_PIECES = st.sampled_from([
    "Thought:", "Action:", "Action Input:", "Final Answer:", "Observation:", "Result:", "Answer:", "Tool:", "Input:",
    "**Action:**", "Action 2:", "action_input:", "Action：", "\n", "\r\n", " ", "\t", "**", "`", "```", "```json\n",
    "{", "}", "[", "]", "(", ")", '"', "'", '{"action": ', '"action_input": ', '{"thought": "t", "action": {"name": ',
    '"Final"', "Final", "None", "search", "calculator", "Paris", "15**2", "search[Paris]", "search(Paris)", ", ",
    "\u00a0", "\u200b", "\u202e", "\ud800", "\ufeff", "<|im_end|>", "<|im_start|>assistant", "１２", "漢字", "🙂",
    "[" * 1200, "{\"a\": " * 1200, "\n" * 50, "Action: " * 40, "x" * 500,
])
_ANY_CHARS = st.text(st.characters(codec=None), max_size=300)


def check_parsed(text: str) -> None:
    parsed, seconds = cpu_seconds(lambda: parse(text))
    assert seconds < 1.0, f"parse took {seconds:.2f} s of CPU on {len(text)} characters"
    assert (parsed.status is ParseStatus.error) == (parsed.action == "")
    assert (parsed.error is None) == (parsed.status is not ParseStatus.error)
    if parsed.is_final:
        assert parsed.action_input.strip()  # a final answer is never empty
    elif parsed.action:  # a tool name the registry can look up: one short name, never a sentence
        assert len(parsed.action) <= 64 and re.fullmatch(r"[\w.\- ]+", parsed.action)


@fuzz(700)
@given(st.one_of(_ANY_CHARS, st.lists(_PARSER_PIECES, max_size=30).map("".join)))
# Found by this test: a reply nested deeper than Python's recursion limit raised RecursionError from the JSON
# layer (while decoding, re-encoding a value, or checking an Action Input that starts like JSON).
@example('{"action": ' * 3000)
@example('{"action": "x", "action_input": ' + "[" * 991 + "]" * 991 + "}")
@example("Action: x\nAction Input: " + '{"a":' * 992 + "1" + "}" * 992)
def test_parser_never_raises_and_keeps_its_invariants(text):
    check_parsed(text)


_SAFE_WORDS = st.text(st.sampled_from("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,;?!+-/=()%"),
                      min_size=1, max_size=60).map(str.strip).filter(bool)
_TOOL_NAMES = st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,20}", fullmatch=True).filter(
    lambda name: re.sub(r"[_]", "", name.lower()) not in {
        "final", "finalanswer", "finish", "answer", "none", "na", "null", "nothing", "noaction", "notool",
        "noneneeded", ""})
_INVENTED = st.sampled_from(["\nObservation:", "\nObservation: ", "\n**Observation:** ", "\nobservation 3:",
                             "\nObservation：", "\nResult: "])
_HOSTILE_TAIL = st.one_of(_ANY_CHARS, st.lists(_PARSER_PIECES, max_size=20).map("".join))


@fuzz(400)
@given(_SAFE_WORDS, st.one_of(_TOOL_NAMES, st.just(FINAL)), _SAFE_WORDS, _INVENTED, _HOSTILE_TAIL)
def test_a_step_parses_as_written_whatever_it_invents_after_its_action(thought, action, action_input, invented, tail):
    """What the model wrote is what is run: text it invents after its Action Input (an Observation it imagined,
    with more steps or a Final answer after it) never changes the parse."""
    written = f"Thought: {thought}\nAction: {action}\nAction Input: {action_input}"
    alone, with_tail = parse(written), parse(written + invented + tail)
    assert (alone.thought, alone.action, alone.action_input) == (thought, action, action_input)
    assert alone.status is ParseStatus.ok
    assert with_tail == alone


# ---- the calculator ---------------------------------------------------------------------------------------------

_NUMBERS = ["0", "1", "-1", "2", "3", "7", "0.5", "2.5", "0.1", "3.7", "-0.0", "1e15", "1e308", "1e-308", "pi", "e",
            "tau", "449", "450", "5000", "10**5", "10**6", "10**20", "10**22", "10**300", "10**999", "9" * 20,
            "1_000", "0x1F", "1,000"]


def _grow(children):
    return st.one_of(
        st.tuples(children, st.sampled_from(["+", "-", "*", "/", "//", "%", "**", "^", " x ", "×", "÷"]), children)
        .map(lambda t: f"({t[0]}{t[1]}{t[2]})"),
        st.tuples(st.sampled_from(["-", "+"]), children).map("".join),
        st.tuples(st.sampled_from(sorted(FUNCTIONS)), st.lists(children, max_size=3))
        .map(lambda t: f"{t[0]}({', '.join(t[1])})"),
    )


_EXPRESSIONS = st.recursive(st.sampled_from(_NUMBERS), _grow, max_leaves=10)
_CALCULATOR = ToolRegistry([calculator])


@fuzz(600)
@given(_EXPRESSIONS)
# Found by this test: comb/perm of a huge n and a k in the thousands passed the size check (the lgamma difference
# cancels to 0 in floating point) and built a number of millions of digits before refusing it: 1.7 s for
# comb(10**300, 5000), minutes for perm(10**30, 10**6).
@example("comb(10**300, 5000)")
@example("perm(10**30, 10**6)")
@example("perm(10**22, 5*10**4)")
def test_any_expression_gives_a_number_or_a_tool_error_in_bounded_time(expression):
    def evaluate():
        try:
            return calculator(expression), None
        except ToolError as exc:
            return None, exc
    (result, error), seconds = cpu_seconds(evaluate)
    assert seconds < 0.5, f"{expression!r} took {seconds:.2f} s of CPU"
    if error is not None:
        assert str(error)
    else:
        float(result)  # a number as text: ints exactly, floats to 12 digits, never inf or nan
        assert result not in ("inf", "-inf", "nan")
    observation = _CALCULATOR.run("calculator", expression).observation  # what the model reads: never a crash report
    assert " failed: " not in observation


# ---- the date tools ---------------------------------------------------------------------------------------------

_DATE_PIECES = st.sampled_from([
    "0000", "0001", "0999", "1847", "1969", "2026", "9999", "10000", "-", "/", ".", "00", "02", "13", "29", "31",
    "99", "T", "Z", "+", ":", "12:00", " ", ",", " to ", " until ", " and ", "|", " - ", "February", "feb", "11th",
    "Sept", "today", "tomorrow", "yesterday", "now", "AD", "CE", "BC", "'", '"', "\u00a0", "\n", "١٢٣", "²",
    "UTC", "GMT", "utc+", "+14", "-14:59", "+15", "+5:30", "Europe/Paris", "new york", "New_York", "local",
    "localtime", "Etc/GMT+12", "posixrules", "Factory", "../", "\x00", "Asia/Kolkata", "America/Argentina/Salta",
])
_DATE_TEXT = st.one_of(st.text(max_size=30), st.lists(_DATE_PIECES, max_size=10).map("".join))
_INSTANTS = st.sampled_from([datetime(2026, 12, 2, 17, 30, 5, tzinfo=timezone.utc),
                             datetime(2024, 2, 29, 0, 0, tzinfo=timezone.utc),
                             datetime(2026, 3, 29, 1, 30, tzinfo=timezone.utc)])  # a DST change in Europe


@fuzz(500)
@given(_DATE_TEXT, _DATE_TEXT, _DATE_TEXT, _INSTANTS)
def test_date_tools_answer_or_refuse_whatever_the_input(start, end, zone, instant):
    current_time, date_diff = clock_tools(fixed_clock(instant))
    registry = ToolRegistry([current_time, date_diff])
    for call in (lambda: date_diff(start, end), lambda: date_diff(start), lambda: current_time(zone)):
        try:
            assert call().strip()
        except ToolError as exc:
            assert str(exc)
    for name, action_input in (("date_diff", json.dumps({"start": start, "end": end})), ("date_diff", start),
                               ("current_time", zone)):
        observation = registry.run(name, action_input).observation
        assert observation.strip() and " failed: " not in observation


# ---- context assembly and memory strategies ---------------------------------------------------------------------

COUNTERS = {"minilm": as_token_counter(None), "rough": as_token_counter(count_tokens_fallback)}
_MEMORY_WORDS = st.sampled_from(["Paris", "1847", "the", "Thought:", "Observation:", "Action Input:", "\n", " ", "\t",
                                 "ääää", "漢字", "🙂", "supercalifragilistic", "1,234.5", "x" * 50, "[step 3]", "…",
                                 "\u200b", "Facts:", "(step 3)"])
_MEMORY_TEXT = st.one_of(st.text(max_size=60), st.lists(_MEMORY_WORDS, max_size=200).map("".join),
                         st.lists(_MEMORY_WORDS, max_size=1500).map(" ".join))
_STEP_ROWS = st.lists(st.tuples(_MEMORY_TEXT, st.sampled_from(["search", "calculator", "Final", "", "漢" * 64]),
                                _MEMORY_TEXT, _MEMORY_TEXT, _MEMORY_TEXT, st.booleans()), min_size=1, max_size=8)
_BUDGETS = st.one_of(st.integers(100, 160), st.integers(100, 3000))  # small budgets are where the cuts happen


def make_steps(rows) -> list[Step]:
    return [Step(index=i, thought=thought, action=action, action_input=action_input, observation=observation,
                 raw=raw, parse_status=ParseStatus.error if unparsed else ParseStatus.ok)
            for i, (thought, action, action_input, observation, raw, unparsed) in enumerate(rows)]


def _long_unparsed_reply_at_a_small_budget():
    return {"rows": [("", "search", "", "", "", False),
                     ("", "search", "", "0", "Paris " * 15 + ("x" * 50 + " ") * 3, True)],
            "budget": 100, "window": 1, "summary": None, "retrieved": [], "space_items": [], "counter": "minilm"}


@fuzz(400)
@given(rows=_STEP_ROWS, budget=_BUDGETS, window=st.integers(1, 5), summary=st.none() | _MEMORY_TEXT,
       retrieved=st.lists(st.floats(-1, 1), max_size=4), space_items=st.lists(_MEMORY_TEXT, max_size=3),
       counter=st.sampled_from(sorted(COUNTERS)))
# Found by this test: the latest step of a reply that did not parse is shown as the model's raw text (up to 600
# characters), which the last-resort cut (thought and input only) left whole: 101-135 tokens at a budget of 100.
@example(**_long_unparsed_reply_at_a_small_budget())
def test_the_assembled_context_is_within_budget_and_keeps_the_latest_step(rows, budget, window, summary, retrieved,
                                                                           space_items, counter):
    counter = COUNTERS[counter]
    steps = make_steps(rows)
    recent, older = steps[-window:], steps[:-window]
    context = Assembler(counter, budget).assemble(
        summary=Summary(summary, 0, 0) if summary is not None else None, recent=recent,
        retrieved=[Retrieved(older[i % len(older)], similarity) for i, similarity in enumerate(retrieved)]
        if older else [],
        space_items=[SpaceItem(text, "answer", "run", "task", 0.5) for text in space_items])
    counted = counter.count(context.text) if context.text else 0
    assert context.tokens == counted <= budget
    assert context.recent and context.recent[-1].index == steps[-1].index


@fuzz(300)
@given(rows=_STEP_ROWS, budget=_BUDGETS, window=st.integers(1, 5), strategy=st.sampled_from(["full", "mask", "window"]))
def test_the_storeless_strategies_keep_the_latest_step_and_their_stated_bounds(rows, budget, window, strategy):
    """window: within the budget (the assembler). full and mask ignore the budget by design (the README: full
    history overflows a small window on long tasks): full shows every step verbatim; mask shows every step,
    the last `recent_window` verbatim and each older one's observation as a one-line placeholder, so only
    thoughts, actions and inputs grow its part."""
    steps = make_steps(rows)
    memory = RunMemory("a task", MemoryConfig(strategy=strategy, token_budget=budget, recent_window=window))
    for step in steps:
        memory.add(step, memory.context())
    context = memory.context()
    counter = memory.counter
    assert context.recent[-1].index == steps[-1].index
    if strategy == "window":
        assert context.tokens == counter.count(context.text) <= budget
        return
    assert [step.index for step in context.recent] == [step.index for step in steps]
    cut = len(steps) - window
    for i, (shown, step) in enumerate(zip(context.recent, steps)):
        if strategy == "mask" and i < cut:
            assert shown == step.model_copy(update={"observation": masked_observation(step)})
        else:
            assert shown == step
    assert context.tokens == sum(counter.count(step.as_text()) for step in context.recent)


# The compact strategy, with a real Chroma store and embedder (slow per step: few cases). Its part is the notes
# under a heading, the steps since the last compaction, and what is recalled after the latest observation. Bounds,
# after every step: the notes take at most SUMMARY_SHARE of the budget (their one-line heading comes on top) and the
# recall, heading included, at most RECALL_SHARE. The whole is within the budget, with two exceptions: the
# conversation holds only the latest step, which always stays verbatim however long it is (its observation is
# bounded by the loop instead); or, right after a compaction, by at most the notes' heading less the 15% of the
# budget that notes (35%), kept steps (30%) and recall (20%) leave free: only budgets near the minimum of 100.

@pytest.fixture(scope="module")
def store():
    from core.chroma import make_client
    from memory.store import Store
    store = Store(make_client("memory"))
    store.embedder.embed(["warm up"])
    return store


_COMPACT_COUNTERS = {"words": lambda text: len(text.split()), "minilm": COUNTERS["minilm"].count}
_COMPACT_TEXT = st.one_of(st.text(max_size=40), st.lists(_MEMORY_WORDS, max_size=120).map(" ".join),
                          st.integers(0, 300).map(lambda n: "Paris 1847 word " * n))


def _first_step_longer_than_the_budget():
    return {"rows": [("look", "wikipedia_summary", "Paris", "Paris word " * 50)], "budget": 100, "window": 3,
            "replies": ["Facts: Paris was founded long ago (step 0). Nothing else is known yet."], "counter": "words"}


_PARIS_THEN_A_LONG_STEP = [
    ("I look up Paris.", "wikipedia_summary", "Paris",
     "Paris was founded in the third century BC by the Parisii, a Celtic tribe."),
    ("Now the sum.", "calculator", "2+2", "four " * 70)]  # over 80% of a 100-token budget: step 0 is folded


def _recall_over_its_share():  # the latest thought names the folded page: its one line is recalled
    return {"rows": [*_PARIS_THEN_A_LONG_STEP, ("I read about Paris before.", "calculator", "1+1", "2")],
            "budget": 100, "window": 1, "replies": [], "counter": "words"}


def _long_notes():  # the summariser's notes, cut to their share
    notes = "Facts:\n" + "\n".join(f"- fact {i}: the town grew to {1000 + 37 * i} people in {1100 + 3 * i} (step 0)"
                                    for i in range(12))
    return {"rows": _PARIS_THEN_A_LONG_STEP, "budget": 100, "window": 1, "replies": [notes], "counter": "words"}


@fuzz(14)
@given(rows=st.lists(st.tuples(_COMPACT_TEXT, st.sampled_from(["wikipedia_summary", "calculator"]), _COMPACT_TEXT,
                               _COMPACT_TEXT), min_size=1, max_size=6),
       budget=st.integers(100, 600), window=st.integers(1, 4), replies=st.lists(st.none() | _COMPACT_TEXT, max_size=3),
       counter=st.sampled_from(sorted(_COMPACT_COUNTERS)))
# Found by this test: (1) a first step over 80% of the budget was folded into the notes at once, leaving the
# conversation without the step the model just took; (2) the recall's heading was not counted in its share (23
# tokens for a share of 20, and a context of 104 tokens at a budget of 100).
@example(**_first_step_longer_than_the_budget())
@example(**_recall_over_its_share())
@example(**_long_notes())
def test_compact_memory_keeps_its_shares_and_the_latest_step(store, rows, budget, window, replies, counter):
    from agent.llm.replay import Replay
    from memory.factory import make_memory

    count = _COMPACT_COUNTERS[counter]
    replies = list(replies)

    def summariser(messages):  # scripted notes; None or running out is a failed call (the memory goes on)
        reply = replies.pop(0) if replies else None
        if reply is None:
            raise LLMError("summariser down")
        return reply

    memory = make_memory("compact", f"fuzz-{uuid.uuid4().hex[:10]}", store=store, task="When was Paris founded?",
                         summariser_llm=Replay(responder=summariser), token_counter=count, token_budget=budget,
                         recent_window=window)
    logging.disable(logging.WARNING)  # the failed summariser calls are logged as warnings
    try:
        for index, (thought, action, action_input, observation) in enumerate(rows):
            step = Step(index=index, thought=thought, action=action, action_input=action_input,
                        observation=observation)
            memory.add(step, memory.context())
            context = memory.context()
            assert context.recent and context.recent[-1] == step  # the latest step, verbatim
            assert context.tokens == count(context.background) + sum(count(s.as_text()) for s in context.recent) \
                + count(context.recall)
            notes = memory.summary.text if memory.summary else ""
            heading = count(context.background.split("\n", 1)[0]) if notes else 0
            assert count(notes) <= SUMMARY_SHARE * budget and count(context.background) <= count(notes) + heading
            assert count(context.recall) <= RECALL_SHARE * budget
            free = (1 - SUMMARY_SHARE - KEPT_SHARE - RECALL_SHARE) * budget
            assert context.tokens <= budget + max(0, heading - free) or len(context.recent) == 1
    finally:
        logging.disable(logging.NOTSET)


# ---- the trace reader and `ponder trace` ------------------------------------------------------------------------

def ponder_trace(data: bytes, html: bool = False) -> str:
    """`ponder trace FILE [--html PAGE]` on a file holding `data`: "ok" or "usage error"; anything else raises."""
    from rich.console import Console

    from ponder.cli import EXIT_OK, UsageError, cmd_trace

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "trace.jsonl"
        path.write_bytes(data)
        args = argparse.Namespace(file=str(path), html=Path(tmp) / "page.html" if html else None)
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                assert cmd_trace(args, Console(file=io.StringIO())) == EXIT_OK
        except UsageError as exc:
            assert "is not a Ponder trace" in str(exc)
            return "usage error"
    return "ok"


_GOOD_LINES = [json.dumps(line) for line in (
    {"type": "step_started", "index": 0},
    {"type": "prompt", "index": 0, "messages": [{"role": "user", "content": "Question: x"}]},
    {"type": "llm_output", "index": 0, "text": "Thought: t\nAction: Final\nAction Input: 4",
     "usage": {"prompt_tokens": 10, "completion_tokens": 5}, "seconds": 0.1},
    {"type": "step_recorded", "step": {"index": 0, "thought": "t", "action": "Final", "action_input": "4"}},
    {"type": "final", "result": {"run_id": "r", "task": "x", "answer": "4", "stop_reason": "final_answer"}},
)]
_TRACE_PIECES = st.sampled_from(_GOOD_LINES + [
    "\n", "\r\n", "{", "}", "[" * 5000, '{"type": ', '"final"', "\x00", "null", "[]", "1", '"s"', "\ufeff",
    '{"type": "prompt", "messages": "abc"}', '{"type": "final", "result": 1}', '{"type": "llm_output", "usage": []}',
    '{"type": "step_recorded", "step": {"index": "x"}}', '{"type": "plan", "plan": "[red]markup[/red]"}'])


@fuzz(300)
@given(st.one_of(st.binary(max_size=400),
                 st.lists(_TRACE_PIECES, max_size=12).map(lambda p: "".join(p).encode("utf-8", "surrogatepass"))))
# Found by this test: a line nested deeper than json can read raised RecursionError out of read_trace, and an
# event field of the wrong type (messages as a string, usage as a list) an AttributeError out of the printer:
# `ponder trace` ended with "ponder: RecursionError/AttributeError: ..." and exit 1 instead of exit 2.
@example(("[" * 5000 + "\n" + _GOOD_LINES[0]).encode())
@example(b'{"type": "prompt", "messages": "abc"}')
@example(b'{"type": "llm_output", "usage": []}')
def test_any_bytes_in_a_trace_file_give_a_rendering_or_a_clean_usage_error(data):
    ponder_trace(data)


_JSON = st.recursive(st.none() | st.booleans() | st.integers(-2 ** 70, 2 ** 70) | st.floats(allow_nan=False)
                     | st.text(max_size=20) | st.sampled_from(["ok", "error", "Final", "[red]", "[/]", "\x1b[31m"]),
                     lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=8), c, max_size=3),
                     max_leaves=8)
_FIELDS = ["index", "messages", "text", "usage", "seconds", "thought", "action", "action_input", "parse_status",
           "observation", "step", "plan", "revision", "raw", "result", "attempt", "failure", "lesson",
           "prompt_tokens", "completion_tokens", "cached_prompt_tokens", "run_id", "task", "answer", "stop_reason",
           "steps", "tool_calls", "name", "input", "role", "content", "timings", "verdicts", "model", "error"]


def _objects(depth: int):
    values = _JSON if depth == 0 else st.one_of(_JSON, _objects(depth - 1), st.lists(_objects(depth - 1), max_size=2))
    return st.dictionaries(st.sampled_from(_FIELDS), values, max_size=6)


_EVENTS = st.builds(lambda kind, fields: {"type": kind, **fields},
                    st.sampled_from(["step_started", "prompt", "llm_output", "step_recorded", "plan", "action",
                                     "observation", "final", "lesson", "other"]), _objects(1))


@fuzz(150)
@given(st.lists(_EVENTS, min_size=1, max_size=5), st.booleans())
def test_trace_events_of_any_shape_give_a_rendering_or_a_clean_usage_error(events, html):
    ponder_trace("\n".join(json.dumps(event) for event in events).encode("utf-8", "surrogatepass"), html=html)


@pytest.mark.parametrize("data", [b"[" * 5000 + b"\n{}", b'{"type": "prompt", "messages": "abc"}', b"\xff\xfe\x00"])
def test_ponder_trace_on_a_hostile_file_exits_2_without_a_traceback(tmp_path, monkeypatch, capsys, data):
    from ponder.cli import EXIT_USAGE, main

    monkeypatch.delenv("PONDER_DEBUG", raising=False)
    path = tmp_path / "trace.jsonl"
    path.write_bytes(data)
    assert main(["trace", str(path)]) == EXIT_USAGE
    out, err = capsys.readouterr()
    assert "is not a Ponder trace" in err and "Traceback" not in out + err
