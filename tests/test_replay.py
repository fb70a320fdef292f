from __future__ import annotations

import json

import pytest

from agent.llm.replay import Cut, Replay
from core.llm import LLM, STOP_SEQUENCES, LLMError, Message, apply_stop, count_tokens_fallback

ASK = [Message(role="system", content="sys prompt"), Message(role="user", content="What is 15**2?")]


def test_responses_come_back_in_order_and_calls_are_recorded():
    llm = Replay(["first", "second"])
    assert isinstance(llm, LLM) and llm.name == "replay"
    assert llm.complete(ASK, stop=["\nObservation:"], tool_names=["calculator"]).text == "first"
    assert llm.complete(ASK[:1]).text == "second"
    assert [messages[-1].content for messages in llm.calls] == ["What is 15**2?", "sys prompt"]
    assert llm.stops == [["\nObservation:"], []] and llm.tool_names == [["calculator"], []]
    assert llm.remaining == 0


def test_exhausted_script_raises_llm_error():
    llm = Replay(["only one"])
    llm.complete(ASK)
    with pytest.raises(LLMError, match="replay script exhausted after 1 responses"):
        llm.complete(ASK)


def test_stop_sequences_cut_like_a_server():
    invented = "Thought: t\nAction: calculator\nAction Input: 15**2\nObservation: 225\nThought: done"
    out = Replay([invented]).complete(ASK, stop=STOP_SEQUENCES)
    assert out.text == "Thought: t\nAction: calculator\nAction Input: 15**2"
    assert apply_stop("a<x>b<y>c", ["<y>", "<x>"]) == "a"  # earliest stop wins, whatever its list order
    assert apply_stop("abc", []) == "abc"


def test_usage_is_the_deterministic_rough_count():
    out = Replay(["Action: Final\nAction Input: 225"]).complete(ASK)
    assert out.usage.completion_tokens == count_tokens_fallback("Action: Final\nAction Input: 225")
    assert out.usage.prompt_tokens == count_tokens_fallback("sys prompt") + count_tokens_fallback("What is 15**2?")
    assert out.usage.prompt_tokens > 0


def test_responder_computes_answers_from_the_prompt():
    llm = Replay(responder=lambda messages: f"echo {messages[-1].content}\nObservation: no")
    assert llm.complete(ASK, stop=["\nObservation"]).text == "echo What is 15**2?"
    assert len(llm.calls) == 1


def test_recorded_messages_are_copies():
    messages = [Message(role="user", content="original")]
    llm = Replay(["x"])
    llm.complete(messages)
    messages[0].content = "changed by the caller"
    assert llm.calls[0][0].content == "original"


def test_trace_replays_llm_outputs_only(tmp_path):
    trace = tmp_path / "trace.jsonl"
    lines = [{"type": "step_started", "index": 1},
             {"type": "llm_output", "index": 1, "text": "Action: search\nAction Input: Paris",
              "usage": {"prompt_tokens": 1, "completion_tokens": 1}, "seconds": 0.1},
             {"type": "observation", "index": 1, "observation": "Paris is...", "seconds": 0.0},
             {"type": "llm_output", "index": 2, "text": "Action: Final\nAction Input: Paris",
              "usage": {"prompt_tokens": 1, "completion_tokens": 1}, "seconds": 0.1}]
    trace.write_text("\n".join(json.dumps(x) for x in lines) + "\n\n", encoding="utf-8")
    llm = Replay(trace=tmp_path)  # a run directory holding trace.jsonl works too
    assert llm.remaining == 2
    assert llm.complete(ASK).text.startswith("Action: search")
    assert llm.complete(ASK).text.endswith("Action Input: Paris")
    with pytest.raises(LLMError, match="exhausted"):
        llm.complete(ASK)


@pytest.mark.parametrize("content, problem", [
    ('{"type": "llm_output", "text": "ok"}\nnot json\n{"type": "llm_output", "text": "ok"}\n',
     "bad trace: .*:2: not a JSON line"),
    ('{"type": "step_started", "index": 1}\n', "no llm_output events"),
    ('{"type": "llm_output", "index": 1}\n', "event 1 is an llm_output without a text field"),
])
def test_bad_traces_are_clear_errors(tmp_path, content, problem):
    trace = tmp_path / "bad.jsonl"
    trace.write_text(content, encoding="utf-8")
    with pytest.raises(LLMError, match=problem):
        Replay(trace=trace)


def test_torn_last_line_of_a_killed_run_is_skipped(tmp_path):
    trace = tmp_path / "trace.jsonl"
    trace.write_text('{"type": "llm_output", "text": "kept"}\n{"type": "llm_out', encoding="utf-8")
    llm = Replay(trace=trace)
    assert llm.complete(ASK).text == "kept" and llm.remaining == 0


def test_missing_trace_is_a_clear_error(tmp_path):
    with pytest.raises(LLMError, match="cannot read trace"):
        Replay(trace=tmp_path / "nope.jsonl")


def test_exactly_one_source():
    with pytest.raises(ValueError):
        Replay()
    with pytest.raises(ValueError):
        Replay(["a"], responder=lambda m: "b")


def test_a_repeated_prefix_counts_as_cached_like_a_server_cache():
    llm = Replay(["a", "b", "c"])
    system = Message(role="system", content="A long and stable system prompt. " * 20)
    first = llm.complete([system, Message(role="user", content="question one")]).usage
    second = llm.complete([system, Message(role="user", content="question one"),
                           Message(role="assistant", content="step")]).usage
    rewritten = llm.complete([Message(role="user", content="Another prompt."), system]).usage
    assert first.cached_prompt_tokens == 0 and first.evaluated_prompt_tokens == first.prompt_tokens
    assert second.cached_prompt_tokens >= first.prompt_tokens - 1  # all of the first prompt was reused
    assert rewritten.cached_prompt_tokens == 0  # a change at the start invalidates everything after it


def test_a_reply_scripted_as_cut_comes_back_truncated():
    llm = Replay([Cut("Thought: a long paste"), "Thought: whole", Cut("Thought: t\nObservation: invented")])
    assert llm.complete(ASK).truncated
    assert not llm.complete(ASK).truncated
    assert not llm.complete(ASK, stop=STOP_SEQUENCES).truncated  # a stop sequence ended it before the limit


def test_a_cut_reply_in_a_trace_is_replayed_cut(tmp_path):
    from agent.config import AgentConfig
    from agent.loop import Agent
    from tools.base import ToolRegistry
    from tools.calculator import calculator

    script = [Cut("Thought: paste\nAction: calculator\nAction Input: 1+1+1+"),
              "Thought: short\nAction: calculator\nAction Input: 1+1", "Thought: done\nAction: Final\nAction Input: 2"]
    first = Agent(Replay(script), ToolRegistry([calculator]), config=AgentConfig(trace_dir=tmp_path)).run("1+1?")
    again = Agent(Replay(trace=first.trace_path), ToolRegistry([calculator])).run("1+1?")
    assert [s.model_dump(exclude={"started_at", "timings"}) for s in again.steps] == \
        [s.model_dump(exclude={"started_at", "timings"}) for s in first.steps]
    assert again.steps[0].cut_replies == [script[0]]
