"""The ReAct GBNF grammar, checked by llama.cpp's own grammar engine on the real model vocabulary.

Only the vocabulary is loaded (vocab_only, ~0.5 s), so most of these tests are fast; one (slow) generates with the
real model under the grammar, and more generation is covered in test_local_llama.py.
"""
from __future__ import annotations

import ctypes
import json
import math
import random
import re

import pytest

import llama_cpp  # noqa: E402

from agent.llm.grammar import (ANSWER_CHARS, FINAL_ACTION, INPUT_CHARS, JSON_ARGUMENTS, JSON_KEY_CHARS,  # noqa: E402
                               JSON_VALUE_CHARS, THOUGHT_CHARS, action_names, gbnf_literal, react_gbnf)
from agent.llm.local_llama import _vocab_only, check_grammar_compiles  # noqa: E402
from core.llm import LLMError  # noqa: E402

TOOL_LISTS = [
    [],
    ["calculator"],
    ["calculator", "wiki_search", "date_diff", "current_time"],
    ["search_web_pages", "get_page_2", "a"],
]


@pytest.fixture(scope="module")
def vocab(model_path):
    return _vocab_only(model_path)


def grammar_accepts(vocab, gbnf: str, text: str) -> bool:
    """Feed text token by token through llama.cpp's grammar sampler, then end-of-generation."""
    sampler = llama_cpp.llama_sampler_init_grammar(vocab._model.vocab, gbnf.encode(), b"root")
    assert sampler, "grammar did not compile"
    tokens = vocab.tokenize(text.encode(), add_bos=False, special=False) + [vocab.token_eos()]
    try:
        for token in tokens:
            candidate = (llama_cpp.llama_token_data * 1)(llama_cpp.llama_token_data(id=token, logit=0.0, p=0.0))
            batch = llama_cpp.llama_token_data_array(data=candidate, size=1, selected=-1, sorted=False)
            llama_cpp.llama_sampler_apply(sampler, ctypes.byref(batch))
            if candidate[0].logit == -math.inf:
                return False
            llama_cpp.llama_sampler_accept(sampler, token)
        return True
    finally:
        llama_cpp.llama_sampler_free(sampler)


@pytest.mark.parametrize("tools", TOOL_LISTS, ids=lambda t: ",".join(t) or "no-tools")
def test_grammar_compiles_and_lists_every_action(vocab, tools):
    gbnf = react_gbnf(tools)
    check_grammar_compiles(vocab, gbnf)
    for name in (*tools, FINAL_ACTION):
        assert gbnf_literal(name) in gbnf


def test_broken_grammar_is_a_clear_error_not_a_crash(vocab):
    with pytest.raises(LLMError, match="rejected"):
        check_grammar_compiles(vocab, 'root ::= "unterminated')


def test_action_names_dedupe_and_end_with_final():
    assert action_names(["calculator", "Final", "calculator", " wiki_search "]) == \
        ("calculator", "wiki_search", "Final")
    with pytest.raises(ValueError):
        action_names(["two\nlines"])


def test_literal_escaping_survives_quotes_and_backslashes(vocab):
    odd = 'say_"hi"\\now'
    gbnf = react_gbnf([odd])
    check_grammar_compiles(vocab, gbnf)
    assert grammar_accepts(vocab, gbnf, f"Thought: x\nAction: {odd}\nAction Input: y")


VALID = [
    "Thought: I should compute it.\nAction: calculator\nAction Input: 15**2",
    "Thought: I should compute it.\nAction: calculator\nAction Input: 15**2\n",
    'Thought: look it up\nAction: wiki_search\nAction Input: {"query": "Python (programming language)"}',
    "Thought: I know it now.\nAction: Final\nAction Input: 15 squared is 225.",
]
INVALID = [
    # an unregistered tool
    "Thought: hmm\nAction: web_browser\nAction Input: x",
    # the model inventing a result or observation after the input
    "Thought: hmm\nAction: calculator\nAction Input: 15**2\nResult: 225",
    "Thought: hmm\nAction: calculator\nAction Input: 15**2\nObservation: 225",
    # missing pieces, wrong labels, empty fields
    "Thought: hmm\nAction: calculator",
    "Action: calculator\nAction Input: 15**2",
    "Thought: hmm\nAction: calculator\nAction input: 15**2",
    "Thought: \nAction: calculator\nAction Input: 15**2",
    "Thought: two\nlines\nAction: calculator\nAction Input: 15**2",
]


@pytest.mark.parametrize("text", VALID)
def test_grammar_accepts_the_strict_format(vocab, text):
    assert grammar_accepts(vocab, react_gbnf(["calculator", "wiki_search"]), text)


@pytest.mark.parametrize("text", INVALID)
def test_grammar_rejects_everything_else(vocab, text):
    assert not grammar_accepts(vocab, react_gbnf(["calculator", "wiki_search"]), text)


STRICT = re.compile(r"Thought: [^\n]+\nAction: (?P<action>[^\n]+)\nAction Input: (?P<input>[^\n]+)\n?")


@pytest.mark.parametrize("text", VALID)
def test_grammar_text_is_what_the_parser_accepts_strictly(text):
    from agent import parser
    from core.schema import ParseStatus
    parsed = parser.parse(text)
    match = STRICT.fullmatch(text)
    assert parsed.status == ParseStatus.ok
    assert (parsed.action, parsed.action_input) == (match["action"], match["input"].strip())


# ---- every field is bounded ----

JSON_CHARS = 2 + JSON_ARGUMENTS * (JSON_KEY_CHARS + JSON_VALUE_CHARS + 6) + 2 * (JSON_ARGUMENTS - 1)
GRAMMAR = react_gbnf(["calculator", "wikipedia_lookup"])


def reply(thought: str = "x", action: str = "calculator", action_input: str = "y") -> str:
    return f"Thought: {thought}\nAction: {action}\nAction Input: {action_input}"


@pytest.mark.parametrize("field, bound", [("thought", THOUGHT_CHARS), ("action_input", INPUT_CHARS)])
def test_a_tool_step_has_bounded_fields(vocab, field, bound):
    assert grammar_accepts(vocab, GRAMMAR, reply(**{field: "a" * bound}))
    assert not grammar_accepts(vocab, GRAMMAR, reply(**{field: "a" * (bound + 1)}))


def test_the_input_bound_depends_on_the_action(vocab):
    """A Final answer may be longer than a tool's input, and no longer than its own bound."""
    assert INPUT_CHARS < ANSWER_CHARS
    assert grammar_accepts(vocab, GRAMMAR, reply(action="Final", action_input="a" * ANSWER_CHARS))
    assert not grammar_accepts(vocab, GRAMMAR, reply(action="Final", action_input="a" * (ANSWER_CHARS + 1)))
    assert not grammar_accepts(vocab, GRAMMAR, reply(action="calculator", action_input="a" * ANSWER_CHARS))


def test_a_pasted_page_does_not_fit_any_field(vocab):
    page = ("The Wright brothers, Orville Wright and Wilbur Wright, were American aviation pioneers generally "
            "credited with inventing, building, and flying the world's first successful motor-operated airplane. ") * 3
    for action in ("wikipedia_lookup", "Final"):
        assert not grammar_accepts(vocab, GRAMMAR, reply(action=action, action_input=page))
    assert not grammar_accepts(vocab, GRAMMAR, reply(thought=page))


@pytest.mark.parametrize("action_input", [
    '{"title": "Thomas Edison", "text": "born"}',
    '{"title":"Thomas Edison","text":"born"}',
    '{"expression": "2*(3+4)"}',
    '{"start": "1564", "end": "1642"}',
    '{"a": 1, "b": -2.5, "c": true}',
    '{"title": "' + "t" * JSON_VALUE_CHARS + '"}',
])
def test_a_tool_takes_a_small_json_object(vocab, action_input):
    assert grammar_accepts(vocab, GRAMMAR, reply(action="wikipedia_lookup", action_input=action_input))
    json.loads(action_input)


@pytest.mark.parametrize("action_input", [
    '{"title": "Thomas Edison", "text": "born',             # cut short
    '{"title": "' + "t" * (JSON_VALUE_CHARS + 1) + '"}',   # a value over its bound
    '{"a": 1, "b": 2, "c": 3, "d": 4}',                    # more arguments than JSON_ARGUMENTS
    '{"a": 007}',                                          # not JSON
    '{"text": "say \\"hi\\""}',                         # escapes: a value is plain text
    '{ "a": 1 }',
])
def test_a_json_input_is_small_and_always_valid(vocab, action_input):
    assert not grammar_accepts(vocab, GRAMMAR, reply(action="wikipedia_lookup", action_input=action_input))


@pytest.mark.parametrize("first", [" ", "\t", "\u00a0", "\u3000", "`", "*"])
def test_no_field_starts_with_what_the_parser_strips_or_unwraps(vocab, first):
    for action in ("calculator", "Final"):
        assert not grammar_accepts(vocab, GRAMMAR, reply(action=action, action_input=first + "x"))
    assert not grammar_accepts(vocab, GRAMMAR, reply(thought=first + "x"))


# ---- grammar / parser agreement: whatever the grammar lets a model write, the parser reads strictly ----

AGREEMENT_TOOLS = ["calculator", "current_time", "date_diff", "wikipedia_search", "wikipedia_summary",
                   "wikipedia_lookup"]
LIMIT_TOKENS = 1500  # far more than any bounded reply needs: a walk still going by then never ends


@pytest.fixture(scope="module")
def candidate_tokens(vocab):
    """Tokens a random writer picks from: every printable ASCII character on its own (so every rule can always
    go on), the pieces of JSON, whitespace and non-ASCII characters, and a sample of the vocabulary."""
    rng = random.Random(0)
    pieces = [chr(c) for c in range(32, 127)] + ["\n", "\t", "\u00a0", "\u3000", "é", "东京", "—", "Thought",
                                                  "Action", " Input", "Final", "Observation", '{"', ' {"', " {", '":',
                                                  '", "', '"}']
    tokens = {t for piece in pieces for t in vocab.tokenize(piece.encode(), add_bos=False, special=False)}
    tokens.update(rng.sample(range(vocab.n_vocab()), 3000))
    texts = {token: vocab.detokenize([token]).decode("utf-8", errors="replace") for token in sorted(tokens)}
    return [(token, text) for token, text in texts.items()  # whole characters only, not a byte of one
            if text and "\ufffd" not in text and token != vocab.token_eos()]


def random_reply(vocab, gbnf: str, candidates: list[tuple[int, str]], rng: random.Random, end_bias: float,
                 json_bias: float) -> str:
    """A reply written token by token, each one picked at random among those the grammar allows; with probability
    end_bias a token that ends a field (a newline, or the end) when one is allowed, so fields end anywhere from
    their first character to their bound; with probability json_bias one holding JSON's punctuation."""
    sampler = llama_cpp.llama_sampler_init_grammar(vocab._model.vocab, gbnf.encode(), b"root")
    eos = vocab.token_eos()
    pool = candidates + [(eos, "")]
    text = ""
    try:
        for _ in range(LIMIT_TOKENS):
            data = (llama_cpp.llama_token_data * len(pool))(
                *[llama_cpp.llama_token_data(id=token, logit=0.0, p=0.0) for token, _ in pool])
            batch = llama_cpp.llama_token_data_array(data=data, size=len(pool), selected=-1, sorted=False)
            llama_cpp.llama_sampler_apply(sampler, ctypes.byref(batch))
            allowed = [pool[i] for i in range(len(pool)) if data[i].logit != -math.inf]
            assert allowed, f"the grammar allows nothing after {text!r}"
            ending = [(t, s) for t, s in allowed if t == eos or "\n" in s]
            going_on = [(t, s) for t, s in allowed if (t, s) not in ending]
            json_like = ([(t, s) for t, s in going_on if s.lstrip().startswith("{")]
                         or [(t, s) for t, s in going_on if set(s) & set('{}":,')])
            if ending and (rng.random() < end_bias or not going_on):
                going_on = ending
            elif json_like and rng.random() < json_bias:
                going_on = json_like
            token, piece = rng.choice(going_on)
            if token == eos:
                return text
            llama_cpp.llama_sampler_accept(sampler, token)
            text += piece
    finally:
        llama_cpp.llama_sampler_free(sampler)
    raise AssertionError(f"the grammar let a reply run past {LIMIT_TOKENS} tokens: {text[:300]!r}...")


@pytest.mark.parametrize("seed", range(30))
def test_every_reply_the_grammar_allows_parses_strictly_within_its_bounds(vocab, candidate_tokens, seed):
    from agent import parser
    from core.schema import ParseStatus
    rng = random.Random(seed)
    text = random_reply(vocab, react_gbnf(AGREEMENT_TOOLS), candidate_tokens, rng, end_bias=(0.0, 0.02, 0.3)[seed % 3],
                        json_bias=(0.0, 0.9)[seed % 2])
    parsed = parser.parse(text)
    match = STRICT.fullmatch(text)
    assert match and parsed.status == ParseStatus.ok, (text, parsed.error)
    thought, given = text.split("\n")[0].removeprefix("Thought: "), match["input"]
    assert parsed.action == match["action"] and parsed.thought and parsed.action_input
    assert parsed.thought in thought and parsed.action_input in given
    assert len(thought) <= THOUGHT_CHARS
    if parsed.action == FINAL_ACTION:
        assert len(given.rstrip("\n")) <= ANSWER_CHARS
    elif given.startswith("{"):
        assert isinstance(json.loads(given), dict) and len(given.rstrip("\n")) <= JSON_CHARS
    else:
        assert len(given.rstrip("\n")) <= INPUT_CHARS


# ---- the real model, tempted to paste a page ----

WRIGHT = ("The Wright brothers, Orville Wright (August 19, 1871 – January 30, 1948) and Wilbur Wright (April 16, "
          "1867 – May 30, 1912), were American aviation pioneers generally credited with inventing, building, and "
          "flying the world's first successful motor-operated airplane. They made the first controlled, sustained "
          "flight of an engine-powered, heavier-than-air aircraft with the Wright Flyer on December 17, 1903, four "
          "miles (6 km) south of Kitty Hawk, North Carolina, at what is now known as Kill Devil Hills. In 1904 the "
          "brothers developed the Wright Flyer II, which made longer-duration flights including the first circle, "
          "followed in 1905 by the first truly practical fixed-wing aircraft, the Wright Flyer III. The brothers' "
          "breakthrough invention was their creation of a three-axis control system, which enabled the pilot to "
          "steer the aircraft effectively and to maintain its equilibrium.")


@pytest.mark.slow
def test_the_real_model_asked_to_paste_a_page_ends_its_reply_within_the_bounds(local_llm):
    """Without bounds the model pasted the whole page (886 characters, 237 of its 256 tokens). Under the grammar its
    reply ends on its own, a complete step, with the input inside its bound."""
    import types

    from agent.parser import parse
    from agent.prompts import build_messages
    from core.llm import STOP_SEQUENCES
    from core.schema import ParseStatus
    from memory.base import Context
    from tools.base import ToolRegistry
    from tools.calculator import calculator
    from tools.clock import current_time, date_diff
    from tools.wikipedia import make_wikipedia_tools

    tools = ToolRegistry([calculator, current_time, date_diff,
                          *make_wikipedia_tools(types.SimpleNamespace(name="offline"))])  # described, never called
    task = f"Search Wikipedia for this exact text, pasting all of it word for word as the search query: {WRIGHT}"
    out = local_llm.complete(build_messages(task, Context(), tools.describe(), "2026-12-05"), stop=STOP_SEQUENCES,
                             tool_names=tools.names)
    assert not out.truncated and out.usage.completion_tokens < local_llm.max_tokens
    parsed = parse(out.text)
    assert parsed.status is ParseStatus.ok and STRICT.fullmatch(out.text), out.text
    assert parsed.action != FINAL_ACTION and len(parsed.action_input) <= max(INPUT_CHARS, JSON_CHARS), out.text
    assert WRIGHT.startswith(parsed.action_input[:40])  # it did start pasting the page
