"""A scripted LLM: replays fixed responses, a recorded trace, or a test's responder function.

It behaves like a server would: output is cut at the first stop sequence, usage is reported, and every call is
recorded (``.calls``) so tests can assert on the prompts. Token counts use the shared rough count
(``count_tokens_fallback``: about 4 characters a token), so they are deterministic, not exact.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

from agent.llm.base import Completion, LLMError, Message, count_tokens_fallback
from agent.schema import Usage


@dataclass(frozen=True)
class ReplayCall:
    messages: list[Message]
    stop: list[str]
    tool_names: list[str]


def apply_stop(text: str, stop: Sequence[str]) -> str:
    """Cut text at the earliest stop sequence, as servers do (the stop string itself is not returned)."""
    cuts = [text.find(s) for s in stop if s]
    cuts = [c for c in cuts if c >= 0]
    return text[: min(cuts)] if cuts else text


def load_trace_outputs(path: str | Path) -> list[str]:
    """The LLM outputs of a recorded JSONL trace: the "text" of every line with type "llm_output"."""
    path = Path(path)
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise LLMError(f"cannot read trace {path}: {exc.strerror or exc}") from None
    outputs = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise LLMError(f"trace {path} line {number} is not JSON: {exc.msg}") from None
        if isinstance(record, dict) and record.get("type") == "llm_output":
            if not isinstance(record.get("text"), str):
                raise LLMError(f"trace {path} line {number}: llm_output without a text field")
            outputs.append(record["text"])
    if not outputs:
        raise LLMError(f"trace {path} has no llm_output lines to replay")
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
        self.calls: list[ReplayCall] = []

    @property
    def remaining(self) -> int:
        return len(self._script) - self._next if self._responder is None else 0

    def complete(self, messages: Sequence[Message], stop: Sequence[str] = (),
                 tool_names: Sequence[str] = ()) -> Completion:
        messages = [m.model_copy() for m in messages]  # the caller may mutate its list afterwards
        self.calls.append(ReplayCall(messages=messages, stop=list(stop), tool_names=list(tool_names)))
        if self._responder is not None:
            raw = self._responder(messages)
        elif self._next < len(self._script):
            raw = self._script[self._next]
            self._next += 1
        else:
            raise LLMError(f"replay script exhausted after {len(self._script)} responses "
                           f"(call {len(self.calls)} has nothing to return)")
        text = apply_stop(raw, stop)
        usage = Usage(prompt_tokens=sum(count_tokens_fallback(m.content) for m in messages),
                      completion_tokens=count_tokens_fallback(text))
        return Completion(text=text, usage=usage, model=self.name)
