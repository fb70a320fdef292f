"""Text from outside (a page, a tool result, a model's notes about them) made safe to show a model: it can quote a
step or a chat turn, never forge one."""
from __future__ import annotations

import re

from core.text import clip

# Line-leading step keywords get marked as quoted, so a page cannot forge a Thought, an Action or an Observation.
_STEP_KEYWORD = re.compile(r"(?im)^(\s*[*_`>#-]*\s*)(thought|action input|action|observation|final answer)(\s*):")
# Chat-template control tokens (<|im_end|>, <|im_start|>, Llama 3's <|start_header_id|>...) would be read as real
# turn boundaries, since llama.cpp tokenizes the rendered chat prompt with special tokens on; without the bars they
# are plain text.
_CHAT_TOKEN = re.compile(r"<\|(\w{1,40})\|>")


def neutralise(text: str) -> str:
    return _CHAT_TOKEN.sub(r"<\1>", _STEP_KEYWORD.sub(r"\1\2 (quoted)\3:", text))


def quoted_line(text: str, max_chars: int) -> str:
    """Tool output as one quoted line of notes: whitespace (its line breaks included) squeezed, neutralised, cut,
    in quotation marks, so what a page says reads as what it says, not as an instruction in the notes."""
    flat = neutralise(" ".join(str(text).split()))
    return f"\u201c{clip(flat, max_chars)}\u201d"
