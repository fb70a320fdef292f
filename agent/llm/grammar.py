"""The GBNF grammar that makes every local-model step a parseable Thought / Action / Action Input triple.

The grammar produces exactly the strict format agent/parser.py accepts from remote models:

    Thought: <one line>
    Action: <a registered tool name, or Final>
    Action Input: <one line>

An optional final newline is allowed so the model can end its last line naturally; after it only
end-of-generation is possible, so the model can never invent an Observation or a `Result:` line.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Sequence

from core.schema import FINAL_ACTION  # the grammar must produce what the parser accepts

# A line is at least one non-newline character; the first one must not be a space so that the model
# cannot stall on whitespace. Width is bounded by the backend's max_tokens, not by the grammar, because
# large {m,n} repetitions expand into thousands of llama.cpp grammar rules.
_GRAMMAR_TEMPLATE = r'''root   ::= "Thought: " line "\nAction: " action "\nAction Input: " line "\n"?
action ::= {actions}
line   ::= [^\n ] [^\n]*
'''


def gbnf_literal(text: str) -> str:
    """`text` as a GBNF double-quoted string literal."""
    escaped = (text.replace("\\", "\\\\").replace('"', '\\"')
               .replace("\n", "\\n").replace("\r", "\\r").replace("\t", "\\t"))
    return f'"{escaped}"'


def action_names(tool_names: Sequence[str]) -> tuple[str, ...]:
    """The allowed actions in a stable order: the tools as given (duplicates dropped), then Final."""
    names: list[str] = []
    for name in tool_names:
        name = name.strip()
        if not name or "\n" in name:
            raise ValueError(f"tool name {name!r} cannot appear on an Action line")
        if name not in names and name != FINAL_ACTION:
            names.append(name)
    return (*names, FINAL_ACTION)


@lru_cache(maxsize=64)
def _react_gbnf(actions: tuple[str, ...]) -> str:
    return _GRAMMAR_TEMPLATE.format(actions=" | ".join(gbnf_literal(a) for a in actions))


def react_gbnf(tool_names: Sequence[str]) -> str:
    """GBNF source for one ReAct step whose Action is one of `tool_names` or Final (cached per tool list)."""
    return _react_gbnf(action_names(tool_names))
