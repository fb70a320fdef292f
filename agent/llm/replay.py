"""A scripted LLM: replays fixed responses, a recorded trace, or a test's responder function.

It behaves like a server would: output is cut at the first stop sequence, usage is reported, and every call is
recorded (``.calls``, ``.stops``, ``.tool_names``) so tests can assert on the prompts. Token counts use the shared rough count
(``count_tokens_fallback``: about 4 characters a token), so they are deterministic, not exact. A reply scripted as
``Cut("...")`` comes back as one the server stopped on its token limit (``Completion.truncated``); a trace replays
its cut replies as cut.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Callable, Sequence

from agent.trace import read_trace
from core.llm import Completion, LLMError, Message, apply_stop, count_tokens_fallback
from core.schema import Usage


class Cut(str):
    """A scripted reply that the server stopped on its token limit (the text is what it sent before stopping)."""


def load_trace_outputs(path: str | Path) -> list[str]:
    """The LLM outputs of a recorded run: the "text" of every trace event with type "llm_output" (a Cut when the
    event says it was truncated).

    path is a trace.jsonl file or a run directory holding one.
    """
    path = Path(path)
    if path.is_dir():
        path = path / "trace.jsonl"
    try:
        events = list(read_trace(path))
    except OSError as exc:
        raise LLMError(f"cannot read trace {path}: {exc.strerror or exc}") from None
    except ValueError as exc:
        raise LLMError(f"bad trace: {exc}") from None
    outputs = []
    for number, event in enumerate(events, 1):
        if isinstance(event, dict) and event.get("type") == "llm_output":
            if not isinstance(event.get("text"), str):
                raise LLMError(f"trace {path}: event {number} is an llm_output without a text field")
            outputs.append(Cut(event["text"]) if event.get("truncated") else event["text"])
    if not outputs:
        raise LLMError(f"trace {path} has no llm_output events to replay")
    return outputs


class Replay:
    """An LLM backend that answers from a script. Give exactly one of responses, trace or responder."""

    def __init__(self, responses: Sequence[str] | None = None, *, trace: str | Path | None = None,
                 responder: Callable[[list[Message]], str] | None = None, name: str = "replay"):
        given = [x is not None for x in (responses, trace, responder)]
        if sum(given) != 1:
            raise ValueError("Replay needs exactly one of responses, trace= or responder=")
        self.name = name
        self._responder = responder
        self._script = list(responses) if responses is not None else (
            load_trace_outputs(trace) if trace is not None else [])
        self._next = 0
        self._previous_prompt = ""
        self.calls: list[list[Message]] = []  # the messages of each call, in order
        self.stops: list[list[str]] = []        # the stop sequences of each call
        self.tool_names: list[list[str]] = []   # the tool names of each call
        self.grammars: list[str | None] = []     # the whole-reply grammar of each call (plans)
        self.completions: list[Completion] = []  # what each call returned, usage included

    @property
    def remaining(self) -> int:
        return len(self._script) - self._next if self._responder is None else 0

    def complete(self, messages: Sequence[Message], stop: Sequence[str] = (),
                 tool_names: Sequence[str] = (), grammar: str | None = None) -> Completion:
        messages = [m.model_copy() for m in messages]  # the caller may mutate its list afterwards
        self.calls.append(messages)
        self.stops.append(list(stop))
        self.tool_names.append(list(tool_names))
        self.grammars.append(grammar)
        if self._responder is not None:
            raw = self._responder(messages)
        elif self._next < len(self._script):
            raw = self._script[self._next]
            self._next += 1
        else:
            raise LLMError(f"replay script exhausted after {len(self._script)} responses "
                           f"(call {len(self.calls)} has nothing to return)")
        text = apply_stop(raw, stop)
        # Like a server with a prefix cache (llama.cpp, vLLM, OpenAI): the part of the prompt shared with the
        # previous call counts as reused, so benchmarks see what a prompt layout costs without a model.
        prompt = "".join(f"<{m.role}>{m.content}" for m in messages)
        shared = len(os.path.commonprefix([prompt, self._previous_prompt]))
        self._previous_prompt = prompt
        prompt_tokens = sum(count_tokens_fallback(m.content) for m in messages)
        usage = Usage(prompt_tokens=prompt_tokens, completion_tokens=count_tokens_fallback(text),
                      cached_prompt_tokens=min(shared // 4, prompt_tokens))
        self.completions.append(Completion(text=text, usage=usage, model=self.name,
                                           truncated=isinstance(raw, Cut) and len(text) == len(raw)))  # a stop
        return self.completions[-1]  # sequence ends it first
