"""Typed records of a run that every layer shares: steps, usage, timings, results, stop reasons."""
from __future__ import annotations

import enum

from pydantic import BaseModel, Field, computed_field

FINAL_ACTION = "Final"  # the action that ends a run with its input as the answer
RAW_SHOWN_CHARS = 600   # how much of an unparsable reply is shown back to the model


def step_call(thought: str, action: str, action_input: str) -> str:
    """The one layout of a model's turn (the prompts' examples and the parser read the same three lines)."""
    return f"Thought: {thought}\nAction: {action}\nAction Input: {action_input}"


class StopReason(str, enum.Enum):
    final_answer = "final_answer"
    max_steps = "max_steps"
    wall_time = "wall_time"
    token_budget = "token_budget"
    repeated_action = "repeated_action"
    parse_errors = "parse_errors"
    llm_error = "llm_error"
    interrupted = "interrupted"
    unanswered = "unanswered"  # the last answer still did not answer (it restated the question): no answer given


class ParseStatus(str, enum.Enum):
    ok = "ok"            # strict Thought/Action/Action Input format
    json = "json"        # recovered from a JSON object
    lenient = "lenient"  # recovered from key-value lines or other fallbacks
    error = "error"      # nothing usable: the error goes back to the model


class StepOutcome(str, enum.Enum):
    """What the loop made of a step (agent/outcomes.py holds one type per kind)."""
    tool = "tool"                        # a tool ran; its result is the observation
    final = "final"                      # a Final answer, accepted
    final_sent_back = "final_sent_back"  # a Final answer a check sent back
    parse_error = "parse_error"          # nothing usable in the reply
    repeat_warning = "repeat_warning"    # the same call again: a warning instead of the tool
    tool_denied = "tool_denied"          # a tool that needs approval, refused
    tool_refused = "tool_refused"        # a tool call an action check refused: it cannot answer the question
    reply_cut = "reply_cut"              # the reply stopped on the token limit, also when asked again: not used
    unrecorded = ""                      # a step stored before outcomes were recorded

    def __str__(self) -> str:  # the value, in f-strings and HTML alike (3.12 changed str-mixin formatting)
        return self.value

    @property
    def is_research(self) -> bool:
        """Whether the step's observation is a tool's answer (or may be: steps stored before outcomes were)."""
        return self in (StepOutcome.tool, StepOutcome.unrecorded)


class ToolStatus(str, enum.Enum):
    """What a lookup came to, as the Wikipedia tools report it beside their text."""
    found = "found"              # a page read (its intro, or its sentences holding the text asked for)
    listed = "listed"            # search results: the pages' titles
    missing = "missing"          # no page by that title (the titles offered instead are its pages)
    ambiguous = "ambiguous"      # a disambiguation page (its options are its pages)
    empty = "empty"              # the page has no text
    not_on_page = "not_on_page"  # the page holds no sentence with the text asked for
    no_match = "no_match"        # a search that found nothing

    def __str__(self) -> str:
        return self.value


class Usage(BaseModel):
    prompt_tokens: int = 0
    completion_tokens: int = 0
    # Prompt tokens the backend served from its prefix cache instead of evaluating (llama.cpp's KV prefix
    # match, OpenAI's prompt_tokens_details.cached_tokens); None when the backend does not say.
    cached_prompt_tokens: int | None = None

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    @property
    def evaluated_prompt_tokens(self) -> int:
        """What the prompt really cost: the tokens the backend had to evaluate."""
        return self.prompt_tokens - (self.cached_prompt_tokens or 0)

    def __add__(self, other: "Usage") -> "Usage":
        cached = None
        if self.cached_prompt_tokens is not None or other.cached_prompt_tokens is not None:
            cached = (self.cached_prompt_tokens or 0) + (other.cached_prompt_tokens or 0)
        return Usage(prompt_tokens=self.prompt_tokens + other.prompt_tokens,
                     completion_tokens=self.completion_tokens + other.completion_tokens,
                     cached_prompt_tokens=cached)


class Findings(BaseModel):
    """What a tool found, as fields beside the text the model reads: planning, the memory and the bench read these,
    never the wording."""
    status: ToolStatus
    pages: list[str] = Field(default_factory=list)      # the page read, or the titles offered or listed
    sentences: list[str] = Field(default_factory=list)  # the sentences a lookup returned
    description: str = ""                                # the page's short description (a found page)
    answer: str = ""      # a sub-agent's short answer (the research tool), which `sentences` states
    value: str = ""       # the value code read off the page in place of the sub-agent's answer ("" if none)
    said: str = ""        # the sub-agent's own words, kept beside `value` (they state another value or none)
    subrun: str = ""      # the run id of the sub-agent that found it
    usage: Usage | None = None  # the model calls the tool made itself (a sub-agent's), counted in the run's usage

    @property
    def found_nothing(self) -> bool:
        """The lookup's route does not work: no page, no text, no sentence, no search result."""
        return self.status in (ToolStatus.missing, ToolStatus.empty, ToolStatus.not_on_page, ToolStatus.no_match)

    @property
    def read(self) -> list[str]:
        """The pages retrieved (a page read, even one without the text asked for), not the titles offered."""
        retrieved = (ToolStatus.found, ToolStatus.empty, ToolStatus.not_on_page)
        return list(self.pages) if self.status in retrieved else []

    @property
    def page(self) -> str:
        """The page read ("" unless one was)."""
        return self.read[0] if self.read else ""


class Observed(str):
    """A tool's text with its Findings: a str everywhere (so a tool may return it instead of plain text), and the
    registry keeps the findings beside the observation."""
    findings: Findings

    def __new__(cls, text: str, findings: Findings) -> "Observed":
        made = super().__new__(cls, text)
        made.findings = findings
        return made


class Fact(BaseModel):
    """A value the run established, with the sentence of a page that states it (memory/ledger.py records one only
    when code finds the quote in an observation)."""
    subject: str          # what it is about: the page that states it
    attribute: str = ""   # what was asked: a sub-agent's question ("" for a sentence a lookup returned)
    value: str            # the number the quote states (or a sub-agent's answer when the quote holds none)
    unit: str = ""        # the word after the number in the quote ("kilometres"), if any
    page: str
    quote: str
    step: int             # the step whose observation holds the quote
    subrun: str = ""      # the sub-agent run that read the page

    def as_row(self, quote_chars: int = 150) -> str:
        """The fact as one row of the prompt's table: subject | what was asked | value | the quote's start."""
        quote = self.quote if len(self.quote) <= quote_chars else self.quote[:quote_chars].rsplit(" ", 1)[0] + " ..."
        cells = [self.subject, self.attribute, f"{self.value} {self.unit}".strip(), f'"{quote}"']
        return " | ".join(cell for cell in cells if cell)


class Timings(BaseModel):
    llm_seconds: float = 0.0
    tool_seconds: float = 0.0
    memory_seconds: float = 0.0  # before this step's LLM call: storing the step before, assembling this prompt


class Step(BaseModel):
    """One Thought -> Action -> Action Input -> Observation turn."""
    index: int
    thought: str = ""
    action: str = ""
    action_input: str = ""
    observation: str = ""
    raw: str = ""
    parse_status: ParseStatus = ParseStatus.ok
    usage: Usage = Field(default_factory=Usage)
    timings: Timings = Field(default_factory=Timings)
    started_at: float = 0.0
    outcome: StepOutcome = StepOutcome.unrecorded  # what the loop made of the step (see agent.outcomes)
    verdicts: dict[str, str] = Field(default_factory=dict)  # a Final answer's checks: name -> "ok" or the message
    tool_calls: list[dict] = Field(default_factory=list)  # a composite tool's inner calls: name, input, observation
    findings: Findings | None = None  # what the tool found, as fields (tools that report it: the Wikipedia ones)
    approval: str = ""  # for a tool that needs approval: "approved" or "denied"
    facts: list[Fact] = Field(default_factory=list)  # what this step established (the run's facts ledger)
    # "action" / "observation": written by a person, not the model or the tool (agent.stepping)
    injected: list[str] = Field(default_factory=list)
    # Replies cut off at the token limit before `raw`, each asked for again, shorter (their text; their usage is in
    # `usage`). When `raw` itself was cut too, the outcome is reply_cut.
    cut_replies: list[str] = Field(default_factory=list)

    @property
    def is_final(self) -> bool:
        return self.action == FINAL_ACTION

    def as_call(self) -> str:
        """The model's turn: its Thought, Action and Action Input, or what it wrote if that did not parse."""
        if self.parse_status is ParseStatus.error:
            return self.raw.strip()[:RAW_SHOWN_CHARS] or "(empty reply)"
        return step_call(self.thought, self.action, self.action_input)

    def as_text(self) -> str:
        """The step as the model would have written it, plus its observation."""
        return f"{self.as_call()}\nObservation: {self.observation}" if self.observation else self.as_call()

    def _repr_html_(self) -> str:  # Jupyter's rich display
        from core.html import step_fragment
        return step_fragment(self)


def repeat_key(action: str, action_input: str) -> tuple[str, str]:
    """When two actions count as the same: tool name and input, ignoring case and spacing."""
    return action.strip().lower(), " ".join(action_input.lower().split())


class RunResult(BaseModel):
    run_id: str
    task: str
    answer: str | None
    stop_reason: StopReason
    forced_answer: bool = False  # True when the answer came from the last-chance call, not a Final action
    steps: list[Step] = Field(default_factory=list)
    usage: Usage = Field(default_factory=Usage)
    wall_seconds: float = 0.0
    model: str = ""
    trace_path: str | None = None
    error: str | None = None  # what went wrong, for llm_error stops
    plan: str | None = None   # the plan the run ended with (--plan), items checked off
    attempts: int = 1         # runs made for this answer (--reflect retries after a failed one)
    lessons: list[str] = Field(default_factory=list)  # what the failed attempts taught, in order

    @computed_field
    @property
    def facts(self) -> list[Fact]:
        """The run's facts ledger: every fact its steps established, in order."""
        return [fact for step in self.steps for fact in step.facts]

    def _repr_html_(self) -> str:  # Jupyter's rich display
        from core.html import result_fragment
        return result_fragment(self)
