"""The parser on a table of real-looking model outputs, good and bad, plus properties over any string."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agent.parser import FORMAT_HELP, Parsed, cut_invented_observation, parse
from core.llm import STOP_SEQUENCES
from core.schema import ParseStatus

OK, JSON, LENIENT, ERROR = ParseStatus.ok, ParseStatus.json, ParseStatus.lenient, ParseStatus.error

# (id, model text, status, action, action_input, thought or None to skip the check)
CASES = [
    ("canonical", "Thought: I need the capital.\nAction: search\nAction Input: capital of France",
     OK, "search", "capital of France", "I need the capital."),
    ("final action", "Thought: I know it.\nAction: Final\nAction Input: Paris is the capital.",
     OK, "Final", "Paris is the capital.", "I know it."),
    ("action final answer", "Thought: done\nAction: Final Answer\nAction Input: 225",
     OK, "Final", "225", "done"),
    ("final answer line", "Thought: done\nFinal Answer: 42", OK, "Final", "42", "done"),
    ("final multi-line", "Thought: summing up\nFinal Answer: Two reasons:\n1. cost\n2. speed",
     OK, "Final", "Two reasons:\n1. cost\n2. speed", None),
    ("action final multi-line", "Thought: t\nAction: Final\nAction Input: Line one.\nLine two.",
     OK, "Final", "Line one.\nLine two.", None),
    ("lower-case keys", "thought: look it up\naction: search\naction input: Ada Lovelace",
     OK, "search", "Ada Lovelace", "look it up"),
    ("upper-case keys", "THOUGHT: x\nACTION: search\nACTION INPUT: y", OK, "search", "y", "x"),
    ("extra spaces", "  Thought :   spaced out  \n  Action  :  calculator  \n  Action Input :  2 + 2  ",
     OK, "calculator", "2 + 2", "spaced out"),
    ("markdown bold labels", "**Thought:** check\n**Action:** search\n**Action Input:** Alan Turing",
     OK, "search", "Alan Turing", "check"),
    ("bold outside colon", "**Thought**: check\n**Action**: search\n**Action Input**: Turing",
     OK, "search", "Turing", "check"),
    ("backticked action", "Thought: t\nAction: `calculator`\nAction Input: 3*7", OK, "calculator", "3*7", None),
    ("quoted action", "Thought: t\nAction: \"search\"\nAction Input: Kyoto", OK, "search", "Kyoto", None),
    ("underscore label", "Thought: t\nAction: search\nAction_Input: Oslo", OK, "search", "Oslo", None),
    ("numbered ReAct labels", "Thought 1: find it\nAction 1: Search[Colorado orogeny]",
     OK, "Search", "Colorado orogeny", "find it"),
    ("bracket call", "Thought: square it\nAction: calculator[15**2]", OK, "calculator", "15**2", None),
    ("paren call", "Action: calculator(15**2)", OK, "calculator", "15**2", ""),
    ("finish bracket", "Thought: got it\nAction: Finish[1,800 to 7,000 ft]", OK, "Final", "1,800 to 7,000 ft", None),
    ("thought optional", "Action: search\nAction Input: Mount Everest", OK, "search", "Mount Everest", ""),
    ("untagged thought", "I should look this up.\nAction: search\nAction Input: Everest",
     OK, "search", "Everest", "I should look this up."),
    ("json action input", 'Thought: t\nAction: date_diff\nAction Input: {"start": "1815-12-10", "end": "1852-11-27"}',
     OK, "date_diff", '{"start": "1815-12-10", "end": "1852-11-27"}', None),
    ("multi-line input", "Thought: code\nAction: python\nAction Input: x = 2\nprint(x ** 10)",
     OK, "python", "x = 2\nprint(x ** 10)", None),
    ("fenced input", "Thought: code\nAction: python\nAction Input: ```python\nprint(1)\n```",
     OK, "python", "print(1)", None),
    ("empty input", "Thought: list them\nAction: list_notes\nAction Input:", OK, "list_notes", "", None),
    ("invented observation", "Thought: t\nAction: search\nAction Input: Paris\nObservation: Paris has 2M people"
     "\nThought: I now know\nFinal Answer: 2 million", OK, "search", "Paris", "t"),
    ("invented result line", "Thought: t\nAction: calculator\nAction Input: 15**2\nResult: 225\n"
     "Final Answer: 225", OK, "calculator", "15**2", None),
    ("action wins over final", "Thought: t\nAction: search\nAction Input: Oslo\nFinal Answer: Oslo is big",
     OK, "search", "Oslo", None),
    ("final before action", "Final Answer: maybe 3\nAction: calculator\nAction Input: 1+2",
     OK, "calculator", "1+2", None),
    ("two actions take first", "Thought: t\nAction: search\nAction Input: A\nThought: also\nAction: search\n"
     "Action Input: B", OK, "search", "A", "t"),
    ("action none then final", "Thought: no tool needed\nAction: None\nFinal Answer: 7", OK, "Final", "7", None),
    ("unicode", "Thought: 東京について調べる\nAction: search\nAction Input: 東京タワー — ça va?",
     OK, "search", "東京タワー — ça va?", "東京について調べる"),
    ("full-width colon", "Thought： 查找\nAction： search\nAction Input： 北京", OK, "search", "北京", "查找"),
    ("quoted final answer", 'Thought: t\nFinal Answer: "Marie Curie"', OK, "Final", "Marie Curie", None),
    ("bold final answer", "Thought: t\nFinal Answer: **Marie Curie**", OK, "Final", "Marie Curie", None),
    ("inner quotes kept", 'Final Answer: "Dune" and "Emma"', OK, "Final", '"Dune" and "Emma"', None),
    ("final inline in action", "Thought: t\nAction: Final Answer: Oslo", OK, "Final", "Oslo", None),
    ("windows newlines", "Thought: t\r\nAction: search\r\nAction Input: Rome\r\n", OK, "search", "Rome", "t"),
    ("whole reply fenced", "```\nThought: t\nAction: search\nAction Input: Rome\n```", OK, "search", "Rome", "t"),
    ("fence closed after input", "Thought: t\nAction: search\nAction Input: Rome\n```", OK, "search", "Rome", None),
    ("trailing period action", "Thought: t\nAction: search.\nAction Input: Rome", OK, "search", "Rome", None),
    # JSON layer
    ("bare json", '{"thought": "t", "action": "search", "action_input": "Nile"}', JSON, "search", "Nile", "t"),
    ("fenced json", 'Here you go:\n```json\n{"thought": "t", "action": "calculator", "action_input": "2*3"}\n```',
     JSON, "calculator", "2*3", "t"),
    ("json trailing text", '{"action": "Final Answer", "action_input": "Paris"} I hope this helps!',
     JSON, "Final", "Paris", ""),
    ("json dict input", '{"action": "date_diff", "action_input": {"start": "2000-01-01", "end": "2001-01-01"}}',
     JSON, "date_diff", '{"start": "2000-01-01", "end": "2001-01-01"}', None),
    ("json tool keys", '{"tool": "search", "tool_input": "Danube"}', JSON, "search", "Danube", None),
    ("json spaced key", '{"action": "search", "action input": "Rhine"}', JSON, "search", "Rhine", None),
    ("json final_answer key", '{"thought": "done", "final_answer": "Blue"}', JSON, "Final", "Blue", "done"),
    ("json answer key", '{"answer": 12}', JSON, "Final", "12", None),
    ("json nested action", '{"thought": "t", "action": {"name": "search", "input": "Po"}}',
     JSON, "search", "Po", "t"),
    ("langchain fenced after label", 'Action:\n```json\n{"action": "search", "action_input": "Elbe"}\n```',
     JSON, "search", "Elbe", None),
    # lenient layer
    ("inline labels", "Thought: I will search. Action: search Action Input: Loire", LENIENT, "search", "Loire",
     "I will search."),
    ("inline final", "Thought: I know. Final Answer: Tagus", LENIENT, "Final", "Tagus", "I know."),
    ("bare answer line", "Thought: easy\nAnswer: 9", LENIENT, "Final", "9", "easy"),
    ("tool and input lines", "Tool: search\nInput: Seine", LENIENT, "search", "Seine", None),
    ("action with words", "Thought: t\nAction: search Seine river", LENIENT, "search", "Seine river", None),
    # errors
    ("empty", "", ERROR, "", "", None),
    ("whitespace only", "  \n\t ", ERROR, "", "", None),
    ("thought only", "Thought: I should look up the population of Paris.", ERROR, "", "", None),
    ("prose only", "The capital of France is Paris.", ERROR, "", "", None),
    ("missing action input", "Thought: t\nAction: search", ERROR, "", "", None),
    ("truncated action", "Thought: I need to search\nAction: sea", ERROR, "", "", None),
    ("truncated input label", "Thought: t\nAction: search\nAction Inp", ERROR, "", "", None),
    ("truncated json input", 'Thought: t\nAction: search\nAction Input: {"query": "Par', ERROR, "", "", None),
    ("truncated json", '{"thought": "t", "action": "sear', ERROR, "", "", None),
    ("action none alone", "Thought: nothing to do\nAction: None\nAction Input: none", ERROR, "", "", None),
    ("final without answer", "Thought: t\nAction: Final\nAction Input:", ERROR, "", "", None),
    ("empty final answer", "Thought: t\nFinal Answer:", ERROR, "", "", None),
    ("json without action", '{"thought": "just thinking"}', ERROR, "", "", None),
    ("action is prose", "Thought: t\nAction: I will now search the web for the answer to this question\n"
     "Action Input: x", ERROR, "", "", None),
    ("only observation", "Observation: nothing", ERROR, "", "", None),
    ("lower-case inline is not a label", "Thought: my next action: search more", ERROR, "", "", None),
]


@pytest.mark.parametrize("text, status, action, action_input, thought", [c[1:] for c in CASES],
                         ids=[c[0] for c in CASES])
def test_table(text, status, action, action_input, thought):
    parsed = parse(text)
    assert (parsed.status, parsed.action, parsed.action_input) == (status, action, action_input), parsed.error
    if thought is not None:
        assert parsed.thought == thought
    assert (parsed.error is None) == (status != ERROR)


def test_table_is_large_and_covers_every_status():
    assert len(CASES) >= 60
    assert {c[2] for c in CASES} == {OK, JSON, LENIENT, ERROR}


@pytest.mark.parametrize("text, says", [
    ("", "empty"),
    ("Thought: only thinking", "a Thought but no Action"),
    ("Thought: t\nAction: search", "'Action: search' has no 'Action Input:' line"),
    ("Thought: t\nAction: None\nAction Input: -", "'Action: None' is not a tool"),
    ("Thought: t\nAction: Final\nAction Input:", "needs the complete answer"),
    ('Action: search\nAction Input: {"q": "x', "not valid JSON"),
    ("Paris.", "no 'Action:' line"),
])
def test_error_messages_say_what_was_wrong_and_the_format(text, says):
    parsed = parse(text)
    assert parsed.status == ERROR and says in parsed.error
    assert parsed.error.endswith(FORMAT_HELP)
    assert "Action: Final" in parsed.error and "Action Input:" in parsed.error


def test_is_final():
    assert parse("Final Answer: 1").is_final
    assert not parse("Action: search\nAction Input: x").is_final


def test_cut_invented_observation():
    text = "Thought: t\nAction: search\nAction Input: Paris\nObservation: made up\nThought: more"
    assert cut_invented_observation(text) == "Thought: t\nAction: search\nAction Input: Paris"
    assert cut_invented_observation("Action: calculator\nAction Input: 2+2\nResult: 4") == \
        "Action: calculator\nAction Input: 2+2"
    # Before any action there is nothing to cut: an early "Result:" may be part of the answer.
    assert cut_invented_observation("Final Answer: Result: 4") == "Final Answer: Result: 4"
    assert cut_invented_observation("Thought: a\nResult: b") == "Thought: a\nResult: b"


def test_stop_sequences_stop_before_an_observation():
    assert all(s.startswith("\n") and "Observation" in s for s in STOP_SEQUENCES)
    assert 1 <= len(STOP_SEQUENCES) <= 4  # OpenAI accepts at most four


@settings(max_examples=400, deadline=None)
@given(st.text())
def test_any_text_parses_without_raising(text):
    parsed = parse(text)
    assert isinstance(parsed, Parsed)
    assert (parsed.status == ERROR) == (parsed.action == "")
    assert (parsed.error is None) == (parsed.status != ERROR)


_PIECES = st.sampled_from(["Thought:", "Action:", "Action Input:", "Final Answer:", "Observation:", "Result:",
                           "**", "`", "```json\n", "```", "{", "}", '"action": ', '"action_input": ', "[", "]",
                           "(", ")", "\n", " ", "search", "Final", "None", "Paris", "：", "15**2", "\r\n"])


@settings(max_examples=600, deadline=None)
@given(st.lists(_PIECES, max_size=25).map("".join))
def test_label_soup_parses_without_raising(text):
    parsed = parse(text)
    assert (parsed.status == ERROR) == (parsed.action == "")
    if parsed.is_final:
        assert parsed.action_input.strip()  # a final answer is never empty


def test_huge_input_is_bounded():
    text = "{" * 50_000 + "Thought: t\nAction: search\nAction Input: x"
    assert parse(text).action == "search"
    assert parse("{" * 100_000).status == ERROR
