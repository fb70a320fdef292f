"""OpenAIChat for real over HTTP, against tests/openai_server.py on 127.0.0.1 (no mocking of the client)."""
from __future__ import annotations

import socket
import time

import pytest
from openai_server import FakeOpenAIServer, Reply, completion, dropped, error, truncated

from agent.llm.openai_chat import LOCAL_DUMMY_KEY, MAX_STOP_SEQUENCES, OpenAIChat
from core.llm import LLM, STOP_SEQUENCES, LLMError, Message

FAST = dict(backoff_base=0.001, backoff_max=1.0)  # keep retry sleeps negligible in tests
MESSAGES = [Message(role="system", content="You are Ponder."), Message(role="user", content="Capital of France?")]


@pytest.fixture(autouse=True)
def clean_env(monkeypatch):
    for var in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "PONDER_MODEL"):
        monkeypatch.delenv(var, raising=False)


def serve(*script: Reply, **kwargs) -> FakeOpenAIServer:
    return FakeOpenAIServer(list(script), **kwargs)


def test_completion_sends_model_messages_stop_and_reports_usage():
    with serve(completion("Thought: easy\nAction: Final\nAction Input: Paris", usage=(42, 9))) as server:
        llm = OpenAIChat(model="my-model", base_url=server.url, api_key="sk-test", temperature=0.3, max_tokens=77)
        out = llm.complete(MESSAGES, stop=STOP_SEQUENCES)
    assert isinstance(llm, LLM)
    assert out.text == "Thought: easy\nAction: Final\nAction Input: Paris"
    assert (out.usage.prompt_tokens, out.usage.completion_tokens) == (42, 9)
    assert out.model == "my-model"
    assert llm.name == f"openai:my-model @ {server.url}"
    (request,) = server.chat_requests()
    assert request.body["model"] == "my-model"
    assert request.body["messages"] == [{"role": "system", "content": "You are Ponder."},
                                        {"role": "user", "content": "Capital of France?"}]
    assert request.body["stop"] == list(STOP_SEQUENCES)
    assert request.body["temperature"] == 0.3 and request.body["max_tokens"] == 77
    assert request.headers["authorization"] == "Bearer sk-test"


def test_a_reply_the_server_stopped_on_max_tokens_is_marked_truncated():
    with serve(completion("Thought: a long paste", finish_reason="length"), completion("Thought: whole")) as server:
        llm = OpenAIChat(model="m", base_url=server.url, api_key="sk-test")
        cut, whole = llm.complete(MESSAGES), llm.complete(MESSAGES)
    assert cut.truncated and cut.text == "Thought: a long paste"
    assert not whole.truncated


def test_prompt_tokens_served_from_the_servers_cache_are_reported():
    with serve(completion("Thought: a\nAction: Final\nAction Input: b", usage=(900, 9), cached_tokens=850),
               completion("Thought: a\nAction: Final\nAction Input: b", usage=(900, 9))) as server:
        llm = OpenAIChat(model="m", base_url=server.url, api_key="sk-test")
        cached = llm.complete(MESSAGES).usage
        silent = llm.complete(MESSAGES).usage
    assert (cached.cached_prompt_tokens, cached.evaluated_prompt_tokens) == (850, 50)
    assert silent.cached_prompt_tokens is None and silent.evaluated_prompt_tokens == 900  # unknown: all evaluated


def test_config_from_environment(monkeypatch):
    with serve(completion("ok")) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.url)
        monkeypatch.setenv("OPENAI_API_KEY", "sk-env")
        monkeypatch.setenv("PONDER_MODEL", "env-model")
        llm = OpenAIChat()
        llm.complete(MESSAGES)
    (request,) = server.chat_requests()
    assert request.body["model"] == "env-model"
    assert request.headers["authorization"] == "Bearer sk-env"
    assert "stop" not in request.body  # no stop sequences given: none sent


def test_custom_server_without_key_or_model_uses_dummy_key_and_first_served_model():
    with serve(completion("ok"), models=("qwen2.5-coder", "other")) as server:
        llm = OpenAIChat(base_url=server.url)
        llm.complete(MESSAGES)
    assert llm.model == "qwen2.5-coder"
    assert [r.path for r in server.requests] == ["/v1/models", "/v1/chat/completions"]
    assert server.chat_requests()[0].body["model"] == "qwen2.5-coder"
    assert server.chat_requests()[0].headers["authorization"] == f"Bearer {LOCAL_DUMMY_KEY}"


def test_openai_without_key_is_a_clear_error():
    with pytest.raises(LLMError, match="OPENAI_API_KEY is not set"):
        OpenAIChat()


def test_server_error_then_success_is_retried():
    with serve(error(500, "boom"), error(503, "busy"), completion("second try")) as server:
        out = OpenAIChat(model="m", base_url=server.url, max_retries=3, **FAST).complete(MESSAGES)
    assert out.text == "second try"
    assert len(server.chat_requests()) == 3


def test_rate_limit_honours_retry_after():
    with serve(error(429, "slow down", headers={"Retry-After": "0.3"}), completion("after wait")) as server:
        out = OpenAIChat(model="m", base_url=server.url, **FAST).complete(MESSAGES)
    first, second = server.chat_requests()
    assert out.text == "after wait"
    assert second.at - first.at >= 0.3  # base backoff is 1 ms: only Retry-After explains the wait


def test_retries_exhausted_is_a_clear_error():
    with serve(*[error(500, "still broken")] * 5) as server:
        llm = OpenAIChat(model="m", base_url=server.url, max_retries=2, **FAST)
        with pytest.raises(LLMError) as info:
            llm.complete(MESSAGES)
    assert len(server.chat_requests()) == 3
    message = str(info.value)
    assert "after 3 attempts" in message and "HTTP 500" in message and "still broken" in message
    assert server.url in message and "OPENAI_BASE_URL" in message


def test_wrong_key_is_not_retried_and_says_which_variable():
    with serve(error(401, "Incorrect API key provided")) as server:
        llm = OpenAIChat(model="m", base_url=server.url, api_key="bad", **FAST)
        with pytest.raises(LLMError, match="OPENAI_API_KEY") as info:
            llm.complete(MESSAGES)
    assert "Incorrect API key provided" in str(info.value)
    assert len(server.chat_requests()) == 1


def test_unknown_model_is_a_clear_error():
    with serve(error(404, "The model `nope` does not exist")) as server:
        llm = OpenAIChat(model="nope", base_url=server.url, **FAST)
        with pytest.raises(LLMError, match="PONDER_MODEL") as info:
            llm.complete(MESSAGES)
    assert "'nope'" in str(info.value) and "does not exist" in str(info.value)
    assert len(server.chat_requests()) == 1


def test_bad_request_carries_the_server_message_without_retry():
    with serve(error(400, "maximum context length is 4096 tokens")) as server:
        llm = OpenAIChat(model="m", base_url=server.url, **FAST)
        with pytest.raises(LLMError, match="maximum context length"):
            llm.complete(MESSAGES)
    assert len(server.chat_requests()) == 1


def test_slow_server_times_out_after_bounded_retries():
    with serve(completion("late", delay=5.0), completion("late", delay=5.0)) as server:
        llm = OpenAIChat(model="m", base_url=server.url, timeout=0.3, max_retries=1, **FAST)
        started = time.monotonic()
        with pytest.raises(LLMError, match="timeout") as info:
            llm.complete(MESSAGES)
        elapsed = time.monotonic() - started
    assert "after 2 attempts" in str(info.value)
    assert len(server.chat_requests()) == 2
    assert elapsed < 5.0  # gave up on its own timeout, never waited for the slow reply


@pytest.mark.parametrize("fault, cause", [(truncated, "peer closed connection without sending complete message"),
                                          (dropped, "Server disconnected without sending a response")],
                         ids=["truncated-body", "dropped-connection"])
def test_a_broken_connection_is_retried_then_a_clear_error(fault, cause):
    with serve(fault(), completion("second try")) as server:
        assert OpenAIChat(model="m", base_url=server.url, **FAST).complete(MESSAGES).text == "second try"
    with serve(*[fault()] * 3) as server, pytest.raises(LLMError) as info:
        OpenAIChat(model="m", base_url=server.url, max_retries=2, **FAST).complete(MESSAGES)
    assert len(server.chat_requests()) == 3
    message = str(info.value)
    assert "after 3 attempts" in message and f"connection lost ({cause}" in message and "cannot connect" not in message


def test_timeout_and_retries_come_from_the_environment(monkeypatch):
    monkeypatch.setenv("PONDER_LLM_TIMEOUT", "0.3")
    monkeypatch.setenv("PONDER_LLM_RETRIES", "1")
    with serve(completion("late", delay=5.0), completion("late", delay=5.0), completion("unused")) as server:
        llm = OpenAIChat(model="m", base_url=server.url, **FAST)
        assert (llm.timeout, llm.max_retries) == (0.3, 1)
        with pytest.raises(LLMError, match=r"after 2 attempts.*no answer within 0.3 s.*PONDER_LLM_TIMEOUT"):
            llm.complete(MESSAGES)
    assert len(server.chat_requests()) == 2


def test_unreachable_server_is_a_clear_error():
    with socket.socket() as probe:  # a port that was free a moment ago: nothing listens there
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    url = f"http://127.0.0.1:{port}/v1"
    llm = OpenAIChat(model="m", base_url=url, max_retries=1, timeout=2.0, **FAST)
    with pytest.raises(LLMError) as info:
        llm.complete(MESSAGES)
    message = str(info.value)
    assert "cannot connect" in message and url in message and "server is running" in message


def test_unreachable_server_without_model_fails_at_construction():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(LLMError, match="model list failed"):
        OpenAIChat(base_url=f"http://127.0.0.1:{port}/v1", max_retries=0, timeout=2.0)


def test_stop_sequences_are_also_applied_client_side():
    stops = ["\nObservation:", "<a>", "<b>", "<c>", "<d>", "<e>"]
    with serve(completion("Action: search\nAction Input: x<e> and more")) as server:
        out = OpenAIChat(model="m", base_url=server.url).complete(MESSAGES, stop=stops)
    assert out.text == "Action: search\nAction Input: x"
    assert server.chat_requests()[0].body["stop"] == stops[:MAX_STOP_SEQUENCES]


def test_missing_usage_falls_back_to_a_rough_count():
    text = "Thought: counting\nAction: Final\nAction Input: forty-two"
    with serve(completion(text, usage=None)) as server:
        out = OpenAIChat(model="m", base_url=server.url).complete(MESSAGES)
    assert out.usage.completion_tokens == len(text) // 4
    assert out.usage.prompt_tokens > 0


def test_unusable_success_body_is_a_clear_error():
    with serve(Reply(raw_body='{"choices": []}')) as server:
        with pytest.raises(LLMError, match="no choices"):
            OpenAIChat(model="m", base_url=server.url).complete(MESSAGES)


def test_non_json_success_body_is_a_clear_error():
    with serve(Reply(raw_body="<html>a proxy login page</html>")) as server:
        with pytest.raises(LLMError, match="OpenAI-compatible"):
            OpenAIChat(model="m", base_url=server.url).complete(MESSAGES)
