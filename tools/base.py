"""Tools are typed Python functions: name, description from the docstring, input schema from type hints."""
from __future__ import annotations

import inspect
import json
import time
from typing import Any, Callable, ClassVar, get_type_hints

from pydantic import BaseModel, Field, ValidationError, create_model

from core.schema import Findings, Observed


class ToolError(Exception):
    """Raised by a tool for a failure the model should read and react to (bad input, page missing...)."""


class ToolCall(BaseModel):
    """One call of a tool made inside another (composite) tool, as traces and the HTML view show it."""
    name: str
    input: str
    observation: str
    seconds: float


class ToolRun(BaseModel):
    """The outcome of ToolRegistry.run: what the model reads, how long it took, the inner calls made, and what the
    tool found as fields when it reports that (core.schema.Observed)."""
    observation: str
    seconds: float
    calls: list[ToolCall] = Field(default_factory=list)
    findings: Findings | None = None


class Tool:
    # Parameters the caller supplies, not the model: left out of the input schema (see CompositeTool).
    injected: ClassVar[frozenset[str]] = frozenset()
    timeout_seconds: float | None = None  # a tool that needs longer than the agent's tool limit (a sub-agent)
    reads_sources: bool = False  # it reads pages (Wikipedia): a lead agent delegates that to sub-agents instead

    def __init__(self, fn: Callable[..., Any], name: str | None = None, description: str | None = None,
                 needs_approval: bool = False):
        """needs_approval: every call waits for a yes from the agent's approver (a person at the CLI, a callback)."""
        self.fn = fn
        self.needs_approval = needs_approval
        self.name = name or fn.__name__
        self.description = (description or inspect.getdoc(fn) or "").strip()
        hints = get_type_hints(fn)
        params = {p: v for p, v in inspect.signature(fn).parameters.items() if p not in self.injected}
        fields = {p: (hints.get(p, str), ... if v.default is inspect.Parameter.empty else v.default)
                  for p, v in params.items()}
        self.input_model: type[BaseModel] = create_model(f"{self.name}_input", **fields)
        self.params = list(params)

    @property
    def input_schema(self) -> dict:
        return self.input_model.model_json_schema()

    def summary_line(self) -> str:
        first = self.description.splitlines()[0] if self.description else ""
        return f"{self.name}: {first}"

    def __call__(self, action_input: str) -> str:
        """Run with the model's raw Action Input: a JSON object of arguments, or the plain text of the first."""
        return self.invoke(action_input)

    def invoke(self, action_input: str, calls: list[ToolCall] | None = None) -> str:
        """Like calling the tool; a tool that calls other tools appends each of those calls to `calls`."""
        out = self.fn(**self.arguments(action_input))
        return out if isinstance(out, Observed) else str(out)

    def arguments(self, action_input: str) -> dict:
        """The validated keyword arguments for fn. Raises ToolError."""
        kwargs = self._arguments(action_input)
        try:
            args = self.input_model(**kwargs)
        except ValidationError as exc:
            problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'input'}: {e['msg']}" for e in exc.errors())
            raise ToolError(f"invalid input for {self.name}: {problems}") from None
        return args.model_dump()

    def _arguments(self, action_input: str) -> dict:
        return tool_arguments(action_input, self.params, self.name)


def tool_arguments(action_input: str, params: list[str], name: str = "the tool") -> dict:
    """A model's raw Action Input as keyword arguments: a JSON object of them, or the plain text of the first."""
    text = action_input.strip()
    if text.startswith("{"):
        try:
            data = json.loads(text)
        except json.JSONDecodeError:
            data = None
        if isinstance(data, dict):
            if not params or set(data) <= set(params):
                return data
            if len(params) == 1 and len(data) == 1:
                return {params[0]: next(iter(data.values()))}  # a misnamed key for a one-argument tool
            unknown = ", ".join(sorted(set(data) - set(params)))
            raise ToolError(f"unknown argument(s) {unknown} for {name}; its arguments are: {', '.join(params)}")
    if not params:
        return {}
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        text = text[1:-1]  # models often quote plain inputs
    return {params[0]: text}


def tool(fn: Callable[..., Any] | None = None, *, name: str | None = None, description: str | None = None,
         needs_approval: bool = False):
    """Decorator: turn a typed function into a Tool. Usable as @tool or @tool(name="...", needs_approval=True)."""
    def wrap(f: Callable[..., Any]) -> Tool:
        return Tool(f, name=name, description=description, needs_approval=needs_approval)
    return wrap(fn) if fn is not None else wrap


class ToolRegistry:
    """Named tools, changeable at run time. run() never raises: every failure becomes an observation."""

    def __init__(self, tools: list[Tool] | None = None):
        self._tools: dict[str, Tool] = {}
        for t in tools or []:
            self.add(t)

    def add(self, t: Tool | Callable[..., Any]) -> Tool:
        t = t if isinstance(t, Tool) else Tool(t)
        self._tools[t.name] = t
        return t

    def require_approval(self, names) -> None:
        """Mark these tools as needing approval (ValueError naming the registered tools for an unknown one)."""
        unknown = [name for name in names if self.get(name) is None]
        if unknown:
            raise ValueError(f"no tool named {', '.join(unknown)}: the tools are {', '.join(self.names)}")
        for name in names:
            self.get(name).needs_approval = True

    def get(self, name: str) -> Tool | None:
        if name in self._tools:
            return self._tools[name]
        lowered = {k.lower(): v for k, v in self._tools.items()}
        return lowered.get(name.strip().lower())

    @property
    def names(self) -> list[str]:
        return list(self._tools)

    def __contains__(self, name: str) -> bool:
        return self.get(name) is not None

    def describe(self) -> str:
        return "\n".join(f"- {t.summary_line()}" for t in self._tools.values())

    def run(self, name: str, action_input: str) -> ToolRun:
        """Run a tool; never raises. The calls list is this run's own, so concurrent runs don't mix."""
        start = time.perf_counter()
        calls: list[ToolCall] = []
        t = self.get(name)
        if t is None:
            obs = f"Error: unknown tool {name!r}. Valid tools: {', '.join(self.names)}, or Final to answer."
        else:
            try:
                obs = t.invoke(action_input, calls)
            except ToolError as exc:
                obs = f"Error: {exc}"
            except Exception as exc:  # a tool bug must not kill the run; the model sees what went wrong
                obs = f"Error: {t.name} failed: {type(exc).__name__}: {exc}. Valid tools: {', '.join(self.names)}."
        return ToolRun(observation=str(obs), seconds=time.perf_counter() - start, calls=calls,
                       findings=obs.findings if isinstance(obs, Observed) else None)
