"""The name and multi-part final-answer checks, on the cases that motivated them."""
from __future__ import annotations

import pytest

from agent.checks import (
    date_diff_needs_two_dates,
    every_part_answered,
    names,
    names_are_grounded,
    question_parts,
)
from agent.outcomes import FinalCandidate
from core.schema import Step, StepOutcome, StopReason

PHOTOGRAPHY = ("Photography, art and practice of creating images (offline Wikipedia): Photography is the art of "
               "creating durable images by recording light. The daguerreotype of Louis Daguerre was announced in 1839.")
EDISON = ("Thomas Edison, American inventor (1847–1931): He developed many devices, including the phonograph, the "
          "motion picture camera and a long-lasting light bulb.")


def candidate(task: str, answer: str, *observations: str) -> FinalCandidate:
    steps = [Step(index=i, action="wikipedia_summary", action_input="x", observation=o)
             for i, o in enumerate(observations)]
    return FinalCandidate(answer=answer, task=task, today="2026-12-03", steps=steps)


def test_a_name_no_observation_about_the_question_supports_is_sent_back():
    verdict = names_are_grounded(candidate("Who invented the phonograph?",
                                           "The phonograph was invented by Louis Daguerre.", PHOTOGRAPHY))
    assert verdict and "Louis Daguerre" in verdict
    assert names_are_grounded(candidate("Who invented the phonograph?",
                                        "The phonograph was invented by Thomas Edison.", PHOTOGRAPHY, EDISON)) is None


def test_names_named_by_the_question_or_starting_a_sentence_need_no_source():
    assert names("The answer is Paris. It is in France, says Victor Hugo.") == ["Paris", "France", "Victor Hugo"]
    assert names_are_grounded(candidate("Where is Thomas Edison buried?", "Thomas Edison is buried there.")) is None


def test_question_parts():
    assert question_parts("What is Python, and what is 15 raised to the power of 2?") == [
        "What is Python", "what is 15 raised to the power of 2"]
    assert question_parts("Who wrote Hamlet and Macbeth?") == ["Who wrote Hamlet and Macbeth"]


def test_an_answer_that_leaves_a_part_out_is_sent_back():
    task = "What is Python, and what is 15 raised to the power of 2?"
    assert every_part_answered(candidate(task, "Python is a programming language; 15 squared is 225.")) is None
    verdict = every_part_answered(candidate(task, "15 raised to the power of 2 is 225."))
    assert verdict and '"What is Python"' in verdict
    assert every_part_answered(candidate(task, "Python is a programming language.")) is not None
    assert every_part_answered(candidate("Who invented the phonograph?", "Edison.")) is None  # one part


def test_a_check_may_be_an_llm_call_and_its_verdict_is_on_the_final_step():
    from agent.checks import answer_judge, checks_named
    from agent.config import AgentConfig
    from agent.llm.replay import Replay
    from agent.loop import Agent
    from tools.base import ToolRegistry
    from tools.calculator import calculator

    judge_llm = Replay(["NO: the answer names no product.", "YES"])
    steps = ["Thought: Compute.\nAction: calculator\nAction Input: 6*7",
             "Thought: Done.\nAction: Final\nAction Input: It is large.",
             "Thought: Be precise.\nAction: Final\nAction Input: 6 times 7 is 42."]
    config = AgentConfig(final_answer_checks=checks_named("numbers,judge", llm=judge_llm))
    result = Agent(Replay(steps), ToolRegistry([calculator]), config=config).run("What is 6 times 7?")
    assert result.answer == "6 times 7 is 42."
    sent_back, accepted = result.steps[1], result.steps[2]
    assert sent_back.outcome == "final_sent_back" and "a reviewer says the answer names no product." in \
        sent_back.observation
    assert sent_back.verdicts["answer_judge"].startswith("Check before finishing")
    assert accepted.verdicts == {"numbers_are_grounded": "ok", "answer_judge": "ok"}
    judged = judge_llm.calls[0][0].content
    assert "calculator('6*7'): 42" in judged and "Proposed final answer: It is large." in judged
    assert judge_llm.grammars == [answer_judge(judge_llm).__globals__["JUDGE_GBNF"]] * 2
    with pytest.raises(ValueError):
        checks_named("judge")  # no model to judge with


# ---- action checks: date_diff with one date, for a question about two ----

TWO_BIRTHS = "How many years after Galileo Galilei was born was Isaac Newton born?"


@pytest.mark.parametrize("action_input", ["1564", '"1564"', '{"start": "1564"}', '{"start": 1564}', "1564 to today",
                                          '{"start": "1564", "end": "today"}', "February 15, 1564", "1564-02-15"])
def test_date_diff_with_one_date_is_refused_for_a_span_between_two(action_input):
    message = date_diff_needs_two_dates("date_diff", action_input, TWO_BIRTHS)
    assert message and message.startswith("date_diff needs both dates here: the question asks for a span between "
                                           "two dates, not from ")
    assert "to today" in message and "Give the two dates" in message


def test_the_refusal_names_the_date_given():
    assert date_diff_needs_two_dates("date_diff", "1564", TWO_BIRTHS).endswith(
        "not from 1564 to today. Give the two dates in one input: 1564, <the other date>.")


@pytest.mark.parametrize("task", [
    "How old would Galileo Galilei be today if he were alive?",
    "How many years ago was Galileo Galilei born?",
    "How long ago did Apollo 11 land on the Moon?",
    "What would Galileo's age be now?",
    "How many years have passed since the Battle of Hastings?",
    "Is the current president older than the Eiffel Tower?",
])
def test_one_date_is_allowed_when_the_question_is_about_today(task):
    assert date_diff_needs_two_dates("date_diff", "1564", task) is None


@pytest.mark.parametrize("action_input", ["1564, 1642", "1564 to 1642", '{"start": "1564", "end": "1642"}',
                                          "February 15, 1564 | December 25, 1642", "1564-02-15, 1642-12-25"])
def test_two_dates_are_allowed(action_input):
    assert date_diff_needs_two_dates("date_diff", action_input, TWO_BIRTHS) is None


def test_an_input_that_is_no_date_is_left_to_the_tools_own_error():
    """Held-out omh-222: "1.3020 parsecs" was refused four times with "give the two dates: 1.3020 parsecs, <the other
    date>", and the lead stopped on repeated actions; the tool itself says it cannot read a date there."""
    assert date_diff_needs_two_dates("date_diff", "1.3020 parsecs", TWO_BIRTHS) is None
    assert date_diff_needs_two_dates("date_diff", "1.3020 parsecs, 2026-12-06", TWO_BIRTHS) is None
    assert date_diff_needs_two_dates("date_diff", "February 15, 1564", TWO_BIRTHS) is not None


def test_only_date_diff_calls_are_checked():
    assert date_diff_needs_two_dates("calculator", "1564", TWO_BIRTHS) is None
    assert date_diff_needs_two_dates("date_diff", '{"when": 1, "other": 2}', TWO_BIRTHS) is None  # the tool's error


def run_two_births(*replies: str, **config):
    from agent.config import AgentConfig
    from agent.llm.replay import Replay
    from agent.loop import Agent
    from tools.base import ToolRegistry
    from tools.clock import date_diff

    llm = Replay(list(replies))
    return llm, Agent(llm, ToolRegistry([date_diff]), config=AgentConfig(**config)).run(TWO_BIRTHS)


def test_the_loop_refuses_the_call_before_the_tool_runs_and_the_model_reads_why():
    llm, result = run_two_births(
        "Thought: Galileo was born in 1564.\nAction: date_diff\nAction Input: 1564",
        "Thought: Both births then.\nAction: date_diff\nAction Input: 1564, 1642",
        "Thought: Done.\nAction: Final\nAction Input: Newton was born 78 years after Galileo.")
    refused, ran = result.steps[0], result.steps[1]
    assert refused.outcome is StepOutcome.tool_refused and refused.observation.startswith("date_diff needs both dates")
    assert "years" not in refused.observation  # no count up to today: the tool did not run
    assert refused.verdicts == {"date_diff_needs_two_dates": refused.observation}
    assert refused.observation in llm.calls[1][-1].content
    assert ran.outcome is StepOutcome.tool and "78 years" in ran.observation
    assert result.answer == "Newton was born 78 years after Galileo."


def test_without_the_check_the_one_date_call_runs():
    _, result = run_two_births("Thought: Galileo was born in 1564.\nAction: date_diff\nAction Input: 1564",
                               "Thought: Done.\nAction: Final\nAction Input: I cannot say.", action_checks=[])
    assert result.steps[0].outcome is StepOutcome.tool and "start 1564 to end" in result.steps[0].observation


def test_asking_again_for_a_refused_call_is_a_repeat():
    _, result = run_two_births(*["Thought: From 1564.\nAction: date_diff\nAction Input: 1564"] * 4,
                               "Newton was born after Galileo.")
    assert result.stop_reason is StopReason.repeated_action
    assert {step.outcome for step in result.steps} == {StepOutcome.tool_refused}
