"""The ReAct GBNF grammar, checked by llama.cpp's own grammar engine on the real model vocabulary.

Only the vocabulary is loaded (vocab_only, ~0.5 s), so these tests are fast; generation under the grammar
is covered in test_local_llama.py.
"""
from __future__ import annotations

import ctypes
import math
import re

import pytest

import llama_cpp  # noqa: E402

from agent.llm.grammar import FINAL_ACTION, action_names, gbnf_literal, react_gbnf  # noqa: E402
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
