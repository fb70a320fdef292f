"""tools.base: how a model's raw Action Input becomes arguments, and that ToolRegistry.run() never raises."""
from __future__ import annotations

import pytest

from tools.base import Tool, ToolError, ToolRegistry, tool


def greet(name: str, greeting: str = "Hello") -> str:
    """Greet someone. Input: a name."""
    return f"{greeting}, {name}!"


def shout(text: str) -> str:
    """Upper-case some text."""
    return text.upper()


@pytest.fixture
def registry():
    return ToolRegistry([greet, shout])


def test_description_and_schema():
    t = Tool(greet)
    assert t.summary_line() == "greet: Greet someone. Input: a name."
    assert t.input_schema["required"] == ["name"]


@pytest.mark.parametrize("action_input, expected", [
    ("Ada", "Hello, Ada!"),
    ('"Ada"', "Hello, Ada!"),                                      # quotes models add are dropped
    ('{"name": "Ada"}', "Hello, Ada!"),
    ('{"name": "Ada", "greeting": "Hi"}', "Hi, Ada!"),
    ("{not json", "Hello, {not json!"),                            # broken JSON is plain text
])
def test_arguments(action_input, expected):
    assert Tool(greet)(action_input) == expected


def test_a_misnamed_key_for_a_one_argument_tool_is_accepted():
    assert Tool(shout)('{"input": "hey"}') == "HEY"


def test_unknown_keys_for_a_several_argument_tool_are_named():
    with pytest.raises(ToolError, match=r"unknown argument\(s\) who for greet; its arguments are: name, greeting"):
        Tool(greet)('{"who": "Ada"}')


def test_validation_errors_are_tool_errors():
    with pytest.raises(ToolError, match="invalid input for greet"):
        Tool(greet)('{"greeting": "Hi"}')


def test_decorator_forms():
    @tool
    def one(x: str) -> str:
        """First."""
        return x

    @tool(name="renamed")
    def two(x: str) -> str:
        return x

    assert isinstance(one, Tool) and one.name == "one"
    assert two.name == "renamed" and two("a") == "a"


def test_run_never_raises(registry):
    def broken(x: str) -> str:
        raise RuntimeError("boom")

    registry.add(broken)
    assert registry.run("shout", "hi").observation == "HI"
    assert registry.run("SHOUT", "hi").observation == "HI"                 # names are case-insensitive
    assert registry.run("greet", '{"who": "Ada"}').observation.startswith("Error: unknown argument(s) who")
    assert registry.run("broken", "x").observation.startswith("Error: broken failed: RuntimeError: boom")
    unknown = registry.run("nope", "x")
    assert unknown.observation.startswith("Error: unknown tool 'nope'") and "greet" in unknown.observation
    assert unknown.seconds >= 0
