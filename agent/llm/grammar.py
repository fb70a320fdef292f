"""The GBNF grammar that makes every local-model step a parseable Thought / Action / Action Input triple.

The grammar produces exactly the strict format agent/parser.py accepts from remote models:

    Thought: <one line>
    Action: <a registered tool name, or Final>
    Action Input: <one line>

An optional final newline is allowed so the model can end its last line naturally; after it only
end-of-generation is possible, so the model can never invent an Observation or a `Result:` line.

Every field has a width bound, so a reply ends on its own before the backend's token limit: without one the model
pasted whole pages into a tool's input until the reply was cut mid-way. The Action Input's rule depends on the
action: a tool takes a short input (a title, keywords, an expression) or a small JSON object of arguments, Final
a longer answer.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Sequence

from core.schema import FINAL_ACTION  # the grammar must produce what the parser accepts

# Width bounds, in characters. The local backend stops at 256 tokens (LocalLlama max_tokens), and a reply must end
# well before it. Measured with the model's tokenizer: prose runs 4.8-5.4 characters a token, number-heavy prose
# ("1,465 kilometres (910 mi) ... (48.6%)") 2.75, accented text 2.9, JSON inputs 3.7. The widest step is a Final
# one: 200 + 360 characters of number-heavy prose is about 204 tokens, plus 12 for the labels; of prose about 120.
# Only pathological text overruns: digits, and digits with commas, are one token each (560 tokens), CJK text two
# characters a token, rare symbols 0.7. Such a reply stops on the token limit and the loop asks for it again,
# shorter (agent.loop).
THOUGHT_CHARS = 200   # thoughts seen in 508 recorded steps: median 37, 99th percentile 180, longest 218
INPUT_CHARS = 160     # a tool's plain input (median 13, 90th percentile 38; the long ones were pasted pages)
ANSWER_CHARS = 360    # a Final answer (median 95, 90th percentile 263)
JSON_ARGUMENTS = 3    # a tool's JSON input: at most this many arguments,
JSON_KEY_CHARS = 16   # names this long,
JSON_VALUE_CHARS = 56  # and string values this long (so an object is at most 240 characters, valid JSON always)

# How a bound is written, measured with llama.cpp (llama-cpp-python 0.3.36) on the real model, 2 shared cores:
# - compiling the grammar (llama_sampler_init_grammar, done on every call): 0.17 ms with `[^\n]{0,n}`, under
#   0.01 ms unbounded (medians of 50);
# - one grammar pass over the 151,936-token vocabulary (what each sampled token costs): 16-41 ms at any point of a
#   field, the unbounded `[^\n]*` 16-28 ms (the spread is noise from the shared cores, in both);
# - generating: 45.2 ms a token against 45.7 unbounded (the same 48-token greedy reply, median of 4).
# llama.cpp expands `x{0,n}` into n nested optional rules, but a line has one parse at each point, so its parse
# stacks stay few. What is slow is ambiguity: `chunk{0,10}` with `chunk ::= [^\n]{1,30}` splits a line many ways,
# and its first pass over the vocabulary had not finished after 120 s. Word repetitions (`w (" " w){0,n}`, w at
# most 25 characters) cost what characters cost but forbid a long unspaced string, so characters it is. Asked to
# paste an 886-character page into wikipedia_search, the model pasted all of it unbounded (237 of its 256
# tokens), and wrote 83 tokens, a 159-character input, under these bounds.
# The first character of a field is not whitespace (the parser strips it, and an empty field would not parse) nor
# a backtick or asterisk (the parser unwraps those: "```" alone unwraps to nothing); a plain tool input does not
# start with `{`, so every JSON-looking input is the JSON rule's, and the parser never meets a JSON object cut short.
_FIRST = r"[^\x00-\x20\x7f-\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000`*"
_GRAMMAR_TEMPLATE = r'''root    ::= "Thought: " thought "\nAction: " step "\n"?
step    ::= {steps}
thought ::= first [^\n]{{0,{thought}}}
answer  ::= first [^\n]{{0,{answer}}}
input   ::= plain | object
plain   ::= {first_plain}] [^\n]{{0,{input}}}
object  ::= "{{" pair ("," " "? pair){{0,{more_pairs}}} "}}"
pair    ::= "\"" [A-Za-z_] [A-Za-z0-9_]{{0,{key}}} "\":" " "? value
value   ::= "\"" [^"\\\x00-\x1f]{{0,{value}}} "\"" | number | "true" | "false" | "null"
number  ::= "-"? ("0" | [1-9] [0-9]{{0,11}}) ("." [0-9]{{1,6}})?
first   ::= {first}]
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
    steps = [f'{gbnf_literal(FINAL_ACTION)} "\\nAction Input: " answer']
    tools = [a for a in actions if a != FINAL_ACTION]
    if tools:
        steps.append(f'({" | ".join(gbnf_literal(a) for a in tools)}) "\\nAction Input: " input')
    return _GRAMMAR_TEMPLATE.format(
        steps=" | ".join(steps), first=_FIRST, first_plain=_FIRST + "{",
        thought=THOUGHT_CHARS - 1, answer=ANSWER_CHARS - 1, input=INPUT_CHARS - 1,
        more_pairs=JSON_ARGUMENTS - 1, key=JSON_KEY_CHARS - 1, value=JSON_VALUE_CHARS)


def react_gbnf(tool_names: Sequence[str]) -> str:
    """GBNF source for one ReAct step whose Action is one of `tool_names` or Final (cached per tool list)."""
    return _react_gbnf(action_names(tool_names))
