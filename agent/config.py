"""One config with every limit of a run spelled out."""
from __future__ import annotations

from pathlib import Path
from typing import Callable

from pydantic import BaseModel, Field

from agent.checks import date_diff_needs_two_dates
from agent.grounding import numbers_are_grounded
from agent.outcomes import ActionCheck, FinalCheck


class AgentConfig(BaseModel):
    max_steps: int = Field(12, ge=1, le=10_000)
    max_wall_seconds: float = Field(600.0, gt=0)
    # Tokens the backend processed over the run: prompt tokens it evaluated (not served from its prefix cache) and
    # completion tokens.
    max_total_tokens: int = Field(200_000, ge=1)
    max_consecutive_parse_errors: int = Field(3, ge=1)
    # The same (action, input) a second time gets a warning; more than repeat_limit repeats stop the run.
    repeat_limit: int = Field(2, ge=1)
    observation_max_chars: int = Field(2_000, ge=100)
    tool_timeout_seconds: float = Field(30.0, gt=0)
    # Each check may send a Final answer back to the model (see agent.outcomes.FinalCheck), at most
    # max_final_rejections times a run: the model may know better, and then it repeats its answer.
    final_answer_checks: list[FinalCheck] = Field(default_factory=lambda: [numbers_are_grounded])
    max_final_rejections: int = Field(2, ge=0)
    # Consulted before each tool call (see agent.outcomes.ActionCheck): one may refuse a call that cannot answer the
    # question, and its message is the step's observation instead of the tool's.
    action_checks: list[ActionCheck] = Field(default_factory=lambda: [date_diff_needs_two_dates])
    # --plan: a numbered plan before the first step, shown in every prompt with its progress; rewritten after a
    # lookup for an open item finds nothing, at most once every plan_revise_every steps.
    plan: bool = False
    plan_revise_every: int = Field(3, ge=1)
    # --reflect: after a failed run (stopped by a limit, or a Final answer the checks still reject) a lesson is
    # written and the question is tried again with it, at most reflect_retries times (agent.reflection).
    reflect_retries: int = Field(0, ge=0, le=5)
    # Decides each call of a tool marked needs_approval: approver(tool name, action input) -> True to run it. None
    # denies them all (nobody to ask). The CLI asks the person at the terminal (--approve).
    approver: Callable[[str, str], bool] | None = None
    # --research: a `research` tool hands one sub-question to a sub-agent (agent/research.py) with at most
    # research_max_steps steps and research_max_seconds; the prompt shows the facts ledger, and a Final answer's
    # numbers must come from it or from a computing tool (agent.grounding.answer_from_facts).
    research: bool = False
    # The tools the model may call (None: all it is given); the rest stay in the prompt's list, so a lead agent and
    # its sub-agents share one system prompt. Enforced by the local model's grammar and, for any model, by the loop.
    actions: list[str] | None = None
    brief: str = ""  # said after the question: the run's part (a lead agent's, a helper's; agent/prompts.py)
    # a helper asked about one thing a question lists opens by reading its page (code's step, no model call)
    first_lookup: str = ""
    first_lookup_aside: str = ""  # the thing's other name in the question, read when its own title is no page
    first_lookup_also: str = ""  # a second page the helper's question names, read after the first
    first_lookup_lead: str = ""  # the lead's question: of several fuller titles, the one whose words it says
    research_max_steps: int = Field(6, ge=1, le=100)
    research_max_seconds: float = Field(240.0, gt=0)
    # at max_steps, repeated_action or unanswered, one last call asks for the best answer
    force_final_answer: bool = True
    trace_dir: Path | None = None    # None: no trace file
