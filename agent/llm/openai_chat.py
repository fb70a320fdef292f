"""Any OpenAI-compatible chat server (OpenAI, vLLM, llama.cpp server, Ollama) through the `openai` client.

Configuration comes from arguments, else the environment: OPENAI_API_KEY, OPENAI_BASE_URL, PONDER_MODEL.
Retries are done here, not by the client (its max_retries is 0), so the policy is explicit and tested:
408, 409, 429, 5xx, timeouts and broken connections (refused, dropped, a body cut short) are retried with bounded
exponential backoff plus jitter, honouring a server's Retry-After; everything else (other 4xx, a 200 whose body
is not a completion) becomes an LLMError at once that says what to check.

A call gives up within a bounded time: at most (retries + 1) requests of at most `timeout` seconds of silence each
(PONDER_LLM_RETRIES, default 3; PONDER_LLM_TIMEOUT, default 60 s), and between them waits of at most
`backoff_max` (20 s) each, so about 4 min with the defaults.
"""
from __future__ import annotations

import random
import time
from typing import Sequence

import openai

from core.llm import Completion, LLMError, Message, apply_stop, count_tokens_fallback
from core.schema import Usage
from core.settings import load_settings

OPENAI_URL = "https://api.openai.com/v1"
DEFAULT_OPENAI_MODEL = "gpt-4o-mini"
LOCAL_DUMMY_KEY = "not-needed"  # local servers ignore the key, but the client insists on one
MAX_STOP_SEQUENCES = 4  # OpenAI rejects more; the rest are applied to the text here
_RETRYABLE_STATUS = {408, 409, 429}


class OpenAIChat:
    concurrent = True  # a server answers several calls at once: research helpers run side by side

    def __init__(self, model: str | None = None, base_url: str | None = None, api_key: str | None = None,
                 timeout: float | None = None, max_retries: int | None = None, temperature: float = 0.0,
                 max_tokens: int = 512, *, backoff_base: float = 0.5, backoff_max: float = 20.0):
        """timeout, max_retries: per request, and retries after the first; default PONDER_LLM_TIMEOUT (60 s),
        PONDER_LLM_RETRIES (3)."""
        settings = load_settings()
        timeout = settings.llm_timeout if timeout is None else timeout
        max_retries = settings.llm_retries if max_retries is None else max_retries
        self.base_url = (base_url or settings.openai_base_url or OPENAI_URL).rstrip("/")
        custom_server = self.base_url != OPENAI_URL
        api_key = api_key or (settings.openai_api_key.get_secret_value() if settings.openai_api_key else None)
        if not api_key:
            if not custom_server:
                raise LLMError("OPENAI_API_KEY is not set. Set it to use OpenAI, or set OPENAI_BASE_URL to a "
                               "local OpenAI-compatible server (vLLM, llama.cpp server, Ollama).")
            api_key = LOCAL_DUMMY_KEY
        self.timeout = timeout
        self.max_retries = max(0, max_retries)
        self.temperature = temperature
        self.max_tokens = max_tokens
        self.backoff_base = backoff_base
        self.backoff_max = backoff_max
        self._client = openai.OpenAI(base_url=self.base_url, api_key=api_key, timeout=timeout, max_retries=0)
        self.model = model or settings.model or (
            self._first_served_model() if custom_server else DEFAULT_OPENAI_MODEL)
        self.name = f"openai:{self.model} @ {self.base_url}"

    def complete(self, messages: Sequence[Message], stop: Sequence[str] = (),
                 tool_names: Sequence[str] = (), grammar: str | None = None) -> Completion:
        stop = [s for s in stop if s]
        request = dict(model=self.model, messages=[{"role": m.role, "content": m.content} for m in messages],
                       temperature=self.temperature, max_tokens=self.max_tokens)
        if stop:
            request["stop"] = stop[:MAX_STOP_SEQUENCES]
        response = self._with_retries(lambda: self._client.chat.completions.create(**request), "chat completion")
        if not response.choices:
            raise LLMError(f"{self.base_url} returned no choices for model {self.model!r}")
        # Some servers ignore part of `stop`, or we sent only the first four: cut here too.
        text = apply_stop(response.choices[0].message.content or "", stop)
        if response.usage is not None:
            details = getattr(response.usage, "prompt_tokens_details", None)  # servers with prefix caching say
            usage = Usage(prompt_tokens=response.usage.prompt_tokens or 0,
                          completion_tokens=response.usage.completion_tokens or 0,
                          cached_prompt_tokens=getattr(details, "cached_tokens", None))
        else:
            usage = Usage(prompt_tokens=sum(count_tokens_fallback(m.content) for m in messages),
                          completion_tokens=count_tokens_fallback(text))
        return Completion(text=text, usage=usage, model=response.model or self.model,
                          truncated=response.choices[0].finish_reason == "length")

    def _first_served_model(self) -> str:
        """No model configured for a custom server: use the first one it serves (a local server has one)."""
        models = self._with_retries(lambda: self._client.models.list(), "model list")
        first = next(iter(models.data), None)
        if first is None:
            raise LLMError(f"{self.base_url} serves no models; set PONDER_MODEL to the model name to use.")
        return first.id

    def _with_retries(self, call, what: str):
        last_problem, advice = "", ""
        for attempt in range(self.max_retries + 1):
            retry_after = None
            try:
                return call()
            except openai.APITimeoutError:
                last_problem = f"no answer within {self.timeout:g} s (timeout)"
                advice = "Check that the server is not stuck, or raise PONDER_LLM_TIMEOUT if it is just slow."
            except openai.APIConnectionError as exc:
                if _never_connected(exc):
                    last_problem = f"cannot connect ({_root_cause(exc)})"
                    advice = "Check that the server is running and OPENAI_BASE_URL is right."
                else:  # connected, then the server dropped the connection or cut its reply short
                    last_problem = f"connection lost ({_root_cause(exc)})"
                    advice = "Check that the server (or a proxy before it) is healthy and OPENAI_BASE_URL is right."
            except openai.APIStatusError as exc:
                if exc.status_code not in _RETRYABLE_STATUS and exc.status_code < 500:
                    raise LLMError(self._status_message(exc, what)) from None
                last_problem = f"HTTP {exc.status_code}: {_server_message(exc)}"
                advice = ("The server is rate-limiting: wait, then try again." if exc.status_code == 429 else
                          "The server at OPENAI_BASE_URL is failing or overloaded: check it, then try again.")
                retry_after = _retry_after_seconds(exc.response)
            except (openai.APIError, ValueError) as exc:  # e.g. a 200 whose body is not JSON
                raise LLMError(f"{self.base_url} sent an unusable {what} response ({exc}); is it an "
                               f"OpenAI-compatible server?") from None
            if attempt < self.max_retries:
                time.sleep(self._delay(attempt, retry_after))
        raise LLMError(f"{what} failed after {self.max_retries + 1} attempts at {self.base_url}: {last_problem}. "
                       f"{advice}")

    def _delay(self, attempt: int, retry_after: float | None) -> float:
        if retry_after is not None:
            return min(retry_after, self.backoff_max)
        return min(self.backoff_base * 2 ** attempt, self.backoff_max) * random.uniform(0.5, 1.0)

    def _status_message(self, exc: openai.APIStatusError, what: str) -> str:
        detail = _server_message(exc)
        if exc.status_code in (401, 403):
            return (f"{self.base_url} refused the API key (HTTP {exc.status_code}: {detail}). "
                    f"Check OPENAI_API_KEY.")
        if exc.status_code == 404:
            return (f"{self.base_url} has no model {self.model!r} or no such endpoint (HTTP 404: {detail}). "
                    f"Check PONDER_MODEL and that OPENAI_BASE_URL ends in /v1.")
        return f"{what} rejected by {self.base_url} (HTTP {exc.status_code}): {detail}"


def _server_message(exc: openai.APIStatusError) -> str:
    body = exc.body  # the client already unwraps {"error": {...}}
    if isinstance(body, dict) and body.get("message"):
        return str(body["message"])
    if isinstance(body, str) and body.strip():
        return body.strip()[:300]
    return exc.message


def _never_connected(exc: BaseException) -> bool:
    """Did the connection itself fail (refused, no such host), rather than break once made? The HTTP library's
    ConnectError is told by name: openai may bring its own copy of the library."""
    chain = []
    while exc is not None:
        chain.append(exc)
        exc = exc.__cause__
    return len(chain) == 1 or any(type(e).__name__ == "ConnectError" or isinstance(e, ConnectionRefusedError)
                                  for e in chain)


def _root_cause(exc: BaseException) -> str:
    while exc.__cause__ is not None:
        exc = exc.__cause__
    return str(exc) or type(exc).__name__


def _retry_after_seconds(response) -> float | None:
    """Retry-After in seconds (the HTTP-date form is rare from these servers and is ignored)."""
    value = response.headers.get("retry-after") if response is not None else None
    try:
        return max(0.0, float(value)) if value is not None else None
    except ValueError:
        return None
