"""The one protocol every LLM backend speaks (messages and stop sequences in, text and usage out), and the stop
handling all backends share."""
from __future__ import annotations

from typing import Protocol, Sequence, runtime_checkable

from pydantic import BaseModel

from core.schema import Usage

# Where generation stops: the model must never write its own Observation. "\nObservation" also covers
# "\nObservation:", "\nObservation :" and a bare "\nObservation" line; OpenAI accepts at most four.
STOP_SEQUENCES = ("\nObservation", "\n**Observation")


class Message(BaseModel):
    role: str  # "system" | "user" | "assistant"
    content: str


class Completion(BaseModel):
    text: str
    usage: Usage
    model: str = ""
    # The reply stopped on the backend's token limit (finish_reason "length"), not on its own end or a stop
    # sequence: its last line may be cut mid-way.
    truncated: bool = False


class LLMError(RuntimeError):
    """A backend failure the user can act on (unreachable server, bad key, model missing).

    The message is written for people: the CLI prints it as-is, without a traceback.
    """


@runtime_checkable
class LLM(Protocol):
    name: str  # shown to the user: which model answers

    def complete(self, messages: Sequence[Message], stop: Sequence[str] = (),
                 tool_names: Sequence[str] = (), grammar: str | None = None) -> Completion:
        """Return the model's continuation.

        tool_names lets constrained backends (the local GBNF grammar) allow exactly these actions; grammar,
        a whole GBNF text, constrains a reply that is not a step (a plan). Other backends ignore both.
        """
        ...


def apply_stop(text: str, stop: Sequence[str]) -> str:
    """Cut text at the earliest stop sequence, as servers do (the stop string itself is not returned)."""
    cuts = [text.find(s) for s in stop if s]
    cuts = [c for c in cuts if c >= 0]
    return text[: min(cuts)] if cuts else text


def count_tokens_fallback(text: str) -> int:
    """Rough count used only when a backend reports no usage."""
    return max(1, len(text) // 4) if text else 0
