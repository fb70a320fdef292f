"""Token counting for the context budget: a real tokenizer, never len()/4.

Any `count(text) -> int` object or plain callable works; pass the LLM's own tokenizer when there is one
(e.g. `lambda t: len(llama.tokenize(t.encode(), add_bos=False))`). The default is MiniLM's WordPiece
tokenizer, which is always available offline and loads in milliseconds without the model.
"""
from __future__ import annotations

import functools
from typing import Callable, Protocol, runtime_checkable

from core.text import clip_tokens


@runtime_checkable
class TokenCounter(Protocol):
    def count(self, text: str) -> int:
        ...


class CallableCounter:
    """Wraps a callable; remembers recent counts because the assembler re-measures the same steps every turn."""

    def __init__(self, fn: Callable[[str], int], cache_size: int = 4096):
        self.count = functools.lru_cache(maxsize=cache_size)(fn)


@functools.lru_cache(maxsize=1)
def minilm_token_counter() -> CallableCounter:
    from tokenizers import Tokenizer

    from core.embedding import minilm_dir

    tokenizer = Tokenizer.from_file(str(minilm_dir() / "tokenizer.json"))
    tokenizer.no_truncation()
    tokenizer.no_padding()
    return CallableCounter(lambda text: len(tokenizer.encode(text, add_special_tokens=False).ids))


def as_token_counter(counter: TokenCounter | Callable[[str], int] | None) -> TokenCounter:
    if counter is None:
        return minilm_token_counter()
    if isinstance(counter, TokenCounter):
        return counter
    if callable(counter):
        return CallableCounter(counter)
    raise TypeError(f"token_counter must have count(text) or be a callable, not {type(counter).__name__}")


TRUNCATION_MARK = " …[truncated]"


def truncate_to_tokens(text: str, max_tokens: int, counter: TokenCounter) -> str:
    """The longest prefix of text, cut at a word boundary, that fits max_tokens with the truncation mark.

    Memory's one setting of core.text.clip_tokens, so every note and step it shortens is marked alike."""
    return clip_tokens(text, max_tokens, counter.count, marker=TRUNCATION_MARK, at="space")
