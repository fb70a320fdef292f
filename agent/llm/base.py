"""The one protocol every LLM backend speaks: messages and stop sequences in, text and usage out."""
from __future__ import annotations

from typing import Protocol, Sequence, runtime_checkable

from pydantic import BaseModel

from agent.schema import Usage


class Message(BaseModel):
    role: str  # "system" | "user" | "assistant"
    content: str


class Completion(BaseModel):
    text: str
    usage: Usage
    model: str = ""


class LLMError(RuntimeError):
    """A backend failure the user can act on (unreachable server, bad key, model missing).

    The message is written for people: the CLI prints it as-is, without a traceback.
    """


@runtime_checkable
class LLM(Protocol):
    name: str  # shown to the user: which model answers

    def complete(self, messages: Sequence[Message], stop: Sequence[str] = (),
                 tool_names: Sequence[str] = ()) -> Completion:
        """Return the model's continuation.

        tool_names lets constrained backends (the local GBNF grammar) allow exactly these actions;
        other backends ignore it.
        """
        ...


def count_tokens_fallback(text: str) -> int:
    """Rough count used only when a backend reports no usage."""
    return max(1, len(text) // 4) if text else 0
