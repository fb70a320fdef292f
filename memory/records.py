"""What the store keeps and returns, as plain records (no Chroma import, so the loop can use them cheaply)."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from core.schema import Step

# Chroma names: 3-512 chars of [A-Za-z0-9._-], starting and ending with a letter or digit.
_NAME = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9._-]{0,126}[A-Za-z0-9])?$")


def check_name(kind: str, name: str) -> str:
    if not isinstance(name, str) or not _NAME.match(name):
        raise ValueError(f"invalid {kind} {name!r}: use 1-128 letters, digits, '.', '_' or '-', "
                         "starting and ending with a letter or digit")
    return name


@dataclass
class RunInfo:
    run_id: str
    task: str = ""
    created: float = 0.0
    status: str = "running"
    steps: int = 0
    strategy: str = ""
    space: str = ""
    answer: str = ""
    parent: str = ""  # a sub-agent's run: the run whose research step started it


@dataclass
class StepRecord:
    """A stored step and what memory showed the model in the prompt that produced it."""
    step: Step
    retrieved: list[int] = field(default_factory=list)  # earlier step indices retrieved into that prompt
    context_tokens: int | None = None
    summary_upto: int | None = None  # the summary in that prompt covered steps up to here


@dataclass
class Summary:
    """A run's notes as one compaction (or summariser call) left them, with what writing them cost."""
    text: str
    first: int
    upto: int
    created: float = 0.0
    seconds: float = 0.0   # the summariser call and the carrying of facts
    tokens_in: int = 0     # the previous notes and the folded steps
    tokens_out: int = 0    # these notes
    by_model: bool = True  # False: the summariser failed and the notes were extracted without it


@dataclass
class Retrieved:
    step: Step
    similarity: float


@dataclass
class SpaceItem:
    text: str
    kind: str  # "answer" | "summary"
    run_id: str
    task: str
    similarity: float
